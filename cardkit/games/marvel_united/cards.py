"""One card line <-> one card mapping: Master Plan lines and threat / hero bullets.

Every parser here is checked by rendering its result back: a line whose rendering
differs from the source is kept verbatim (`text`) instead of being guessed at.
"""

from __future__ import annotations

import re
from typing import Any

from cardkit.games.marvel_united import placement
from cardkit.rulebook.words import NUMBER_WORDS, number

_MP_HEAD = re.compile(r"^(?P<n>\d+)\. (?P<body>.*)$")
_MOVE = re.compile(r"^Move (?P<move>\d+|\*)\.(?: |$)")
_MOVE_SENTENCE = re.compile(r"^(?P<movement>Move (?!\d|\*)[^.]*\.)(?: |$)")
_MOVEMENT = re.compile(r' The movement on this card is "(?P<text>[^"]+)"$')
_NOTE = re.compile(r" \((?P<note>[^()]*not confirmed[^()]*)\)$")
_PLACE = re.compile(r"(?:^|(?<=[.!] ))(?P<sentence>Place [^.]*?\.|No tokens placed\.)(?= |$)")
_NAMED = re.compile(r"^(?P<name>[A-Z][^:.]{0,40}?): (?P<text>.+)$")


def _effect(text: str) -> dict[str, Any]:
    match = _NAMED.match(text)
    return {"name": match["name"], "text": match["text"]} if match else {"text": text}


def _effect_text(effect: dict[str, Any]) -> str:
    return f"{effect['name']}: {effect['text']}" if effect.get("name") else str(effect["text"])


def parse_masterplan(
    line: str, villain: str, anchor: str = placement.DEFAULT_ANCHOR
) -> dict[str, Any] | None:
    """A Master Plan card from `N. Move X. ...`, or None if the line is not one."""
    head = _MP_HEAD.match(line)
    if head is None:
        return None
    card: dict[str, Any] = {"n": int(head["n"])}
    body = head["body"]
    move = _MOVE.match(body) or _MOVE_SENTENCE.match(body)
    if move is None:
        card["text"] = body
        return card
    if "movement" in move.groupdict():
        card["movement"] = move["movement"]  # a sentence printed where the Move value goes
    else:
        card["move"] = "*" if move["move"] == "*" else int(move["move"])
    rest = body[move.end() :]
    notes: list[str] = []
    # the movement sentence and a parenthetical note close the line, in either order
    for _ in range(2):
        movement = _MOVEMENT.search(rest)
        if movement and "move_text" not in card:
            card["move_text"] = movement["text"]
            rest = rest[: movement.start()]
            continue
        note = _NOTE.search(rest)
        if note and not notes:
            notes.append(note["note"])
            rest = rest[: note.start()]
    if rest.startswith("Ritual card."):
        card["ritual"] = True
        rest = rest[len("Ritual card.") :].lstrip()
    if rest.startswith("BAM!.") or rest == "BAM!.":
        card["bam"] = True
        rest = rest[len("BAM!.") :].lstrip()
    before, after = rest, ""
    place_sentence = None
    for match in _PLACE.finditer(rest):
        parsed = placement.parse(match["sentence"])
        if parsed is not None:
            place_sentence = match["sentence"]
            before, after = rest[: match.start()].rstrip(), rest[match.end() :].lstrip()
            if isinstance(parsed, dict):
                card["place"] = {
                    **({"anchor": anchor} if anchor != placement.DEFAULT_ANCHOR else {}),
                    **parsed,
                }
            else:
                card["place"] = parsed
    effects: list[dict[str, Any]] = []
    if before:
        effects.append(_effect(before))
    if after:
        effects.append({**_effect(after), "after_place": True})
    if effects:
        card["effects"] = effects
    if notes:
        card["notes"] = notes
        card.setdefault("unconfirmed", []).append("place")
    place = card.get("place")
    if isinstance(place, dict) and placement.render(place, villain) != place_sentence:
        place["text"] = place_sentence
    return card


