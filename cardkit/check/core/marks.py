"""CK202: an `unconfirmed` mark must name a field of the object that holds it.

A mark names a field when the object carries it, or when an object beside it in the
same list does (a card whose note says its placement is to be added: `place` is a
field of master plan cards, though this card lacks it). A mark naming no field
(`plcae`) is a gap that could never close.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cardkit import suggest
from cardkit.addresses import walk
from cardkit.check.rules import document_rule
from cardkit.model import Document, Pointer, Severity


def _siblings(data: dict[str, Any], pointer: Pointer) -> list[dict[str, Any]]:
    if not pointer or not isinstance(pointer[-1], int):
        return []
    node: Any = data
    for part in pointer[:-1]:
        node = node[part]
    return [item for item in node if isinstance(item, dict)] if isinstance(node, list) else []


@document_rule(
    "CK202",
    Severity.ERROR,
    "An unconfirmed mark names no field of the object that holds it.",
    system="core",
)
def marks_name_fields(doc: Document) -> Iterator[tuple[Pointer, str]]:
    for pointer, node in walk(doc.data):
        marks = node.get("unconfirmed")
        if not isinstance(marks, list):
            continue
        for index, mark in enumerate(marks):
            first = str(mark).split("/")[0]
            if first in node or any(first in s for s in _siblings(doc.data, pointer)):
                continue
            known = [str(k) for k in node if k not in ("unconfirmed", "confirmations")]
            yield (
                (*pointer, "unconfirmed", index),
                f"unconfirmed '{mark}' names no field here; {suggest.hint(first, known)}",
            )
