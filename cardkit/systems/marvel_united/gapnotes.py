"""`Gap:` notes: the transcriber's own word on what was not confirmed.

A note keeps its text; cardkit reads from it the card numbers it names and the
fields it concerns, so later rules can compare the note with the data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_NUMBER_LIST = r"\d+(?:(?:,? and |, | to )(?:on )?(?:[Cc]ards? )?\d+)*"
_CARD_REFS = re.compile(rf"\b[Cc]ards? \(?({_NUMBER_LIST})\)?|\(({_NUMBER_LIST})\)")
_SPLIT = re.compile(r"(?<=[.;])\s+")

# Keywords that tie a note to a field, checked in order; the first deck that matches wins.
_FIELD_HINTS: list[tuple[str, str, str]] = [
    (r"player-count table", "dashboard", "dashboard/player_count"),
    (r"Villainous Plot box", "dashboard", "dashboard/villainous_plot"),
    (r"Back of the Dashboard|starting tokens", "dashboard", "dashboard/back"),
    (r"Dashboard", "dashboard", "dashboard"),
    (
        r"token placements|token counts|placement counts|Icon counts per slot|every placement",
        "masterplan",
        "masterplan/cards/*/place",
    ),
    (r"BAM! icon", "masterplan", "masterplan/cards/*/bam"),
    (r"card counts", "threats", "threats/cards/*/copies"),
    (r"Henchman|Threat", "threats", "threats/cards/*/text"),
]


@dataclass
class GapNote:
    text: str
    cards: list[int] = field(default_factory=list)
    confirmed_cards: list[int] = field(default_factory=list)  # "card 12 was checked at full size"
    general: bool = True  # the first sentence names no cards: it speaks of the whole deck
    fields: list[str] = field(default_factory=list)
    deck: str | None = None


def card_numbers(text: str) -> list[int]:
    numbers: list[int] = []
    for match in _CARD_REFS.finditer(text):
        listed = match[1] or match[2]
        listed = re.sub(r"(?:on )?[Cc]ards? ", "", listed)
        for part in re.split(r",? and |, ", listed):
            low, _, high = part.partition(" to ")
            if high:
                numbers.extend(range(int(low), int(high) + 1))
            else:
                numbers.append(int(low))
    return sorted(dict.fromkeys(numbers))


def parse(text: str, default_deck: str | None = None) -> GapNote:
    note = GapNote(text)
    sentences = _SPLIT.split(text)
    note.cards = card_numbers(text)
    note.general = not card_numbers(sentences[0])
    for clause in re.split(r"[.;] ", text):
        if re.search(r"(?<!not )checked at full size", clause):
            note.confirmed_cards.extend(card_numbers(clause))
    for pattern, deck, path in _FIELD_HINTS:
        if path == "dashboard" and any(f.startswith("dashboard/") for f in note.fields):
            continue  # a named Dashboard field says more than the Dashboard as a whole
        if re.search(pattern, text) and path not in note.fields:
            note.fields.append(path)
            note.deck = note.deck or deck
    if note.deck is None:
        note.deck = default_deck
    if not note.fields and default_deck:
        note.fields.append(default_deck)
    return note


def unconfirmed_cards(note: GapNote, numbers: list[int]) -> list[int]:
    """The cards of a deck whose fields the note leaves unconfirmed."""
    named = set(note.cards) if not note.general else set(numbers)
    return [n for n in numbers if n in named and n not in note.confirmed_cards]
