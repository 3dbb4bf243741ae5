"""Game systems and their registry.

A game system is one package (built in: a folder here) whose `__init__.py` says what
it is, and which the core only ever reaches through this registry:

    NAME = "marvel-united"                 # kind prefix: marvel-united/villain
    TITLE = "Marvel United"                # for people
    MANIFEST_KIND = "marvel-united/box"    # the kind describing one box, if any
    GROUP = {"name": "villain", "kind": "marvel-united/villain", "ref": "villain_ref"}
                                           # how its documents group (cardkit.plugin.Grouping)
    READER = "cardkit.games.marvel_united.rulebook"   # the rulebook reader, if any
    PROOF_KINDS = {"villain": "villain", "henchmen": "sheet"}   # how proofs collect cards
    CORRECTIONS = {"place": "cardkit.games.marvel_united.placement:merge"}
    CARD_SIZE = {"width": "63.5mm", "height": "88.9mm"}  # if render/formats.yaml has none

Beside it: `rules.py` (its rules, registered on import), `tokens.yaml` (its token
vocabulary) and, for a system outside cardkit, `schemas/<NAME>/*.schema.json`.
Systems outside cardkit are found through the `cardkit.systems` entry-point group or
the `CARDKIT_SYSTEMS` environment variable (comma-separated module names).

    from cardkit import systems
    mu = systems.get("marvel-united")      # UnknownName, with "did you mean", if absent
    mu.kinds                               # ["marvel-united/box", ...]
    mu.tokens["civilian"].plural           # "Civilians"
    systems.for_kind("villainous/card")    # the System a kind belongs to
    systems.group_of(document)             # "klaw": the document's group, by its game
    systems.group_label("marvel-united/hero")   # "villain": what its game calls a group

See docs/architecture.md.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import metadata, resources
from pathlib import Path
from types import ModuleType
from typing import Any

from cardkit import suggest
from cardkit.systems import legacy

ENTRY_POINTS = "cardkit.systems"
ENVIRONMENT = "CARDKIT_SYSTEMS"
TOKENS_FILE = "tokens.yaml"
CORE = "cardkit.check.core"  # the rules every system's documents share
_loaded: list[ModuleType] = []


class UnknownName(LookupError):
    """A system or token name that is not registered; the message says what is close."""

    def __init__(self, what: str, name: str, known: list[str]) -> None:
        super().__init__(f"unknown {what} '{name}'; {suggest.hint(name, known)}")
        self.name = name


@dataclass(frozen=True)
class Token:
    """One entry of a token vocabulary (schema: `common.schema.json#/$defs/token`)."""

    name: str
    singular: str
    plural: str
    mark: str
    icon: str
    role: str
    description: str | None = None

    def label(self, count: int) -> str:
        """The printed name for `count` of it: `1 Civilian`, `2 Crisis tokens`."""
        return f"{count} {self.singular if count == 1 else self.plural}"


class Vocabulary(dict[str, Token]):
    """A system's tokens by name, in the order the data declares them."""

    def __init__(self, system: str, tokens: list[Token]) -> None:
        super().__init__((token.name, token) for token in tokens)
        self.system = system

    def get_token(self, name: str) -> Token:
        """The token, or UnknownName with the closest declared name."""
        if name not in self:
            raise UnknownName(f"{self.system} token", name, list(self))
        return self[name]

    def with_role(self, role: str) -> list[Token]:
        return [token for token in self.values() if token.role == role]

    def extended(self, entries: list[dict[str, Any]]) -> Vocabulary:
        """This vocabulary plus tokens a box manifest declares (same fields)."""
        return Vocabulary(self.system, [*self.values(), *(_token(entry) for entry in entries)])


def _token(entry: dict[str, Any]) -> Token:
    return Token(**{key: entry[key] for key in entry if key in Token.__dataclass_fields__})


