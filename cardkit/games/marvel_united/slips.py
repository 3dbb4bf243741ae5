"""What `cardkit import` could not read, found again in the files it wrote.

The importer keeps a line it cannot read verbatim where it stood (a Master Plan card's
`text`, an effect's `text`) and warns. The same finding must not vanish once the warning
has scrolled by, so these checks read the files, not the import: `validate` warns with
the position, and each warning is an inferred `cardkit gaps` row until the field is
fixed. The import's own warnings are built from the same checks (rulebook.warnings).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from cardkit import suggest
from cardkit.check.rules import document_rule
from cardkit.games.marvel_united import placement
from cardkit.model import Document, Pointer, Severity

SYSTEM = "marvel-united"
PLACEMENT_LIKE = re.compile(r"(?:^|[.!] )Place \d+ ")
# bare numbers by Hero count ("2 Heroes: 5; 3 Heroes: 7"), not "2 Heroes: 8 Crisis tokens"
PLAYER_COUNT = re.compile(r"\b[1-9] Heroes: \d+; [1-9] Heroes: \d+\b(?! [A-Za-z])")
_TOKEN_WORDS = re.compile(r"Place (?P<count>\d+) (?P<words>[A-Za-z][\w'-]*(?: [A-Za-z][\w'-]*)?)")


@dataclass(frozen=True)
class Slip:
    pointer: Pointer  # where in the document the kept text stands
    card: str  # `card 7`, or "" for the Dashboard
    kind: str  # "line", "placement", "player-count", "note" or "cards"
    text: str  # the text kept verbatim (the field's name for a player-count line)
    hint: str = ""  # "'Thgu' is no placement token; did you mean 'Thug'?"


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for child in value.values():
            yield from _strings(child)
    elif isinstance(value, list):
        for child in value:
            yield from _strings(child)


def token_hint(text: str) -> str:
    """Why a placement sentence was not read, when a token word is the reason."""
    tokens = placement.vocabulary().with_role("placement")
    printed = {name for token in tokens for name in (token.singular, token.plural)}
    for match in _TOKEN_WORDS.finditer(text):
        words = match["words"].split(" ")
        if words[0] in printed or " ".join(words) in printed:
            continue
        unknown = words[0]
        one = match["count"] == "1"  # offer the form the count asks for: 1 Thug, 2 Thugs
        close = suggest.close(unknown, [t.singular if one else t.plural for t in tokens])
        return f"'{unknown}' is no placement token of {SYSTEM}" + (f"; {close}" if close else "")
    return ""


def slips(data: dict[str, Any]) -> Iterator[Slip]:
    """Each place where a villain holds text the importer kept because it could not read it."""
    dashboard = data.get("dashboard")
    for key, value in dashboard.items() if isinstance(dashboard, dict) else []:
        if key != "player_count" and any(PLAYER_COUNT.search(s) for s in _strings(value)):
            yield Slip(("dashboard", key), "", "player-count", key)
    yield from _kept_paragraphs(data)
    masterplan = data.get("masterplan")
    cards = masterplan.get("cards", []) if isinstance(masterplan, dict) else []
    for index, card in enumerate(cards if isinstance(cards, list) else []):
        if not isinstance(card, dict):
            continue
        name = f"card {card.get('n', index + 1)}"
        where: Pointer = ("masterplan", "cards", index)
        if isinstance(card.get("text"), str):
            yield Slip((*where, "text"), name, "line", card["text"])
        if "place" in card:
            continue
        effects = card.get("effects")
        for number, effect in enumerate(effects if isinstance(effects, list) else []):
            text = effect.get("text") if isinstance(effect, dict) else None
            if isinstance(text, str) and PLACEMENT_LIKE.search(text):
                pointer = (*where, "effects", number, "text")
                yield Slip(pointer, name, "placement", text, token_hint(text))


_NUMBERED = re.compile(r"^\d+\. ", re.M)  # a card line of a deck (transcription-format.md)


def _kept_paragraphs(data: dict[str, Any]) -> Iterator[Slip]:
    """A part whose paragraphs were kept as text where its reader gave up: its numbered
    card lines (the deck has no cards), or a `Gap:` note (read as no note at all)."""
    for part, value in data.items():
        if not isinstance(value, dict) or not isinstance(value.get("body"), list):
            continue
        for index, text in enumerate(value["body"]):
            if not isinstance(text, str):
                continue
            if text.startswith("Gap: "):
                yield Slip((part, "body", index), "", "note", text)
            elif _NUMBERED.search(text) and not value.get("cards"):
                lines = len(_NUMBERED.findall(text))
                yield Slip((part, "body", index), "", "cards", f"{part}: {lines}")


def message(slip: Slip, card: dict[str, Any] | None = None) -> str:
    """One line for a slip; `card` (the Master Plan card) says what was not read."""
    if slip.kind == "note":
        return (
            "a Gap note kept as plain text: it was not read as a note, so it doubts no "
            f"field; give it its own paragraph: {slip.text}"
        )
    if slip.kind == "cards":
        part, lines = slip.text.split(": ")
        return (
            f"{lines} numbered card line(s) kept as plain text: the {part} deck's cards were "
            "not read (a line among them that is not a card?)"
        )
    if slip.kind == "player-count":
        return f"a player-count line sits inside dashboard/{slip.text}; give it its own paragraph"
    if slip.kind == "line":
        missing = [f for f in ("move", "place") if card is None or f not in card]
        nothing = f"; nothing read: no {' and no '.join(missing)}" if missing else ""
        return f"{slip.card}: line not understood, kept verbatim{nothing}: {slip.text}"
    hint = f" ({slip.hint})" if slip.hint else ""
    return f"{slip.card}: placement not understood, kept verbatim{hint}: {slip.text}"


@document_rule(
    "MU131",
    Severity.WARNING,
    "Text the importer kept verbatim because it could not read it (card, placement, note).",
    system=SYSTEM,
    kinds=[f"{SYSTEM}/villain"],
)
def kept_slips(doc: Document) -> Iterator[tuple[Pointer, str]]:
    cards = doc.data.get("masterplan", {}).get("cards", [])
    for slip in slips(doc.data):
        card = cards[slip.pointer[2]] if slip.pointer[:2] == ("masterplan", "cards") else None
        yield slip.pointer, message(slip, card)
