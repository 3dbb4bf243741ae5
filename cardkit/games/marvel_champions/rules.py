"""Marvel Champions rules: decklist sizes, component totals, encounter sets, villain lists."""

from __future__ import annotations

import re
from collections.abc import Iterator

from cardkit.check.rules import DocumentRef, Finding, document_rule, ref, stream_rule
from cardkit.model import Document, Pointer, Severity

SYSTEM = "marvel-champions"
DECK_MIN, DECK_MAX, HERO_CARDS = 40, 50, 15
Result = Iterator[tuple[Pointer, str]]
_PART = re.compile(r"(\d+) [\w ]{1,60}? cards")  # bounded: linear in the detail's length


@document_rule(
    "MC101",
    Severity.WARNING,
    "A decklist is not 40 to 50 cards, or its hero's own cards are not exactly 15.",
    system=SYSTEM,
    kinds=[f"{SYSTEM}/decklist"],
)
def decklist_size(doc: Document) -> Result:
    groups = doc.data.get("groups", [])
    deck = [g for g in groups if g.get("role") in ("hero", "aspect", "basic")]
    total = sum(c["count"] for g in deck for c in g["cards"])
    if not DECK_MIN <= total <= DECK_MAX:
        yield (
            ("groups",),
            f"the deck has {total} hero, aspect and basic cards; "
            f"a deck is {DECK_MIN} to {DECK_MAX}",
        )
    for index, group in enumerate(groups):
        if group.get("role") == "hero":
            own = sum(c["count"] for c in group["cards"])
            if own != HERO_CARDS:
                yield (
                    ("groups", index),
                    f"{group['name']} has {own} cards; a hero's own cards are exactly {HERO_CARDS}",
                )


@document_rule(
    "MC102",
    Severity.WARNING,
    "A component count does not add up to the total it states.",
    system=SYSTEM,
    kinds=[f"{SYSTEM}/expansion"],
)
def components_add_up(doc: Document) -> Result:
    for index, component in enumerate(doc.data.get("components", [])):
        detail = str(component.get("detail", ""))
        parts = [int(n) for n in _PART.findall(detail)]
        if component.get("count") is not None and parts and sum(parts) != component["count"]:
            yield (
                ("components", index),
                f"{component['count']} {component['name']} but the parts add up to {sum(parts)}",
            )


@document_rule(
    "MC103",
    Severity.WARNING,
    "A scenario's removable sets are not among its encounter sets.",
    system=SYSTEM,
    kinds=[f"{SYSTEM}/scenario"],
)
def removable_sets(doc: Document) -> Result:
    sets = set(doc.data.get("encounter_sets", []))
    for name in doc.data.get("removable_sets", []):
        if name not in sets:
            yield (
                ("removable_sets",),
                f"'{name}' can be removed, but the encounter deck does not name it",
            )


@stream_rule(
    "MC104",
    Severity.WARNING,
    "The campaign log's villain list and the underling villain setups disagree.",
    system=SYSTEM,
)
class VillainLists:
    """Keeps each box's villain setups and each campaign log's list; compares at the end.

    One pass, an index by box: linear in the tree (it used to rescan every document
    for each campaign log).
    """

    def __init__(self) -> None:
        self.setups: dict[str, set[str]] = {}
        self.lists: list[tuple[DocumentRef, str, int, set[str]]] = []

    def see(self, doc: Document) -> Iterator[Finding]:
        box = str(doc.data.get("box"))
        if doc.kind == f"{SYSTEM}/villain-setup":
            self.setups.setdefault(box, set()).add(str(doc.data.get("villain")))
        elif doc.kind == f"{SYSTEM}/campaign-log":
            for index, entry in enumerate(doc.data.get("fields", [])):
                if entry.get("label") == "List of Villains":
                    named = entry.get("items") or re.split(r", | and ", entry.get("text", ""))
                    listed = {n.strip().rstrip(".") for n in named if n.strip()}
                    self.lists.append((ref(doc), box, index, listed))
        return iter(())

    def finish(self, outside_ids: dict[tuple[str, str], str]) -> Iterator[Finding]:
        for doc, box, index, listed in self.lists:
            setups = self.setups.get(box)
            if setups and listed != setups:
                diff = sorted(listed ^ setups)
                yield Finding(doc, ("fields", index), f"the lists differ on {', '.join(diff)}")


# Player cards of a decklist: every group but the hero's encounter cards (nemesis set,
# obligation), plus the identity card itself.
_ENCOUNTER_ROLES = {"nemesis", "obligation"}


@stream_rule(
    "MC105",
    Severity.WARNING,
    "A box's stated number of player cards differs from its decklists plus identities.",
    system=SYSTEM,
)
class PlayerCardsAddUp:
    """Keeps, per box, its decklists' player-card counts and what its manifest states."""

    def __init__(self) -> None:
        self.decklists: dict[str, list[int]] = {}
        self.stated: list[tuple[DocumentRef, str, int, int]] = []

    def see(self, doc: Document) -> Iterator[Finding]:
        if doc.kind == f"{SYSTEM}/decklist":
            cards = sum(
                int(card.get("count", 1))
                for group in doc.data.get("groups", [])
                if group.get("role") not in _ENCOUNTER_ROLES
                for card in group.get("cards", [])
            )
            self.decklists.setdefault(str(doc.data.get("box", "")), []).append(cards)
        elif doc.kind == f"{SYSTEM}/expansion":
            for index, component in enumerate(doc.data.get("components", [])):
                stated = re.search(r"(\d+) player cards", str(component.get("detail", "")))
                if stated is not None:
                    self.stated.append((ref(doc), str(doc.id), index, int(stated[1])))
        return iter(())

    def finish(self, outside_ids: dict[tuple[str, str], str]) -> Iterator[Finding]:
        for doc, box, index, stated in self.stated:
            lists = self.decklists.get(box)
            if not lists:
                continue
            cards = sum(lists)
            total = cards + len(lists)
            if total != stated:
                yield Finding(
                    doc,
                    ("components", index),
                    f"the box says {stated} player cards; its {len(lists)} decklists hold "
                    f"{cards} player cards and {len(lists)} identities: {total}",
                )
