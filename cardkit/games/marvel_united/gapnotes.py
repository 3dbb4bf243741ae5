"""`Gap:` notes held against the data: which fields of which cards a note leaves in doubt.

`notegrammar` reads a note into claims; this module finds the cards and fields the
claims name in a document and decides, field by field, which cards the note doubts
(docs/gap-notes.md, "From claims to marks"). Each doubted field keeps the sentence
that doubts it, so `cardkit gaps` can cite that sentence and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardkit.games.marvel_united import notegrammar as grammar
from cardkit.games.marvel_united.notegrammar import CLEAR, DOUBT, MISSING, READ, card_numbers

__all__ = ["Reading", "card_numbers", "mentions", "parse", "reading"]

DECKS = ("dashboard", "threats", "masterplan")


@dataclass
class Reading:
    marks: dict[str, str] = field(default_factory=dict)  # address -> the sentence doubting it
    unaddressed: list[str] = field(default_factory=list)  # doubts no field in the data holds
    patterns: list[str] = field(default_factory=list)  # `fields` of the stored note

    @property
    def doubts(self) -> bool:
        return bool(self.marks or self.unaddressed)


@dataclass
class _Deck:
    address: str  # "masterplan", "threats", "" (a sheet document's own cards)
    cards: list[dict[str, Any]]

    def key(self, card: dict[str, Any]) -> str:
        if isinstance(card.get("n"), int):
            return str(card["n"])
        return str(card.get("name", self.cards.index(card)))

    def number(self, card: dict[str, Any]) -> int:
        return card["n"] if isinstance(card.get("n"), int) else self.cards.index(card) + 1

    def named(self, name: str) -> list[dict[str, Any]]:
        wanted = {name, f"The {name}", name.removesuffix(" Threat"), name.removeprefix("The ")}
        return [
            c
            for c in self.cards
            if c.get("name") in wanted
            or any(e.get("name") in wanted for e in c.get("effects", []) if isinstance(e, dict))
        ]


def parse(text: str, default_deck: str | None = None) -> dict[str, Any]:
    """The structure stored beside a note's text before the document is complete."""
    claims = grammar.read(text)
    gap: dict[str, Any] = {"note": text}
    decks = [d for c in claims for _, d in c.fields if d] + [d for c in claims for d in c.decks]
    deck = default_deck or (decks[0] if decks else None)
    if deck:
        gap["deck"] = deck
    numbers = card_numbers(text)
    if numbers:
        gap["cards"] = numbers
    gap["status"] = "open"
    return gap


def mentions(text: str) -> set[str]:
    """Every field the note speaks of, whatever it says about it (doubt, reading, absence)."""
    return {name for claim in grammar.read(text) for name, _ in claim.fields}


def _decks(data: dict[str, Any], home: str) -> dict[str, _Deck]:
    decks: dict[str, _Deck] = {}
    for name in ("masterplan", "threats"):
        part = data.get(name)
        if isinstance(part, dict) and isinstance(part.get("cards"), list):
            decks[name] = _Deck(name, [c for c in part["cards"] if isinstance(c, dict)])
    if isinstance(data.get("cards"), list):  # a sheet document: its cards are its own
        decks["threats"] = _Deck("", [c for c in data["cards"] if isinstance(c, dict)])
    if home.startswith("sheets/"):
        sheet = data["sheets"][int(home.split("/")[1])]
        decks["threats"] = _Deck(home, [c for c in sheet.get("cards", []) if isinstance(c, dict)])
    return decks


def _deck_of(field_deck: str | None, home: str) -> str:
    if field_deck:
        return field_deck
    return "threats" if home.startswith("sheets/") or home not in DECKS else home


