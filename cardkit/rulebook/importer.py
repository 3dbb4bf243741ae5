"""`cardkit import`: a rulebook transcription -> draft YAML documents; `export`: back again.

Each game system's `rulebook` module parses its books; this module picks the
system, names the files, checks that nothing is lost, and writes atomically,
never over an existing file without `force`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from cardkit import systems
from cardkit.errors import InputError, UsageError
from cardkit.files import atomic, yamlio
from cardkit.rulebook.words import slugify


@dataclass
class ImportResult:
    system: str
    box: str
    out: Path
    documents: list[dict[str, Any]]
    files: dict[Path, str] = field(default_factory=dict)
    unrepresented: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def cards(self) -> int:
        return _count(
            self.documents,
            lambda key, value: (
                key == "cards"
                and isinstance(value, list)
                and all(isinstance(c, dict) for c in value)
            ),
        )

    @property
    def gap_notes(self) -> int:
        return _count(self.documents, lambda key, value: key in ("gaps", "gap"))

    @property
    def kept_lines(self) -> int:
        return sum(len(doc.get("kept_text", [])) for doc in self.documents)


def _count(value: Any, match: Any) -> int:
    total = 0
    if isinstance(value, dict):
        for key, child in value.items():
            if match(key, child):
                total += len(child) if isinstance(child, list) else 1
            total += _count(child, match)
    elif isinstance(value, list):
        total += sum(_count(child, match) for child in value)
    return total


def readers() -> dict[str, ModuleType]:
    """Every system that has a rulebook reader, by name."""
    return {system.name: reader for system in systems.all_systems() if (reader := system.reader)}


def system_module(system: str) -> ModuleType:
    """The system's reader: `detects`, `parse`, `render`, `warnings`, `unrepresented`."""
    found = readers()
    if system not in found:
        try:
            systems.get(system)
        except systems.UnknownName as err:
            raise UsageError(str(err)) from None
        raise UsageError(f"system '{system}' has no rulebook reader")
    return found[system]


def detect_system(text: str, source: Path | None = None) -> str:
    for name, reader in readers().items():
        if reader.detects(text):
            return name
    known = ", ".join(readers())
    where = f"{source}: " if source else ""
    raise UsageError(f"{where}cannot tell which game this rulebook is for; pass --system ({known})")


def default_box(path: Path, system: str) -> str:
    stem = slugify(path.stem)
    if stem in ("rulebook", "manual", "source", "text"):
        stem = slugify(path.resolve().parent.name)
    return stem.removeprefix(system + "-") or "box"


def file_name(doc: dict[str, Any]) -> str:
    return "box.yaml" if systems.is_manifest(doc["kind"]) else f"{doc['id']}.yaml"


def modeline(kind: str, target: Path) -> str:
    """Relative to the repository's exported schemas/, never the install (schemas/modeline.py)."""
    from cardkit.schemas import modeline as modelines

    return modelines.line(kind, target)


