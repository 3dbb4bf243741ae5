"""The contract a game system implements: what it declares and every hook it may provide.

A game system is one package (built in: `cardkit/games/<game>/`; outside cardkit: any
package named by the `cardkit.systems` entry-point group or `CARDKIT_SYSTEMS`). Its
`__init__.py` declares the constants of `Declaration`; everything but `NAME` is optional.
Beside it, by name:

- `rules.py`: imported once when the game loads, so its `@document_rule`,
  `@stream_rule`, `@tree_rule` and `@note_reader` functions register;
- `proof.py`: a `ProofPainter` (how its documents become proxy cards);
- `assemble.py`: an `Assembler` (one document from many single-card OCR drafts);
- `cli.py`: a `CliFace` (the `import`/`export` verbs of its exchange formats);
- data files found through the registry (`System.data_file`): `tokens.yaml` (its token
  vocabulary), `icons.yaml`, `token_palette.yaml`, `headings.yaml`, `ocr.yaml`,
  `equivalents.yaml`; and `schemas/<NAME>/*.schema.json` for a game outside cardkit.

The registry (`cardkit.systems`) checks a game against this contract when it loads
(`check_game`), so a reader without `parse` is named then, not when a user hits it.
Rules and values a game needs are re-exported here: a plug-in imports only this module.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, runtime_checkable

from cardkit.check.rules import (
    DocumentRef,
    Finding,
    NoteReader,
    Tree,
    document_rule,
    note_reader,
    ref,
    stream_rule,
    tree_rule,
)
from cardkit.errors import UsageError
from cardkit.model import Document, Pointer, Severity
from cardkit.systems import legacy

if TYPE_CHECKING:
    from cardkit.render.content import ProofCard

__all__ = [
    "Assembler",
    "CliFace",
    "Correction",
    "Declaration",
    "Document",
    "DocumentRef",
    "Finding",
    "Grouping",
    "ImportVerb",
    "NoteReader",
    "Pointer",
    "ProofPainter",
    "RulebookReader",
    "Severity",
    "Tree",
    "check_game",
    "document_rule",
    "note_reader",
    "ref",
    "stream_rule",
    "tree_rule",
]


class Grouping(TypedDict, total=False):
    """How a game's documents group (`GROUP`): what the gap listings, their filters, the
    build page and its thumbnails call a document's group.

    A document of `kind` is a group of its own (its id); any other document belongs to
    the group its `ref` field names. A document with neither belongs to none ("").
    """

    name: str  # required: the group's word for people (the build page's filter label)
    kind: str  # the kind whose documents are each a group: `marvel-united/villain`
    ref: str  # the field naming a document's group: `villain_ref`


GROUP_KEYS = frozenset(Grouping.__annotations__)


class Declaration(Protocol):
    """The constants a game's `__init__.py` declares (all but NAME optional).

    `VILLAIN_KIND = "K"` (the name before GROUP) is still read, as
    `GROUP = {"name": "villain", "kind": "K", "ref": "villain_ref"}`; GROUP wins."""

    NAME: str  # the kind prefix: `marvel-united/villain`
    TITLE: str  # for people; readers use it to detect a book
    MANIFEST_KIND: str  # the kind describing one box (its file is box.yaml)
    GROUP: Grouping  # how its documents group (gaps --group-by group, the page's filter)
    READER: str  # the module of its `RulebookReader`
    PROOF_KINDS: dict[str, str]  # kind -> how proofs collect it, for a game without proof.py
    CORRECTIONS: dict[str, str]  # field -> "module:function", a `Correction`
    CARD_SIZE: dict[str, str]  # {"width": "63.5mm", "height": "88.9mm"}
    SLOTS: tuple[str, ...]  # the slots a placement names, in printed order


@runtime_checkable
class RulebookReader(Protocol):
    """A game's rulebook transcription reader (docs/transcription-format.md)."""

    def detects(self, text: str) -> bool:
        """True when the text is a book of this game (never by one book's sentences)."""

    def parse(self, text: str, box: str, source: str) -> list[dict[str, Any]]:
        """The book's documents, plain data each with `kind` and `id`."""

    def warnings(self, documents: list[dict[str, Any]]) -> list[str]:
        """What the import should tell the user about the documents it made."""


class OptionalReaderHooks(Protocol):
    """Optional on a reader; at least one of them, so an import can tell what it lost.
    `render = None` says a book has no export back to its text."""

    def render(self, documents: list[dict[str, Any]]) -> str:
        """The book's text back from its documents (`cardkit export rulebook`)."""

    def unrepresented(self, text: str, documents: list[dict[str, Any]]) -> list[str]:
        """The source lines no document field holds (else: the source against `render`)."""


@runtime_checkable
class ProofPainter(Protocol):
    """A game's `proof.py`: the proxy cards one document prints as."""

    def collect(self, doc: Document, warn: Callable[[str], None]) -> list[ProofCard]:
        """The document's proof cards; `warn` says what cannot be drawn."""


class ImportVerb(Protocol):
    """`cardkit import WORD FILE... --out DIR`: a format a game reads (`marvelsdb`).

    A verb may carry a `detects(path) -> bool` attribute: then `cardkit import FILE`
    with no WORD picks it for a file whose content is its format.
    """

    def __call__(
        self, files: list[Path], out: Path, *, box: str | None, dry_run: bool, force: bool
    ) -> None: ...


