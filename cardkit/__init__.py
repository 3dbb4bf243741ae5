"""cardkit: transcribe, validate, close gaps in and print board- and card-game content.

The library's public surface is `cardkit.api` (what the CLI itself calls) and
`cardkit.plugin` (the contract a game system implements). docs/architecture.md maps the
rooms of the tree.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType

__version__ = "0.1.0"

# Where modules lived before the tree had rooms (issue 18): outside plug-ins may import
# them by these names, which resolve to the very same module objects.
MOVED = {
    "cardkit.atomic": "cardkit.files.atomic",
    "cardkit.yamlio": "cardkit.files.yamlio",
    "cardkit.yamlio_guard": "cardkit.files.yamlio_guard",
    "cardkit.spool": "cardkit.files.spool",
    "cardkit.staging": "cardkit.files.staging",
    "cardkit.transaction": "cardkit.files.transaction",
    "cardkit.explain": "cardkit.schemas.explain",
    "cardkit.validate_scope": "cardkit.schemas.scope",
    "cardkit.scaffold": "cardkit.schemas.scaffold",
    "cardkit.validate": "cardkit.check.validate",
    "cardkit.rules": "cardkit.check.rules",
    "cardkit.gap_tally": "cardkit.gaps.tally",
    "cardkit.gap_filters": "cardkit.gaps.filters",
    "cardkit.gaps_stream": "cardkit.gaps.stream",
    "cardkit.confirm_semantics": "cardkit.confirm.semantics",
    "cardkit.checklist": "cardkit.confirm.checklist",
    "cardkit.build": "cardkit.site.build",
    "cardkit.importer": "cardkit.rulebook.importer",
    "cardkit.report.html": "cardkit.site.html",
    "cardkit.report.html_script": "cardkit.site.html_script",
    "cardkit.report.thumbs": "cardkit.site.thumbs",
    "cardkit.ocr.outline": "cardkit.ocr.card_outline",
    "cardkit.ocr.check": "cardkit.ocr.compare",
    "cardkit.render.scan": "cardkit.render.scan_image",
    "cardkit.render.text": "cardkit.render.text_fit",
    "cardkit.systems.core": "cardkit.check.core",
}
MOVED_PREFIXES = {
    "cardkit.systems.core.": "cardkit.check.core.",
    "cardkit.systems.": "cardkit.games.",
}


def moved_to(name: str) -> str | None:
    """The module's name today, for a name it had before the move; None if it did not move."""
    if name in MOVED:
        return MOVED[name]
    for old, new in MOVED_PREFIXES.items():
        if name.startswith(old):
            return new + name[len(old) :]
    return None


class _OldNames(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports a moved module under its old name as the same object (not a copy)."""

    def find_spec(
        self, fullname: str, path: object = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = moved_to(fullname)
        if new is None or importlib.util.find_spec(new) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def __init__(self) -> None:
        self._own_specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(str(moved_to(spec.name)))
        self._own_specs[module.__name__] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # importlib stamped the alias's spec on the real module: give it back its own,
        # which its resources (data files beside it) are found through.
        module.__spec__ = self._own_specs.pop(module.__name__, module.__spec__)


# First in line: an old name's parent is the new package, whose `__path__` would let the
# ordinary finder load the file a second time, as another module.
if not any(isinstance(finder, _OldNames) for finder in sys.meta_path):
    sys.meta_path.insert(0, _OldNames())
