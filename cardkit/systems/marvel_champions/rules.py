"""Marvel Champions rules: decklist sizes, component totals, encounter sets, villain lists."""

from __future__ import annotations

import re
from collections.abc import Iterator

from cardkit.model import Document, Pointer, Severity
from cardkit.rules import Finding, Tree, document_rule, tree_rule

SYSTEM = "marvel-champions"
DECK_MIN, DECK_MAX, HERO_CARDS = 40, 50, 15
Result = Iterator[tuple[Pointer, str]]


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
        parts = [int(n) for n in re.findall(r"(\d+) [\w ]+? cards", detail)]
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


@tree_rule(
    "MC104",
    Severity.WARNING,
    "The campaign log's villain list and the underling villain setups disagree.",
    system=SYSTEM,
)
def villain_lists(tree: Tree) -> Iterator[Finding]:
    for doc in tree.documents:
        if doc.kind != f"{SYSTEM}/campaign-log":
            continue
        setups = {
            str(d.data.get("villain"))
            for d in tree.documents
            if d.kind == f"{SYSTEM}/villain-setup" and d.data.get("box") == doc.data.get("box")
        }
        if not setups:
            continue
        for index, entry in enumerate(doc.data.get("fields", [])):
            if entry.get("label") == "List of Villains":
                named = entry.get("items") or re.split(r", | and ", entry.get("text", ""))
                listed = {n.strip().rstrip(".") for n in named if n.strip()}
                if listed != setups:
                    diff = sorted(listed ^ setups)
                    yield Finding(doc, ("fields", index), f"the lists differ on {', '.join(diff)}")


# Player cards of a decklist: every group but the hero's encounter cards (nemesis set,
# obligation), plus the identity card itself.
_ENCOUNTER_ROLES = {"nemesis", "obligation"}


@tree_rule(
    "MC105",
    Severity.WARNING,
    "A box's stated number of player cards differs from its decklists plus identities.",
    system=SYSTEM,
)
def player_cards_add_up(tree: Tree) -> Iterator[Finding]:
    decklists: dict[str, list[Document]] = {}
    for doc in tree.documents:
        if doc.kind == f"{SYSTEM}/decklist":
            decklists.setdefault(str(doc.data.get("box", "")), []).append(doc)
    for doc in tree.documents:
        if doc.kind != f"{SYSTEM}/expansion" or str(doc.id) not in decklists:
            continue
        for index, component in enumerate(doc.data.get("components", [])):
            stated = re.search(r"(\d+) player cards", str(component.get("detail", "")))
            if stated is None:
                continue
            lists = decklists[str(doc.id)]
            cards = sum(
                int(card.get("count", 1))
                for deck in lists
                for group in deck.data.get("groups", [])
                if group.get("role") not in _ENCOUNTER_ROLES
                for card in group.get("cards", [])
            )
            total = cards + len(lists)
            if total != int(stated[1]):
                yield Finding(
                    doc,
                    ("components", index),
                    f"the box says {stated[1]} player cards; its {len(lists)} decklists hold "
                    f"{cards} player cards and {len(lists)} identities: {total}",
                )
