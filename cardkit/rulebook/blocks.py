"""Outline blocks <-> the schema's `body` items, both ways, without loss.

A paragraph is a string, a bullet list `{bullets: [...]}` (a nested list is an item of
its own), a numbered list `{steps: [...], start: N}`.
"""

from __future__ import annotations

from typing import Any

from cardkit.rulebook.outline import BULLET, STEP, Block, Line


def _bullet_items(lines: list[Line], start: int, indent: int) -> tuple[list[Any], int]:
    items: list[Any] = []
    index = start
    while index < len(lines):
        match = BULLET.match(lines[index].text)
        if match is None:
            break
        depth = len(match["indent"])
        if depth < indent:
            break
        if depth > indent:
            nested, index = _bullet_items(lines, index, depth)
            items.append({"bullets": nested})
            continue
        items.append(match["text"])
        index += 1
    return items, index


def to_body(block: Block) -> Any | None:
    """The body item for a block, or None when the block does not fit the shape."""
    if block.kind == "para":
        return block.lines[0].text if len(block.lines) == 1 else None
    if block.kind == "bullets":
        items, used = _bullet_items(block.lines, 0, 0)
        return {"bullets": items} if used == len(block.lines) else None
    if block.kind == "steps":
        numbers, texts = [], []
        for line in block.lines:
            match = STEP.match(line.text)
            if match is None:
                return None
            numbers.append(int(match["n"]))
            texts.append(match["text"])
        if numbers != list(range(numbers[0], numbers[0] + len(numbers))):
            return None
        body: dict[str, Any] = {"steps": texts}
        if numbers[0] != 1:
            body["start"] = numbers[0]
        return body
    return None


def body_or_kept(block: Block) -> Any:
    """The body item, or the raw lines as one kept paragraph per line when it does not fit."""
    item = to_body(block)
    return item if item is not None else block.text


def render_item(item: Any, indent: int = 0) -> list[str]:
    if isinstance(item, str):
        return [item]
    if "bullets" in item:
        out: list[str] = []
        for entry in item["bullets"]:
            if isinstance(entry, dict) and "bullets" in entry:
                out.extend(render_item(entry, indent + 2))
            else:
                out.append(" " * indent + "• " + str(entry))
        return out
    start = int(item.get("start", 1))
    return [f"{start + i}. {text}" for i, text in enumerate(item["steps"])]


def render_body(items: list[Any]) -> list[list[str]]:
    """Each body item as a group of lines; groups are separated by blank lines."""
    return [render_item(item) for item in items]
