"""Game systems and their registry.

A game system is one folder here (a Python package) whose `__init__.py` says what it
is: `NAME` (its kind prefix, e.g. `marvel-united`), optionally `TITLE` and
`MANIFEST_KIND`, and a `tokens.yaml` token vocabulary beside it. Its rules live in
its `rules` module, its schemas under `schemas/<NAME>/`.

The core asks the registry, never a system by name:

    from cardkit import systems
    mu = systems.get("marvel-united")      # UnknownName, with "did you mean", if absent
    mu.kinds                               # ["marvel-united/box", ...]
    mu.tokens["civilian"].plural           # "Civilians"
    systems.for_kind("villainous/card")    # the System a kind belongs to

See docs/architecture.md.
"""

from __future__ import annotations

import difflib
import importlib
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from types import ModuleType
from typing import Any

PACKAGES = ("core", "marvel_united", "marvel_champions", "villainous")
TOKENS_FILE = "tokens.yaml"
_loaded: list[ModuleType] = []


class UnknownName(LookupError):
    """A system or token name that is not registered; the message says what is close."""

    def __init__(self, what: str, name: str, known: list[str]) -> None:
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else f" (known: {', '.join(known)})"
        super().__init__(f"unknown {what} '{name}'{hint}")
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
    """One game system, as the registry knows it."""

    name: str
    module: ModuleType = field(repr=False, compare=False)

    @property
    def title(self) -> str:
        return str(getattr(self.module, "TITLE", self.name))

    @property
    def manifest_kind(self) -> str | None:
        """The kind of the file that describes one box of this system, if it has one."""
        value = getattr(self.module, "MANIFEST_KIND", None)
        return str(value) if value else None

    @property
    def kinds(self) -> list[str]:
        from cardkit import schemas

        return [kind for kind in schemas.kinds() if kind.split("/")[0] == self.name]

    @cached_property
    def tokens(self) -> Vocabulary:
        return Vocabulary(self.name, [_token(entry) for entry in _read_tokens(self.module)])


def _read_tokens(module: ModuleType) -> list[dict[str, Any]]:
    from cardkit import yamlio

    source = resources.files(module).joinpath(TOKENS_FILE)
    if not source.is_file():
        return []
    data = yamlio.load_text(source.read_text(encoding="utf-8"))
    return list(data.get("tokens", [])) if isinstance(data, dict) else []


def load() -> list[ModuleType]:
    """Import every system once, so its rules are registered."""
    if not _loaded:
        for package in PACKAGES:
            module = importlib.import_module(f"cardkit.systems.{package}")
            importlib.import_module(f"cardkit.systems.{package}.rules")
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
