"""JSON written item by item, byte-identical to `json.dumps(payload, indent=2)`.

The payload is dumped with a placeholder where the long list goes; the list's items are
then written one at a time at the placeholder's depth, so a report of any size is never
held as one string (nor as one list of objects).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, TextIO

HOLE = "\x00cardkit: the items go here\x00"


def write(
    out: TextIO, payload: Callable[[], Any], items: Iterable[Any], *, ensure_ascii: bool = True
) -> None:
    """Write `payload()` (holding HOLE once, in place of a list) with `items` as that list.

    `payload` is called again once the items are written, for what follows them (a summary
    counted as they went by)."""
    hole = json.dumps(HOLE, ensure_ascii=ensure_ascii)
    head = json.dumps(payload(), indent=2, ensure_ascii=ensure_ascii).split(hole)[0]
    line = head[head.rfind("\n") + 1 :]
    pad = " " * (len(line) - len(line.lstrip(" ")) + 2)
    out.write(head)
    first = True
    for item in items:
        dumped = json.dumps(item, indent=2, ensure_ascii=ensure_ascii)
        out.write(("[\n" if first else ",\n") + pad + dumped.replace("\n", "\n" + pad))
        first = False
    out.write("[]" if first else "\n" + pad[:-2] + "]")
    tail = json.dumps(payload(), indent=2, ensure_ascii=ensure_ascii).split(hole)[1]
    out.write(tail + "\n")
