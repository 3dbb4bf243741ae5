"""Rules on what gap notes say: cards they name, placements they describe, icons they cite.

A note is the transcriber's own claim about the data; these rules hold the two
against each other.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from cardkit.check.rules import document_rule, note_reader
from cardkit.games.marvel_united import gapnotes, placement
from cardkit.model import Document, Pointer, Severity
from cardkit.rulebook.words import NUMBER_WORDS

SYSTEM = "marvel-united"
VILLAIN = [f"{SYSTEM}/villain"]
Result = Iterator[tuple[Pointer, str]]


@note_reader(SYSTEM)
def read_note(data: dict[str, Any], note: str, home: str) -> tuple[dict[str, str], list[str]]:
    """What a note doubts, field by field, for `cardkit gaps` (see gapnotes.reading)."""
    found = gapnotes.reading(data, note, home)
    return found.marks, found.unaddressed


def all_gaps(doc: Document) -> Iterator[tuple[Pointer, dict[str, Any]]]:
    for part in ("dashboard", "threats", "masterplan"):
        for index, gap in enumerate(doc.data.get(part, {}).get("gaps", [])):
            yield (part, "gaps", index), gap


@document_rule(
    "MU105",
    Severity.WARNING,
    "A gap note names a card its deck does not have.",
    system=SYSTEM,
    kinds=VILLAIN,
    restates=("MU101",),
)
def note_names_missing_card(doc: Document) -> Result:
    numbers = {c["n"] for c in doc.data.get("masterplan", {}).get("cards", [])}
    for pointer, gap in all_gaps(doc):
        if gap.get("deck") != "masterplan" or not numbers:
            continue
        missing = [n for n in gap.get("cards", []) if n not in numbers]
        if missing:
            listed = ", ".join(map(str, missing))
            yield (
                (*pointer, "cards"),
                f"the note names card(s) {listed}, "
                f"but the deck lists only {len(numbers)} (up to {max(numbers)})",
            )


# Every repetition is bounded (a card list, a card name, a placement phrase are short), so
# each match attempt costs a constant and a scan of a note is linear in its length.
_READ_AS = re.compile(
    r"(?P<who>[Cc]ards? [\d, and]{1,80}(?: \([^)]{0,80}\))?|The [A-Z][\w' ]{1,60}? card"
    r"|The Move \d cards \([\d and]{1,40}\)) "
    r"(?:were |was |is |are )?read as "
    r"(?P<what>(?:one|two|three|\d) [^.;,]{0,120}?Locations?)(?=[.;,]|$)"
)


def _claimed(what: str) -> Any:
    for word, value in NUMBER_WORDS.items():
        what = re.sub(rf"\b{word}\b(?= (?:Thug|Civilian))", str(value), what)
    return placement.parse(f"Place {what}.")


@document_rule(
    "MU106",
    Severity.WARNING,
    "A gap note describes a placement the card does not carry.",
    system=SYSTEM,
    kinds=VILLAIN,
)
def note_contradicts_data(doc: Document) -> Result:
    cards = doc.data.get("masterplan", {}).get("cards", [])
    for pointer, gap in all_gaps(doc):
        for match in _READ_AS.finditer(gap["note"]):
            claim = _claimed(match["what"])
            if not isinstance(claim, dict):
                continue
            who = match["who"]
            named = gapnotes.card_numbers(who)
            if not named:
                effect = who.removesuffix(" card")
                names = {effect, effect.removeprefix("The ")}
                named = [
                    c["n"]
                    for c in cards
                    if any(e.get("name") in names for e in c.get("effects", []))
                ]
                if not named:
                    yield (*pointer, "note"), f"the note describes '{who}', which no card is"
                    continue
            for index, card in enumerate(cards):
                if card["n"] in named and not _agrees(claim, card.get("place")):
                    # at the card's placement: the check of that field, where it folds
                    yield (
                        ("masterplan", "cards", index, "place"),
                        f"the note reads card {card['n']} as '{match['what']}', "
                        f"but the card carries {_describe(card.get('place'))}",
                    )


def _agrees(claim: dict[str, Any], place: Any) -> bool:
    """Does the placement carry what the note reads, in the slots the note speaks of?"""
    have = placement.counts(place)
    if not isinstance(have, dict):
        return False
    return all(have.get(slot) == counts for slot, counts in claim.items())


def _describe(place: Any) -> str:
    if place is None:
        return "no placement"
    if place == "none":
        return "'No tokens placed'"
    return placement.render(place, "the Villain").removeprefix("Place ").removesuffix(".")


_NAMED_IN_NOTE = re.compile(  # bounded: a name is at most 8 words of 40 characters
    r"\b[Tt]he ([A-Z][\w!'-]{0,40}(?: [A-Z][\w!'-]{0,40}){0,8}?) "
    r"(?:card(?:'s)?(?: text)?|Action icon|icon|text)\b"
)


def _card_names(data: dict[str, Any]) -> set[str]:
    names: set[str] = set()
    parts = [data, data.get("threats", {}), data.get("masterplan", {}), *data.get("sheets", [])]
    for part in parts:
        for card in part.get("cards", []) if isinstance(part, dict) else []:
            names.add(str(card.get("name", "")))
            names.update(str(e.get("name", "")) for e in card.get("effects", []))
    return {n for n in names if n}


@document_rule(
    "MU111",
    Severity.WARNING,
    "A gap note names a card or icon that no card in the file shows.",
    system=SYSTEM,
    kinds=VILLAIN,
)
def note_names_unknown_card(doc: Document) -> Result:
    names = _card_names(doc.data)
    for pointer, gap in all_gaps(doc):
        for sentence in re.split(r"(?<=\.) ", gap["note"]):
            if re.search(r"\b(?:is|are) not (?:on|in)\b", sentence):
                continue  # the note itself says the card is absent
            for match in _NAMED_IN_NOTE.finditer(sentence):
                name = match[1]
                candidates = {name, f"The {name}", name.removesuffix(" Threat")}
                if not candidates & names:
                    yield (
                        (*pointer, "note"),
                        f"the note names '{name}', which no card in this file shows",
                    )
