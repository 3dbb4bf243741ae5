"""JSON written item by item, byte-identical to `json.dumps(payload, indent=2)`.

The payload is dumped with a placeholder where the long list goes; the list's items are
then written one at a time at the placeholder's depth, so a report of any size is never
held as one string (nor as one list of objects).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from json.encoder import encode_basestring, encode_basestring_ascii
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
    text = encode_basestring_ascii if ensure_ascii else encode_basestring
    out.write(head)
    first = True
    for item in items:
        out.write(("[\n" if first else ",\n") + pad + _item(item, pad, text, ensure_ascii))
        first = False
    out.write("[]" if first else "\n" + pad[:-2] + "]")
    tail = json.dumps(payload(), indent=2, ensure_ascii=ensure_ascii).split(hole)[1]
    out.write(tail + "\n")


def _item(item: Any, pad: str, text: Callable[[str], str], ensure_ascii: bool) -> str:
    """One item at `pad`'s depth. A flat object (string keys; string, integer, boolean or
    null values: every row of a report) is formatted here, as json.dumps would, at a
    fraction of the cost of its pure-Python indenting encoder."""
    if type(item) is dict and item:
        inner = ",\n" + pad + "  "
        cells = []
        for key, value in item.items():
            kind = type(value)
            if type(key) is not str:
                break
            if kind is str:
                cells.append(f"{text(key)}: {text(value)}")
            elif kind is int:
                cells.append(f"{text(key)}: {int.__repr__(value)}")
            elif kind is bool:
                cells.append(f"{text(key)}: {'true' if value else 'false'}")
            elif value is None:
                cells.append(f"{text(key)}: null")
            else:
                break
        else:
            return "{\n" + pad + "  " + inner.join(cells) + "\n" + pad + "}"
    dumped = json.dumps(item, indent=2, ensure_ascii=ensure_ascii)
    return dumped.replace("\n", "\n" + pad)