@dataclass(frozen=True)
class System:
    """One game system, as the registry knows it: data and hooks its package declares."""

    name: str
    module: ModuleType = field(repr=False, compare=False)

    def _declared(self, attribute: str, default: Any = None) -> Any:
        return getattr(self.module, attribute, default)

    @property
    def title(self) -> str:
        return str(self._declared("TITLE", self.name))

    @property
    def manifest_kind(self) -> str | None:
        """The kind of the file that describes one box of this system, if it has one."""
        value = self._declared("MANIFEST_KIND")
        return str(value) if value else None

    @cached_property
    def grouping(self) -> dict[str, str]:
        """How its documents group (`GROUP`, or the older `VILLAIN_KIND`); {} for none."""
        declared = self._declared("GROUP")
        if declared:
            return {str(key): str(value) for key, value in dict(declared).items()}
        old = self._declared(legacy.OLD_DECLARATION)
        return legacy.grouping(str(old)) if old else {}

    @property
    def group_label(self) -> str:
        """What the game calls a group of its documents, for people ("" for no grouping)."""
        return self.grouping.get("name", "")

    def group_of(self, kind: str, document_id: str | None, data: Any) -> str:
        """The group of a document of this game: its own id if its kind is the group's
        kind, else the value of the group's `ref` field, else ""."""
        grouping = self.grouping
        if not grouping:
            return ""
        if kind == grouping.get("kind"):
            return document_id or ""
        ref = grouping.get("ref")
        return str(data.get(ref, "")) if ref and isinstance(data, dict) else ""

    @property
    def kinds(self) -> list[str]:
        from cardkit.schemas import registry as schemas

        return [kind for kind in schemas.kinds() if kind.split("/")[0] == self.name]

    @cached_property
    def tokens(self) -> Vocabulary:
        return Vocabulary(self.name, [_token(entry) for entry in _read_tokens(self.module)])

    def hook(self, name: str) -> ModuleType | None:
        """The system's hook module `name` (`proof`, `assemble`: cardkit.plugin), if any."""
        qualified = f"{self.module.__name__}.{name}"
        if importlib.util.find_spec(qualified) is None:
            return None
        return importlib.import_module(qualified)

    def data_file(self, name: str) -> Path | None:
        """A data file this system ships beside its `__init__.py` (`icons.yaml`), if any."""
        source = Path(str(resources.files(self.module))) / name
        return source if source.is_file() else None

    @property
    def schema_dir(self) -> Path | None:
        """A folder of this system's own schemas (`<NAME>/*.schema.json`), if it ships one."""
        folder = Path(str(resources.files(self.module))) / "schemas"
        return folder if folder.is_dir() else None

    @property
    def reader(self) -> ModuleType | None:
        """The rulebook reader: `parse`, `detects`, `render`, `warnings`, `unrepresented`."""
        name = self._declared("READER")
        return importlib.import_module(str(name)) if name else None

    @property
    def proof_kinds(self) -> dict[str, str]:
        """Kind name (after the slash) -> how proofs collect its cards."""
        return dict(self._declared("PROOF_KINDS", {}))

    @property
    def slots(self) -> tuple[str, ...]:
        """The slots a placement of this system names, in printed order (none: no placements)."""
        return tuple(str(slot) for slot in self._declared("SLOTS", ()))

    @property
    def card_size(self) -> dict[str, str] | None:
        value = self._declared("CARD_SIZE")
        return dict(value) if value else None

    def correction(self, key: str) -> Callable[[Any, Any], Any] | None:
        """How a confirmed correction of field `key` merges into the old value, if specially."""
        target = self._declared("CORRECTIONS", {}).get(key)
        if not target:
            return None
        module, _, function = str(target).partition(":")
        found: Callable[[Any, Any], Any] = getattr(importlib.import_module(module), function)
        return found


def _read_tokens(module: ModuleType) -> list[dict[str, Any]]:
    from cardkit.files import yamlio

    source = resources.files(module).joinpath(TOKENS_FILE)
    if not source.is_file():
        return []
    data = yamlio.load_text(source.read_text(encoding="utf-8"))
    return list(data.get("tokens", [])) if isinstance(data, dict) else []


def module_names() -> list[str]:
    """Every system's module name, none imported: built-in systems (core first), then
    entry points, then CARDKIT_SYSTEMS."""
    names = list(_installed())
    names += [name.strip() for name in os.environ.get(ENVIRONMENT, "").split(",") if name.strip()]
    return list(dict.fromkeys(names))


@cache
def _installed() -> tuple[str, ...]:
    """Built-in games and entry points: found once a process (the CLI's start asks for its
    games' faces, then loads the games; reading every package's metadata costs ~10 ms)."""
    from cardkit import games

    built_in = sorted(info.name for info in pkgutil.iter_modules(games.__path__) if info.ispkg)
    names = [CORE, *(f"{games.__name__}.{name}" for name in built_in)]
    names += [entry.value for entry in metadata.entry_points(group=ENTRY_POINTS)]
    return tuple(names)


def _import(name: str) -> ModuleType:
    from cardkit.errors import UsageError

    try:
        module = importlib.import_module(name)
    except ImportError as err:
        raise UsageError(f"game system '{name}' cannot be imported: {err}") from None
    if name == CORE:
        return module
    from cardkit import plugin

    plugin.check_game(module)  # a game's mistake is named now, not when a user hits it
    return module


def load() -> list[ModuleType]:
    """Import every system once, and its `rules` module if it has one, so rules register."""
    if not _loaded:
        for name in module_names():
            module = _import(name)
            if importlib.util.find_spec(f"{name}.rules") is not None:
                importlib.import_module(f"{name}.rules")
            _loaded.append(module)
    return list(_loaded)


_systems: dict[str, System] = {}


def all_systems() -> list[System]:
    """Every registered game system (not the `core` rules), in registration order."""
    if not _systems:
        for module in load():
            if module.NAME != "core":
                _systems[str(module.NAME)] = System(str(module.NAME), module)
    return list(_systems.values())


def system_names() -> list[str]:
    return [system.name for system in all_systems()]


def get(name: str) -> System:
    """The system called `name`, or UnknownName saying which name is close."""
    for system in all_systems():
        if system.name == name:
            return system
    raise UnknownName("system", name, system_names())


def for_kind(kind: str) -> System:
    """The system a kind such as `villainous/card` belongs to."""
    return get(kind.split("/")[0])


def group_of(document: Any) -> str:
    """The group of a document (anything with `kind`, `id`, `data`), by its game's GROUP;
    "" when its game declares none or is not registered."""
    try:
        system = for_kind(document.kind)
    except UnknownName:
        return ""
    return system.group_of(document.kind, document.id, document.data)


def group_label(kind: str) -> str:
    """What the game of `kind` calls a group ("villain"); "" for none or an unknown game."""
    try:
        return for_kind(kind).group_label
    except UnknownName:
        return ""


def is_manifest(kind: str) -> bool:
    """True for a kind that describes one box (`marvel-united/box`)."""
    return any(system.manifest_kind == kind for system in all_systems())


def correction(kind: str, key: str) -> Callable[[Any, Any], Any] | None:
    """The merge for a corrected field `key` of a `kind` document, if its system has one."""
    try:
        return for_kind(kind).correction(key)
    except UnknownName:
        return None
