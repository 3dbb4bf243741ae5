"""Schemas: the registry of every kind's JSON Schema (`registry`), readable messages for
their errors (`explain`), what an explanation must walk (`scope`) and new files made
from a schema (`scaffold`).

The names of the former `cardkit.schemas` module still resolve here.
"""

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(importlib.import_module("cardkit.schemas.registry"), name)
