"""`cardkit ocr --assemble`: one document from many single-card drafts, as each game says.

A game that assembles (Marvel United: a villain from its master plan, threat and
dashboard drafts) ships an `assemble` hook (cardkit.plugin.Assembler); drafts of other
games stay as they are.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

Draft = tuple[Path, dict[str, Any]]


def groups(drafts: list[Draft]) -> Iterator[tuple[ModuleType, str, str, list[Draft]]]:
    """(the game's assembler, system, group name, its drafts), for every game that has one."""
    from cardkit import systems

    by_system: dict[str, list[Draft]] = {}
    for path, draft in drafts:
        by_system.setdefault(str(draft.get("kind", "")).split("/")[0], []).append((path, draft))
    for system in sorted(by_system):
        try:
            assembler = systems.get(system).hook("assemble")
        except systems.UnknownName:
            continue
        if assembler is None:
            continue
        for (name_system, name), members in sorted(assembler.group(by_system[system]).items()):
            yield assembler, name_system, name, members
