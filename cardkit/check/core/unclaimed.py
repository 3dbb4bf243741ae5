"""CK300: source lines no reader claimed at import, kept in `unclaimed` until placed.

`cardkit import` reports the lines of a book that no document holds and keeps them on the
box manifest (or the first document) under `unclaimed`, so the loss does not vanish with
the import's output: each is a warning here, with its position, and an inferred
`cardkit gaps` row, until a person moves it into a field or deletes it.
"""

from __future__ import annotations

from collections.abc import Iterator

from cardkit.check.rules import document_rule
from cardkit.model import Document, Pointer, Severity

CODE = "CK300"


@document_rule(
    CODE,
    Severity.WARNING,
    "A source line no reader claimed at import is kept under `unclaimed`, in no field yet.",
    system="core",
)
def unclaimed_lines(doc: Document) -> Iterator[tuple[Pointer, str]]:
    lines = doc.data.get("unclaimed")
    for index, line in enumerate(lines if isinstance(lines, list) else []):
        yield ("unclaimed", index), f"text no reader claimed at import, kept verbatim: {line}"
