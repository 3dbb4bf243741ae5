"""Confirming: closing a gap in place (`edit`), what a confirmation means (`semantics`)
and the checklist CSV, the one home of its columns, reader and writers (`checklist`).

The names of the former `cardkit.confirm` module still resolve here.
"""

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(importlib.import_module("cardkit.confirm.edit"), name)
