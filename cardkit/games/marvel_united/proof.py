"""Marvel United documents as proxy cards: master plans, threats, henchmen, dashboards
(front and back), heroes, equipment, weak spots, locations, challenges, achievements,
and the single-card kinds (masterplan-card, threat-card, dashboard)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cardkit.model import Document
from cardkit.render.content import SLOTS, ProofCard, Warn, copies_of, marks, text_of

NAME = "marvel-united"


def _card(doc: Document, **values: Any) -> ProofCard:
    return ProofCard(system=NAME, doc_id=doc.id or "", box=str(doc.data.get("box", "")), **values)


def masterplan_card(
    doc: Document, name: str, card: dict[str, Any], at: tuple[str | int, ...] = ()
) -> ProofCard:
    place = card.get("place")
    tags = [t for t, on in (("BAM!", card.get("bam")), ("Ritual", card.get("ritual"))) if on]
    effects = "\n".join(
        (f"{e['name']}: " if e.get("name") else "") + str(e["text"])
        for e in card.get("effects", [])
    )
    movement = card.get("movement") or card.get("move_text") or ""
    return _card(
        doc,
        kind="masterplan",
        deck=f"{name} · Master Plan",
        title=f"{name} {card.get('n', '')}".strip(),
        corner=f"Move {card.get('move', '*')}",
        tags=tuple(tags),
        text="\n".join(t for t in (movement, effects, text_of(card.get("text", ""))) if t),
        placement={s: dict(place[s]) for s in SLOTS if s in place}
        if isinstance(place, dict)
        else None,
        anchor=str(place.get("anchor", "villain")) if isinstance(place, dict) else "villain",
        no_tokens=place == "none",
        unconfirmed=marks(card),
        source=f"{doc.display_path} card {card.get('n', '')}",
        pointer=at,
    )


def sheet_cards(
    doc: Document,
    cards: list[dict[str, Any]],
    deck: str,
    kind: str,
    warn: Warn,
    at: tuple[str | int, ...] = (),
) -> list[ProofCard]:
    found = []
    for index, card in enumerate(cards):
        tags, stats = [], []
        if "health" in card:
            stats.append(("Health", "–" if card["health"] is None else str(card["health"])))
        card_kind = str(card.get("type") or kind)
        if card.get("type") in ("henchman", "challenge"):
            tags.append(str(card["type"]).capitalize())
        lines = [text_of(card.get("text", "")), *(text_of(line) for line in card.get("lines", []))]
        source = f"{doc.display_path} {card.get('name', '')}"
        copies = copies_of(card.get("copies", 1), source, warn)
        for copy in range(1, copies + 1):
            found.append(
                _card(
                    doc,
                    kind=card_kind,
                    deck=deck,
                    title=str(card.get("name", "")),
                    corner=f"{copy}/{copies}" if copies > 1 else "",
                    tags=tuple(tags),
                    stats=tuple(stats),
                    text="\n".join(line for line in lines if line),
                    unconfirmed=marks(card),
                    source=source,
                    pointer=(*at, index) if at else (),
                )
            )
    return found


def _player_count(value: Any) -> str:
    heroes = value.get("heroes", value) if isinstance(value, dict) else {}
    if not isinstance(heroes, dict):
        return ""
    return "Health by Heroes: " + ", ".join(f"{k} Heroes: {v}" for k, v in heroes.items())


def dashboard(
    doc: Document, name: str, board: dict[str, Any], at: tuple[str | int, ...] = ("dashboard",)
) -> list[ProofCard]:
    labels = (
        ("special_rules", "Special rules"),
        ("bam", "BAM!"),
        ("overflow", "Overflow"),
        ("villainous_plot", "Villainous Plot"),
        ("heroic_goal", "Heroic goal"),
        ("commander_solo_mode", "Commander / solo"),
    )
    text = [f"{label}: {text_of(board[key])}" for key, label in labels if key in board]
    if "player_count" in board:
        text.append(_player_count(board["player_count"]))
    unsure = marks(board) | {
        "player_count" for gap in board.get("gaps", []) if gap.get("status") == "open"
    }
    cards = [
        _card(
            doc,
            kind="dashboard",
            deck=f"{name} · Dashboard",
            title=name,
            text="\n".join(text),
            unconfirmed=frozenset(unsure),
            source=f"{doc.display_path} dashboard",
            pointer=at,
        )
    ]
    back = board.get("back")
    if isinstance(back, dict):
        tokens = back.get("starting_tokens", {})
        icons = tuple(str(i) for i in tokens.get("icons", [])) if isinstance(tokens, dict) else ()
        text = (
            [f"Special setup: {text_of(back['special_setup'])}"] if "special_setup" in back else []
        )
        if tokens:
            text.append(f"Starting tokens: {text_of(tokens)}")
        text += [text_of(more) for more in back.get("more", [])]
        cards.append(
            _card(
                doc,
                kind="dashboard-back",
                deck=f"{name} · Dashboard",
                title=f"{name} · {back.get('side', 'back')}",
                text="\n".join(text),
                icon_rows=(icons,) if icons else (),
                unconfirmed=marks(back),
                source=f"{doc.display_path} dashboard back",
                back_of=f"{doc.display_path} dashboard",
                pointer=(*at, "back"),
            )
        )
    return cards


def _entries(doc: Document, kind: str, name: str) -> list[ProofCard]:
    """A one-card kind (location, equipment, achievements): intro, sections and entries."""
    data = doc.data
    text = [text_of(line) for line in data.get("intro", [])]
    for section in data.get("sections", []):
        text.append(f"{section.get('title', '')}: {text_of(section.get('body', ''))}")
    for entry in data.get("entries", []):
        text.append(f"{entry.get('n', '•')}. {text_of(entry.get('text', ''))}")
    return [
        _card(
            doc,
            kind=kind,
            deck=f"{name} · {kind.replace('-', ' ').title()}",
            title=name,
            text="\n".join(t for t in text if t),
            unconfirmed=marks(data),
            source=doc.display_path,
        )
    ]


def _with_document_marks(card: ProofCard, data: dict[str, Any], key: str) -> ProofCard:
    """A one-card document's own `unconfirmed` (`card/bam`, or `card` whole, as OCR drafts
    and `cardkit new` write them) marks its card too."""
    found = {
        str(mark).split("/")[1] if str(mark).startswith(f"{key}/") else str(mark)
        for mark in data.get("unconfirmed", [])
        if str(mark) == key or str(mark).startswith(f"{key}/")
    }
    return replace(card, unconfirmed=card.unconfirmed | found) if found else card


def collect(doc: Document, warn: Warn) -> list[ProofCard]:
    data = doc.data
    name = str(data.get("name", doc.id))
    kind = doc.kind.split("/", 1)[-1]
    if kind == "villain":
        found = []
        if isinstance(data.get("dashboard"), dict):
            found += dashboard(doc, name, data["dashboard"])
        found += [
            masterplan_card(doc, name, c, ("masterplan", "cards", i))
            for i, c in enumerate(data.get("masterplan", {}).get("cards", []))
        ]
        threats = data.get("threats", {}).get("cards", [])
        found += sheet_cards(doc, threats, f"{name} · Threat", "threat", warn, ("threats", "cards"))
        for i, sheet in enumerate(data.get("sheets", [])):
            cards, title = sheet.get("cards", []), str(sheet["title"])
            found += sheet_cards(doc, cards, title, "threat", warn, ("sheets", i, "cards"))
        return found
    villain = str(data.get("villain_ref", doc.id))
    if kind == "masterplan-card":
        one = masterplan_card(doc, villain, data.get("card", {}), ("card",))
        return [_with_document_marks(one, data, "card")]
    if kind == "threat-card":
        card = data.get("card", {})
        cards = sheet_cards(doc, [card], f"{villain} · Threat", "threat", warn)
        return [_with_document_marks(c, data, "card") for c in cards]
    if kind == "dashboard":
        cards = dashboard(doc, villain, data.get("dashboard", {}))
        return [_with_document_marks(cards[0], data, "dashboard"), *cards[1:]]
    if kind in ("henchmen", "hero", "weak-spot"):
        deck_kind = {"henchmen": "threat", "hero": "hero", "weak-spot": "weak-spot"}[kind]
        if data.get("cards"):
            return sheet_cards(doc, data["cards"], name, deck_kind, warn, ("cards",))
    if kind in ("equipment", "location", "achievements", "weak-spot", "hero"):
        return _entries(doc, kind, name)
    return []
