"""Placement sentences <-> token counts per slot.

A Master Plan card places Civilian and Thug tokens in three slots: the left
Location, the Villain's Location and the right Location (for Lizard, the two
Locations beside his Sewer token). Counts are the data; the sentence is derived
from them, and a source sentence is kept only when its wording is not the
canonical one.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from cardkit import systems
from cardkit.games.marvel_united import NAME

SLOTS = ("left", "villain", "right")
NONE_SENTENCE = "No tokens placed."
DEFAULT_ANCHOR = "villain"  # slots are counted from the Villain's Location unless a card says


def vocabulary() -> systems.Vocabulary:
    return systems.get(NAME).tokens


@cache
def _printed_names() -> dict[str, str]:
    """Printed singular and plural of every placement token -> its name."""
    found: dict[str, str] = {}
    for token in vocabulary().with_role("placement"):
        found[token.singular] = found[token.plural] = token.name
    return found


def anchors() -> list[systems.Token]:
    """The anchors a card may count its slots from other than the Villain."""
    return [t for t in vocabulary().with_role("anchor") if t.name != DEFAULT_ANCHOR]


def anchor_named_in(text: str) -> str | None:
    """The anchor token a passage names by its printed name (Lizard's Sewer token), if any."""
    return next((t.name for t in anchors() if t.singular in text or t.plural in text), None)


_TARGET = re.compile(
    r" in (?P<target>each of the three Locations(?: \(left, Villain's, right\))?"
    r"|each Location beside [^,]+?'s?"
    r"|each side Location|the left Location|the right Location|the Villain's Location"
    r"|[A-Z][\w'-]*(?: [A-Z(][\w()'-]*)*?'s? Location)(?=$|, | and )"
)

Tokens = dict[str, int]
Placement = dict[str, Tokens]


def _tokens(text: str) -> Tokens | None:
    found: Tokens = {}
    for part in text.split(" and "):
        count, _, printed = part.strip().partition(" ")
        name = _printed_names().get(printed)
        if not count.isdigit() or name is None or name in found:
            return None
        found[name] = int(count)
    return found or None


def _slots_for(target: str) -> tuple[str, ...]:
    if target.startswith("each of the three"):
        return SLOTS
    if target.startswith("each Location beside") or target == "each side Location":
        return ("left", "right")
    if target == "the left Location":
        return ("left",)
    if target == "the right Location":
        return ("right",)
    return ("villain",)


def parse(sentence: str) -> Placement | str | None:
    """Counts per slot, "none" for "No tokens placed.", or None if the sentence is unreadable."""
    if sentence == NONE_SENTENCE:
        return "none"
    if not sentence.startswith("Place ") or not sentence.endswith("."):
        return None
    body = sentence[len("Place ") : -1]
    body, _, override = body.partition(", with ")
    result: Placement = {}
    position = 0
    for match in _TARGET.finditer(body):
        chunk = body[position : match.start()]
        chunk = chunk.removeprefix(", ").removeprefix(" and ")
        tokens = _tokens(chunk)
        if tokens is None:
            return None
        for slot in _slots_for(match["target"]):
            if slot in result:
                return None
            result[slot] = dict(tokens)
        position = match.end()
    if position != len(body) or not result:
        return None
    if override:
        extra = parse(f"Place {override}.")
        if not isinstance(extra, dict):
            return None
        result.update(extra)
    return {slot: result[slot] for slot in SLOTS if slot in result}


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _tokens_text(tokens: Tokens) -> str:
    return " and ".join(vocabulary().get_token(name).label(count) for name, count in tokens.items())


def render(place: Any, villain: str) -> str:
    """The canonical sentence for a placement."""
    if place == "none":
        return NONE_SENTENCE
    slots = {slot: place[slot] for slot in SLOTS if place.get(slot)}
    values = list(slots.values())
    if len(slots) == 3 and values[0] == values[1] == values[2]:
        return f"Place {_tokens_text(values[0])} in each of the three Locations."
    where = {
        "left": "the left Location",
        "villain": f"{possessive(villain)} Location",
        "right": "the right Location",
    }
    clauses = [f"{_tokens_text(tokens)} in {where[slot]}" for slot, tokens in slots.items()]
    joined = clauses[0] if len(clauses) == 1 else ", ".join(clauses[:-1]) + " and " + clauses[-1]
    return f"Place {joined}."


def counts(place: Any) -> Placement:
    """The slots of a placement without its annotations (text, anchor, unconfirmed)."""
    if not isinstance(place, dict):
        return {}
    return {slot: dict(place[slot]) for slot in SLOTS if isinstance(place.get(slot), dict)}


def sentence(place: Any, villain: str) -> str:
    """The sentence to print: the kept source wording while it still says the same counts."""
    kept = place.get("text") if isinstance(place, dict) else None
    if isinstance(kept, str) and parse(kept) == counts(place):
        return kept
    return render(place, villain)


def merge(old: dict[str, Any], new: Any) -> Any:
    """A corrected placement: new counts, the old anchor, the old wording only if still true."""
    if not isinstance(new, dict):
        return new
    merged: dict[str, Any] = {}
    if "anchor" in old and "anchor" not in new:
        merged["anchor"] = old["anchor"]
    merged.update({k: v for k, v in new.items() if k != "text"})
    wording = new.get("text", old.get("text"))
    if isinstance(wording, str) and parse(wording) == counts(merged):
        merged["text"] = wording
    return merged
