"""Game systems. Each lives in one folder that registers its rules on import.

Adding a system: a folder here with `NAME` and a `rules` module, plus its schemas
under `schemas/<name>/`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

PACKAGES = ("core", "marvel_united", "marvel_champions", "villainous")
_loaded: list[ModuleType] = []


def load() -> list[ModuleType]:
    """Import every system once, so its rules are registered."""
    if not _loaded:
        for package in PACKAGES:
            module = importlib.import_module(f"cardkit.systems.{package}")
            importlib.import_module(f"cardkit.systems.{package}.rules")
            _loaded.append(module)
    return list(_loaded)


def system_names() -> list[str]:
    return [str(module.NAME) for module in load() if module.NAME != "core"]