class CliFace(Protocol):
    """A game's `cli.py`: the command-line verbs of its exchange formats. It is a face
    (it may use Typer); `register` runs when the CLI starts."""

    def register(self, import_formats: dict[str, ImportVerb], export_app: Any) -> None:
        """Add `import_formats[WORD] = verb` and `@export_app.command(WORD)` commands."""


class Assembler(Protocol):
    """A game's `assemble.py`: one document from many single-card OCR drafts
    (`cardkit ocr --assemble`; Marvel United builds a villain)."""

    def group(
        self, drafts: list[tuple[Path, dict[str, Any]]]
    ) -> dict[tuple[str, str], list[tuple[Path, dict[str, Any]]]]:
        """Drafts by (system, group name); drafts it does not assemble are left out."""

    def assemble(
        self, system: str, name: str, members: list[tuple[Path, dict[str, Any]]]
    ) -> dict[str, Any]:
        """The one document the group's drafts make."""

    def clashes(self, members: list[tuple[Path, dict[str, Any]]]) -> list[str]:
        """Why the group cannot be assembled (two drafts of one card), if it cannot."""


# How a confirmed correction of one field merges into the old value (a corrected
# placement keeps its anchor): (old value, new value) -> merged value.
Correction = Callable[[Any, Any], Any]

READER_FUNCTIONS = ("detects", "parse", "warnings")
READER_OPTIONAL = ("render", "unrepresented")


def resolve(target: str, where: str) -> Callable[..., Any]:
    """`package.module:function` -> the function; a bad target is a UsageError naming `where`."""
    module_name, _, function = target.partition(":")
    try:
        found = getattr(importlib.import_module(module_name), function)
    except (ImportError, AttributeError, ValueError) as err:
        raise UsageError(f"{where}: '{target}' cannot be loaded: {err}") from None
    if not callable(found):
        raise UsageError(f"{where}: '{target}' is not a function")
    return found  # type: ignore[no-any-return]


def _top_level(module_name: str, where: str) -> dict[str, bool]:
    """The names a module defines at its top level, without running it (a game is checked
    on every command's start: importing its reader would cost more than the command):
    name -> True for a function (or an imported name), False for `name = None`."""
    import ast
    import importlib.util

    try:
        spec = importlib.util.find_spec(module_name)
    except (ImportError, ValueError) as err:
        raise UsageError(f"{where}: '{module_name}' cannot be imported: {err}") from None
    if spec is None or spec.origin is None:
        raise UsageError(f"{where}: '{module_name}' cannot be imported: no such module")
    try:
        with open(spec.origin, encoding="utf-8") as source:
            tree = ast.parse(source.read())
    except (OSError, SyntaxError, UnicodeDecodeError) as err:
        raise UsageError(f"{where}: '{module_name}' cannot be read: {err}") from None
    names: dict[str, bool] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names[node.name] = True
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update({(a.asname or a.name).split(".")[0]: True for a in node.names})
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            is_none = isinstance(node.value, ast.Constant) and node.value.value is None
            for target in targets:
                if isinstance(target, ast.Name):
                    names[target.id] = not is_none
    return names


def check_game(module: ModuleType) -> None:
    """Hold a game module to this contract; the first breach is one UsageError naming it.

    The reader and the corrections are checked from their source, not imported."""
    game = module.__name__
    name = getattr(module, "NAME", None)
    if not isinstance(name, str) or not name:
        raise UsageError(f"game system '{game}' declares no NAME")
    for constant in ("TITLE", "MANIFEST_KIND", legacy.OLD_DECLARATION, "READER"):
        value = getattr(module, constant, None)
        if value is not None and not isinstance(value, str):
            raise UsageError(f"game system '{name}': {constant} must be a string")
    for constant in ("PROOF_KINDS", "CORRECTIONS", "CARD_SIZE"):
        value = getattr(module, constant, None)
        if value is not None and not isinstance(value, dict):
            raise UsageError(f"game system '{name}': {constant} must be a mapping")
    _check_group(name, getattr(module, "GROUP", None))
    reader_name = getattr(module, "READER", None)
    if reader_name:
        defined = _top_level(reader_name, f"game system '{name}': READER")
        missing = [f for f in READER_FUNCTIONS if not defined.get(f)]
        if not any(defined.get(f) for f in READER_OPTIONAL):
            missing.append("render or unrepresented")
        if missing:
            raise UsageError(
                f"game system '{name}': its reader '{reader_name}' has no "
                + ", ".join(missing)
                + " (see cardkit.plugin.RulebookReader)"
            )
    for field, target in (getattr(module, "CORRECTIONS", None) or {}).items():
        where = f"game system '{name}': CORRECTIONS['{field}']"
        module_name, _, function = str(target).partition(":")
        if not function or not _top_level(module_name, where).get(function):
            raise UsageError(f"{where}: '{target}' names no function")


def _check_group(name: str, group: Any) -> None:
    """GROUP is a mapping of strings with a `name`, and only the keys `Grouping` has."""
    if group is None:
        return
    where = f"game system '{name}': GROUP"
    if not isinstance(group, dict):
        raise UsageError(f"{where} must be a mapping (see cardkit.plugin.Grouping)")
    unknown = sorted(set(map(str, group)) - GROUP_KEYS)
    if unknown:
        raise UsageError(f"{where} has no key {', '.join(unknown)}; it takes name, kind, ref")
    if not group.get("name"):
        raise UsageError(f"{where} has no name (the group's word for people)")
    wrong = sorted(key for key, value in group.items() if not isinstance(value, str))
    if wrong:
        raise UsageError(f"{where}: {', '.join(wrong)} must be a string")