def render_masterplan(card: dict[str, Any], villain: str) -> str:
    if "movement" in card:
        parts = [f"{card['n']}. {card['movement']}"]
    elif "move" in card:
        parts = [f"{card['n']}. Move {card['move']}."]
    else:
        return f"{card['n']}. {card.get('text', '')}"
    if card.get("ritual"):
        parts.append("Ritual card.")
    if card.get("bam"):
        parts.append("BAM!.")
    effects = card.get("effects", [])
    parts.extend(_effect_text(e) for e in effects if not e.get("after_place"))
    if "place" in card:
        parts.append(placement.sentence(card["place"], villain))
    parts.extend(_effect_text(e) for e in effects if e.get("after_place"))
    if card.get("move_text"):
        parts.append(f'The movement on this card is "{card["move_text"]}"')
    parts.extend(f"({note})" for note in card.get("notes", []))
    return " ".join(parts)


# ---- bullets: "• Name (2 cards; detail): text" -------------------------------------------

_BULLET_WITH_META = re.compile(r"^(?P<name>[^()]+?) \((?P<meta>[^()]*)\):(?: (?P<text>.*))?$")
_BULLET_CARD = re.compile(r"^(?P<name>[^:()]+?)(?P<meta>)?:(?: (?P<text>.*))?$")


def _parse_meta(meta: str) -> dict[str, Any] | None:
    card: dict[str, Any] = {}
    head, _, detail = meta.partition("; ")
    if not re.search(r"\d+ cards?|Health|Henchman|Threat|Challenge", head, re.IGNORECASE):
        return {"detail": meta}
    for part in head.split(", "):
        copies = re.fullmatch(r"(\d+) cards?", part)
        health = re.fullmatch(r"[Hh]ealth (\d+)", part)
        if copies:
            card["copies"] = int(copies[1])
        elif health:
            card["health"] = int(health[1])
        elif part == "no Health":
            card["health"] = None
        elif part in ("Henchman", "Threat", "Challenge"):
            card["type"] = part.lower()
        else:
            return None
    if detail:
        card["detail"] = detail
    return card


def _render_meta(card: dict[str, Any]) -> str:
    kept = card.get("meta")
    if isinstance(kept, str):
        parsed = _parse_meta(kept)
        if parsed is not None and all(card.get(k) == v for k, v in parsed.items()):
            return kept
    if set(card) & {"type", "copies", "health"} == set() and card.get("detail"):
        return str(card["detail"])
    parts = []
    if "type" in card:
        parts.append(str(card["type"]).capitalize())
    if "copies" in card:
        parts.append(f"{card['copies']} card{'s' if card['copies'] != 1 else ''}")
    if "health" in card:
        parts.append("no Health" if card["health"] is None else f"Health {card['health']}")
    meta = ", ".join(parts)
    if card.get("detail"):
        meta = f"{meta}; {card['detail']}"
    return meta


def parse_bullet_card(item: str) -> dict[str, Any] | None:
    match = _BULLET_WITH_META.match(item) or _BULLET_CARD.match(item)
    if match is None:
        return None
    card: dict[str, Any] = {"name": match["name"]}
    if match["meta"]:
        meta = _parse_meta(match["meta"])
        if meta is None:
            return None
        card.update(meta)
    if match["text"]:
        text, marker, note = match["text"].partition(" Gap: ")
        card["text"] = text
        if marker:  # a transcriber's note written inside the card's line
            card["gap"] = {"note": note, "fields": ["text"], "status": "open"}
    if match["meta"] and _render_meta(card) != match["meta"]:
        card["meta"] = match["meta"]
    return card if render_bullet_card(card) == item else None


def render_bullet_card(card: dict[str, Any]) -> str:
    meta = _render_meta(card)
    head = f"{card['name']} ({meta})" if meta else str(card["name"])
    line = f"{head}: {card['text']}" if card.get("text") else f"{head}:"
    return line + (f" Gap: {card['gap']['note']}" if card.get("gap") else "")


MAX_DECLARED = 8


def declared_count(intro: str) -> int | None:
    """ "The X Threat deck has six cards: ..." -> 6."""
    # a Threat deck has at most eight cards; a larger number counts a whole printed
    # sheet (threats and henchmen together), which is not the deck's declaration
    names = "|".join(word for word, value in NUMBER_WORDS.items() if value <= MAX_DECLARED)
    match = re.search(rf"\b({names}|\d+) (?:[A-Z][\w!-]* ){{0,3}}cards\b", intro)
    return None if match is None else number(match[1])