def _source_name(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.name


def plan_import(
    path: Path, out: Path, *, system: str | None = None, box: str | None = None
) -> ImportResult:
    try:
        text = yamlio.decode(yamlio.read_bytes(path))  # a regular file, under the 10 MB cap
    except OSError as err:
        raise InputError(f"{path}: cannot read: {err.strerror}") from None
    except yamlio.YamlProblem as problem:
        raise InputError(f"{path}:{problem.line}:{problem.column}: {problem.message}") from None
    system = system or detect_system(text, path)
    module = system_module(system)
    box = box or default_box(path, system)
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", box):
        raise UsageError(f"--box '{box}' is not an id: use lower-case letters, digits and dashes")
    try:
        documents = module.parse(text, box, _source_name(path))
    except (ValueError, StopIteration) as err:
        raise InputError(
            f"{path}: not a {system} rulebook this importer can read ({err})"
        ) from None
    result = ImportResult(system, box, out, documents)
    result.unrepresented = unrepresented(module, text, documents)
    if result.unrepresented and documents:
        # kept where they stay visible: validate (CK300) and gaps list them until placed
        holder = next((d for d in documents if systems.is_manifest(str(d.get("kind")))), None)
        (holder or documents[0])["unclaimed"] = list(result.unrepresented)
    for doc in documents:
        target = out / file_name(doc)
        result.files[target] = yamlio.dump_document(doc, modeline(doc["kind"], target))
        size = len(result.files[target].encode("utf-8"))
        if size > yamlio.MAX_FILE_BYTES:
            raise InputError(
                f"{path}: {target.name} would be {size:,} bytes, past the "
                f"{yamlio.MAX_FILE_BYTES:,} cap of a card file; nothing was written"
            )
    result.warnings = list(module.warnings(documents))
    result.warnings += losses(module, text, documents)
    return result


def losses(module: ModuleType, text: str, documents: list[dict[str, Any]]) -> list[str]:
    """What makes an import lossy though every line was kept: nothing to hold it in."""
    found = []
    if getattr(module, "NEEDS_CONTENTS", False):
        from cardkit.rulebook.outline import parse_outline

        if not parse_outline(text).toc:
            found.append(
                "no table of contents: the book's sections cannot be found "
                "(docs/transcription-format.md)"
            )
    kinds = [str(doc.get("kind", "")) for doc in documents]
    if all(systems.is_manifest(kind) for kind in kinds):
        group = systems.group_label(kinds[0]) if kinds else ""  # what the game groups by
        parts = ", ".join([group, "card"] if group else ["card"])
        found.append(
            f"nothing was recognised: no {parts} or section became a document, "
            "only the box manifest"
        )
    return found


def unrepresented(module: ModuleType, text: str, documents: list[dict[str, Any]]) -> list[str]:
    """Source lines that no document holds: the system's own check, or the export diff."""
    if module.unrepresented is not None:
        return list(module.unrepresented(text, documents))
    source = [line.rstrip() for line in text.splitlines() if line.strip()]
    exported = [line.rstrip() for line in module.render(documents).splitlines() if line.strip()]
    return lost_lines(source, exported)


def lost_lines(source: list[str], exported: list[str]) -> list[str]:
    """Source lines the export does not hold, in source order; linear time.

    A line is held if the export has it as many times as the source does (a multiset
    match by hash): a line the export moved is still there, so it is not lost. A diff
    (difflib) would also flag moved lines, at cubic cost on repetitive text.
    """
    left = Counter(exported)
    lost = []
    for line in source:
        if left[line]:
            left[line] -= 1
        else:
            lost.append(line)
    return lost


def existing(result: ImportResult) -> list[Path]:
    return [path for path in result.files if path.exists()]


def write(result: ImportResult, *, force: bool) -> list[Path]:
    clashes = existing(result)
    if clashes and not force:
        raise UsageError(
            f"{len(clashes)} file(s) already exist, e.g. {clashes[0]}; nothing was written "
            "(use --force to overwrite, --dry-run to see the plan)"
        )
    if result.out.exists() and not result.out.is_dir():
        raise UsageError(f"{result.out}: --out names a file; give a folder; nothing was written")
    try:
        result.out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise yamlio.OutputError(
            f"{result.out}: cannot make the folder: {err.strerror}; nothing was written"
        ) from None
    return atomic.write_new_files(result.files, force=force)


def summary(result: ImportResult) -> str:
    return (
        f"{result.system} / {result.box}: {len(result.files)} files, {result.cards} cards, "
        f"{result.gap_notes} gap notes, {result.kept_lines} lines kept verbatim, "
        f"{len(result.warnings)} sentences not understood, "
        f"{len(result.unrepresented)} unrepresented lines"
    )


def load_documents(paths: list[Path]) -> list[dict[str, Any]]:
    from cardkit.check.validate import collect_files

    documents = []
    for path in collect_files(paths):
        try:
            data = yamlio.load_text(yamlio.read_text(path))
        except yamlio.YamlProblem as problem:
            raise InputError(f"{path}:{problem.line}:{problem.column}: {problem.message}") from None
        if isinstance(data, dict):
            documents.append(data)
    return documents


def export_rulebook(paths: list[Path]) -> str:
    documents = load_documents(paths)
    systems = {str(doc.get("kind", "")).split("/", 1)[0] for doc in documents}
    if len(systems) != 1:
        raise UsageError(
            f"export one box at a time; these files hold {sorted(systems) or 'no documents'}"
        )
    module = system_module(systems.pop())
    if module.render is None:
        raise UsageError("this system's rulebooks are raw layout text; there is no export for them")
    try:
        return str(module.render(documents))
    except (KeyError, TypeError, ValueError, StopIteration) as err:
        hint = "; give the box's folder" if len(paths) == 1 and paths[0].is_file() else ""
        raise InputError(
            f"cannot export: the documents are incomplete ({err}); run cardkit validate{hint}"
        ) from None
