"""Card sheets (threats, henchmen, heroes, weak spots) and the Master Plan deck.

Each part is parsed from its blocks and rendered back; a part whose rendering does
not reproduce the source is kept verbatim as `body` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardkit.games.marvel_united import cards, placement
from cardkit.rulebook.blocks import body_or_kept, render_item, to_body
from cardkit.rulebook.generic import GAP_PREFIX, Groups, blocks_lines, gap_text, render_items
from cardkit.rulebook.outline import Block

GapParser = Callable[[str], dict[str, Any]]


def _add_gap(data: dict[str, Any], note: dict[str, Any]) -> bool:
    """Append a gap note; False when notes are split by other text (order would be lost)."""
    if "gaps" in data and list(data)[-1] != "gaps":
        return False
    data.setdefault("gaps", []).append(note)
    return True


def _bullet_cards(block: Block) -> list[dict[str, Any]] | None:
    item = to_body(block)
    if not isinstance(item, dict) or "bullets" not in item:
        return None
    found: list[dict[str, Any]] = []
    for entry in item["bullets"]:
        if isinstance(entry, dict):  # a nested list belongs to the card above it
            if not found or "lines" in found[-1]:
                return None
            found[-1]["lines"] = entry["bullets"]
            continue
        card = cards.parse_bullet_card(entry)
        if card is None:
            return None
        found.append(card)
    return found


def parse_sheet(blocks: list[Block], gap: GapParser) -> dict[str, Any]:
    """intro paragraphs, one list of cards, then notes and gap notes."""
    data: dict[str, Any] = {}
    for block in blocks:
        note = gap_text(block)
        if note is not None:
            if not _add_gap(data, gap(note)):
                return {"body": [body_or_kept(b) for b in blocks]}
            continue
        parsed = _bullet_cards(block) if block.kind == "bullets" else None
        if parsed is not None and "cards" not in data:
            data["cards"] = parsed
        elif "cards" in data or "gaps" in data:
            if "after" in data and list(data)[-1] != "after":
                return {"body": [body_or_kept(b) for b in blocks]}
            data.setdefault("after", []).append(body_or_kept(block))
        else:
            data.setdefault("intro", []).append(body_or_kept(block))
    if "intro" in data and isinstance(data["intro"][0], str):
        count = cards.declared_count(data["intro"][0])
        if count is not None:
            data = {"intro": data.pop("intro"), "declared": {"count": count}, **data}
    if render_sheet(data) != blocks_lines(blocks):
        return {"body": [body_or_kept(b) for b in blocks]}
    return data


def _render_cards(found: list[dict[str, Any]]) -> list[str]:
    lines = []
    for card in found:
        lines.append("• " + cards.render_bullet_card(card))
        if card.get("lines"):
            lines.extend(render_item({"bullets": [{"bullets": card["lines"]}]}))
    return lines


def render_sheet(data: dict[str, Any]) -> Groups:
    return _render_part(data, _render_cards)


def _render_part(
    data: dict[str, Any], render_cards: Callable[[list[dict[str, Any]]], list[str]]
) -> Groups:
    """A part in stored order: intro and after items, the cards as one block, gap notes."""
    if "body" in data:
        return render_items(data["body"])
    groups: Groups = []
    for key, value in data.items():
        if key in ("intro", "after"):
            groups.extend(render_items(value))
        elif key == "cards":
            groups.append(render_cards(value))
        elif key == "gaps":
            groups.extend([GAP_PREFIX + str(g["note"])] for g in value)
    return groups


def parse_masterplan(blocks: list[Block], villain: str, gap: GapParser) -> dict[str, Any]:
    data: dict[str, Any] = {}
    anchor = placement.DEFAULT_ANCHOR
    for block in blocks:
        note = gap_text(block)
        if note is not None:
            if not _add_gap(data, gap(note)):
                return {"body": [body_or_kept(b) for b in blocks]}
        elif block.kind == "steps" and "cards" not in data:
            parsed = [cards.parse_masterplan(line.text, villain, anchor) for line in block.lines]
            if any(card is None for card in parsed):
                return {"body": [body_or_kept(b) for b in blocks]}
            data["cards"] = parsed
        elif "cards" in data:
            data.setdefault("after", []).append(body_or_kept(block))
        else:
            item = body_or_kept(block)
            named = placement.anchor_named_in(item) if isinstance(item, str) else None
            anchor = named or anchor  # e.g. a villain who places tokens beside his own token
            data.setdefault("intro", []).append(item)
    if render_masterplan(data, villain) != blocks_lines(blocks):
        return {"body": [body_or_kept(b) for b in blocks]}
    return data


def render_masterplan(data: dict[str, Any], villain: str) -> Groups:
    return _render_part(data, lambda found: [cards.render_masterplan(c, villain) for c in found])
