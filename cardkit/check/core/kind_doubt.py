"""CK203: a document whose `kind` is unconfirmed keeps an open gap on `kind`.

When the evidence of a scan does not clearly decide a card's kind, `cardkit ocr` files
the draft under the best kind, lists `kind` in `unconfirmed` and opens a gap naming the
runner-up (docs/ocr.md). The draft validates against the chosen kind's schema, so the
doubt must stay visible until a person settles it: the mark alone is not enough, since
`cardkit gaps` and the review page list gaps. A doubted kind whose gap was deleted or
closed while the mark stayed would pass as decided; this rule refuses it.
"""

from __future__ import annotations

from collections.abc import Iterator

from cardkit.check.rules import document_rule
from cardkit.model import Document, Pointer, Severity

CODE = "CK203"


def _open_on_kind(gaps: object) -> bool:
    if not isinstance(gaps, list):
        return False
    return any(
        isinstance(gap, dict)
        and gap.get("status", "open") == "open"
        and isinstance(gap.get("fields"), list)
        and "kind" in gap["fields"]
        for gap in gaps
    )


@document_rule(
    CODE,
    Severity.ERROR,
    "A document whose kind is unconfirmed keeps an open gap that lists `kind`.",
    system="core",
)
def doubted_kind_keeps_its_gap(doc: Document) -> Iterator[tuple[Pointer, str]]:
    marks = doc.data.get("unconfirmed")
    if not isinstance(marks, list) or "kind" not in marks:
        return
    if _open_on_kind(doc.data.get("gaps")):
        return
    yield (
        ("unconfirmed", marks.index("kind")),
        "kind is unconfirmed but no open gap lists it: keep the gap naming the runner-up "
        "open until the kind is checked (`cardkit confirm FILE kind`)",
    )
