"""Tiny Heist's one game rule: a card's loot is at most twice its cost."""

from __future__ import annotations

from collections.abc import Iterator

from cardkit.check.rules import document_rule
from cardkit.model import Document, Pointer, Severity


@document_rule(
    "TH100",
    Severity.WARNING,
    "A Tiny Heist card's loot is more than twice its cost.",
    system="tiny-heist",
    kinds=["tiny-heist/card"],
)
def loot_within_cost(doc: Document) -> Iterator[tuple[Pointer, str]]:
    loot, cost = doc.data.get("loot"), doc.data.get("cost")
    if isinstance(loot, int) and isinstance(cost, int) and loot > 2 * cost:
        yield ("loot",), f"loot {loot} is more than twice the cost {cost}"
