"""What a proxy card shows: plain values collected from the documents.

A card knows which of its values are unconfirmed, so the painter can mark them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardkit.model import Document

SLOTS = ("left", "villain", "right")


@dataclass(frozen=True)
class ProofCard:
    system: str
    deck: str  # shown on the back and in the footer: "Klaw · Master Plan"
    title: str
    corner: str = ""  # a number or value in the top right: the Move, a count
    tags: tuple[str, ...] = ()  # BAM!, Ritual, Health 3
    text: str = ""
    placement: dict[str, dict[str, int]] | None = None
    anchor: str = "villain"
    no_tokens: bool = False
    unconfirmed: frozenset[str] = field(default_factory=frozenset)
    source: str = ""  # file and card, for the proof's fine print


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return " ".join(_text(v) for v in value)
    if isinstance(value, dict):
        for key in ("bullets", "steps"):
            if key in value:
                return " ".join(_text(v) for v in value[key])
    return ""


def _marks(card: dict[str, Any]) -> frozenset[str]:
    """Unconfirmed fields, and those an open note inside the card names."""
    marks = {str(m).split("/")[0] for m in card.get("unconfirmed", [])}
    note = card.get("gap")
    if isinstance(note, dict) and note.get("status") == "open":
        marks.update(str(f).split("/")[0] for f in note.get("fields", []))
    return frozenset(marks)


def masterplan(doc: Document, cards: list[dict[str, Any]] | None = None) -> list[ProofCard]:
    name = str(doc.data.get("name", doc.data.get("villain_ref", doc.id)))
    found = []
    if cards is None:
        cards = doc.data.get("masterplan", {}).get("cards", [])
    for card in cards:
        place = card.get("place")
        tags = [t for t, on in (("BAM!", card.get("bam")), ("Ritual", card.get("ritual"))) if on]
        effects = " ".join(
            (f"{e['name']}: " if e.get("name") else "") + str(e["text"])
            for e in card.get("effects", [])
        )
        movement = card.get("movement") or card.get("move_text") or ""
        found.append(
            ProofCard(
                system=doc.system,
                deck=f"{name} · Master Plan",
                title=f"{name} {card['n']}",
                corner=f"Move {card.get('move', '*')}",
                tags=tuple(tags),
                text=" ".join(t for t in (movement, effects, card.get("text", "")) if t),
                placement={
                    s: dict(place[s]) for s in SLOTS if isinstance(place, dict) and s in place
                }
                if isinstance(place, dict)
                else None,
                anchor=str(place.get("anchor", "villain"))
                if isinstance(place, dict)
                else "villain",
                no_tokens=place == "none",
                unconfirmed=_marks(card),
                source=f"{doc.display_path} card {card['n']}",
            )
        )
    return found


def sheet_cards(doc: Document, cards: list[dict[str, Any]], deck: str) -> list[ProofCard]:
    found = []
    for card in cards:
        tags = []
        if "health" in card:
            tags.append("no Health" if card["health"] is None else f"Health {card['health']}")
        if card.get("type") in ("henchman", "challenge"):
            tags.append(str(card["type"]).capitalize())
        text = (
            _text(card.get("text", ""))
            + " "
            + " ".join(_text(line) for line in card.get("lines", []))
        )
        copies = int(card.get("copies", 1))
        for copy in range(1, copies + 1):
            found.append(
                ProofCard(
                    system=doc.system,
                    deck=deck,
                    title=str(card["name"]),
                    corner=f"{copy}/{copies}" if copies > 1 else "",
                    tags=tuple(tags),
                    text=text.strip(),
                    unconfirmed=_marks(card),
                    source=f"{doc.display_path} {card['name']}",
                )
            )
    return found


def _villain(doc: Document, name: str) -> list[ProofCard]:
    found = masterplan(doc)
    found += sheet_cards(doc, doc.data.get("threats", {}).get("cards", []), f"{name} · Threat")
    for sheet in doc.data.get("sheets", []):
        found += sheet_cards(doc, sheet.get("cards", []), sheet["title"])
    return found


def _decklist(doc: Document, name: str) -> list[ProofCard]:
    found: list[ProofCard] = []
    for group in doc.data.get("groups", []):
        cards = [
            {"name": c["name"], "copies": c["count"], "text": group["name"]} for c in group["cards"]
        ]
        found += sheet_cards(doc, cards, name)
    return found


def _single(doc: Document, name: str) -> list[ProofCard]:
    """One card document of any system: its name or title, cost, type and rules text."""
    data = doc.data
    cost = data.get("cost")
    return [
        ProofCard(
            system=doc.system,
            deck=str(data.get("deck") or data.get("type_code") or doc.kind),
            title=str(data.get("title") or name),
            corner="" if cost is None else f"Cost {cost}",
            tags=tuple(str(data[key]) for key in ("type",) if data.get(key)),
            text=_text(data.get("ability") or data.get("text") or ""),
            unconfirmed=_marks(data),
            source=doc.display_path,
        )
    ]


COLLECTORS = {
    "villain": _villain,
    "sheet": lambda doc, name: sheet_cards(doc, doc.data.get("cards", []), name),
    "decklist": _decklist,
    "masterplan-card": lambda doc, name: masterplan(doc, [doc.data["card"]]),
    "threat-card": lambda doc, name: sheet_cards(doc, [doc.data["card"]], f"{name} · Threat"),
    "single": _single,
}


def collect(documents: list[Document]) -> list[ProofCard]:
    """Every printable card, in document order, collected as each system's PROOF_KINDS say.

    A face without rules text (`face: back`, `portrait`, ...) has nothing to proof.
    """
    from cardkit import systems

    found: list[ProofCard] = []
    for doc in documents:
        name = str(doc.data.get("name", doc.data.get("villain_ref", doc.id)))
        how = systems.for_kind(doc.kind).proof_kinds.get(doc.kind.split("/", 1)[-1])
        if how is not None and doc.data.get("face", "front") == "front":
            found += COLLECTORS[how](doc, name)
    return found