def reading(data: dict[str, Any], text: str, home: str) -> Reading:
    """What a note at `home` (masterplan, threats, dashboard, sheets/N) doubts in `data`."""
    result = Reading()
    decks = _decks(data, home)
    # (deck, field) -> the claims about it, with the cards each resolves to
    about: dict[tuple[str, str], list[tuple[grammar.Claim, set[int] | None]]] = {}
    for claim in grammar.read(text):
        if claim.stance == MISSING and claim.decks:
            for missing in claim.decks:
                part = data.get(missing)
                if not (isinstance(part, dict) and part.get("cards")):
                    result.unaddressed.append(claim.sentence)
                    _add(result.patterns, missing)
        fields = claim.fields or ((("text", None),) if claim.stance == MISSING else ())
        placed = False
        for name, field_deck in fields:
            deck_name = _deck_of(field_deck, home)
            if claim.names and not claim.cards:  # a named card decides its deck
                for candidate, found in decks.items():
                    if any(found.named(n) for n in claim.names):
                        deck_name = candidate
                        break
            if deck_name == "dashboard":
                dashboard = data.get("dashboard")
                doubted = claim.stance in (DOUBT, MISSING)
                if doubted and isinstance(dashboard, dict) and name in dashboard:
                    result.marks.setdefault(f"dashboard/{name}", claim.sentence)
                    placed = True
                continue
            deck = decks.get(deck_name)
            if deck is None:
                continue
            cards: set[int] | None = None  # None: the whole deck
            if claim.cards:
                cards = set(claim.cards)
            elif claim.names:
                cards = {deck.number(c) for n in claim.names for c in deck.named(n)}
                if not cards:
                    continue  # names no card this deck shows: left to the note's own row
            about.setdefault((deck_name, name), []).append((claim, cards))
            placed = placed or claim.stance in (DOUBT, MISSING)
        if claim.stance in (DOUBT, MISSING) and not placed and not claim.decks:
            result.unaddressed.append(claim.sentence)
            _add(result.patterns, home if home in DECKS else "threats")
    for (deck_name, name), said in about.items():
        deck = decks[deck_name]
        chosen = _chosen(said, {deck.number(c) for c in deck.cards})
        carried = any(name in c for c in deck.cards)
        named = set().union(*(n for c, n in said if n is not None and c.scope == "named"))
        for card in deck.cards:
            number = deck.number(card)
            # a card that lacks the field is marked only when named: the field is to be added
            if number in chosen and (name in card or (carried and number in named)):
                prefix = f"{deck.address}/cards" if deck.address else "cards"
                result.marks[f"{prefix}/{deck.key(card)}/{name}"] = _sentence(said, number)
                _add(result.patterns, f"{prefix}/*/{name}")
    for address in result.marks:
        if not address.startswith(("cards/", "masterplan/cards", "threats/cards", "sheets/")):
            _add(result.patterns, address)
    return result


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)


def _chosen(said: list[tuple[grammar.Claim, set[int] | None]], every: set[int]) -> set[int]:
    """The cards a note doubts for one field: docs/gap-notes.md, "From claims to marks"."""
    doubts = [(c, n) for c, n in said if c.stance in (DOUBT, MISSING)]
    specific = set().union(*(n for c, n in doubts if n is not None and c.scope == "named"))
    soft = set().union(*(n for c, n in said if c.stance == READ and c.soft and n is not None))
    cleared = set().union(*(n for c, n in said if c.stance == CLEAR and n is not None))
    general_clear = any(c.stance == CLEAR and n is None for c, n in said)
    if any(c.scope in ("every", "examples") for c, _ in doubts):
        chosen = set(every)
    elif specific:
        chosen = specific
    elif any(n is None for _, n in doubts) and not general_clear:
        chosen = set(every)
    else:
        chosen = set()
    return (chosen | soft) - (cleared - specific - soft)


def _sentence(said: list[tuple[grammar.Claim, set[int] | None]], number: int) -> str:
    for claim, cards in said:
        if claim.stance in (DOUBT, MISSING) and cards and number in cards:
            return claim.sentence
    for claim, cards in said:
        if claim.soft and cards and number in cards:
            return claim.sentence
    for scope in ("every", "examples"):
        for claim, _ in said:
            if claim.stance in (DOUBT, MISSING) and claim.scope == scope:
                return claim.sentence
    for claim, _ in reversed(said):  # a later sentence tends to say what is left to check
        if claim.stance in (DOUBT, MISSING):
            return claim.sentence
    return said[0][0].sentence
