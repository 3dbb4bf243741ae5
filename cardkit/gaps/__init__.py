"""Gaps: what the card data still doubts (noted by the books, marked unconfirmed,
inferred by rules): the rows (`rows`), their stream over a tree of any size (`stream`),
the summary's counts (`tally`) and the filters of one sitting (`filters`).

`cardkit.gaps.collect` and the other names of the former `cardkit.gaps` module still
resolve here, for plug-ins written against it.
"""

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(importlib.import_module("cardkit.gaps.rows"), name)
