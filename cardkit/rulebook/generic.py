"""Sections kept as generic data: a title, body items and sub-sections.

This is how any rulebook text that no game-specific parser claims is still kept
in full, in order, and can be printed back exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardkit.rulebook.blocks import body_or_kept, render_item
from cardkit.rulebook.outline import TOC_TITLE, Block, Outline, Section

GAP_PREFIX = "Gap: "
Groups = list[list[str]]
GapParser = Callable[[str], dict[str, Any]]


def first_line(text: str) -> str:
    """The first line that is not blank, stripped."""
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def default_gap(text: str) -> dict[str, Any]:
    return {"note": text, "status": "open"}


def gap_text(block: Block) -> str | None:
    """The note of a `Gap: ...` paragraph, or None for any other block."""
    if block.kind == "para" and len(block.lines) == 1:
        text = block.lines[0].text
        if text.startswith(GAP_PREFIX):
            return text[len(GAP_PREFIX) :]
    return None


def body_items(blocks: list[Block], gap: GapParser = default_gap) -> list[Any]:
    items: list[Any] = []
    for block in blocks:
        note = gap_text(block)
        if note is not None:
            items.append({"gap": gap(note)})
        else:
            items.append(body_or_kept(block))
    return items


def render_items(items: list[Any]) -> Groups:
    groups: Groups = []
    for item in items:
        if isinstance(item, dict) and "gap" in item:
            groups.append([GAP_PREFIX + str(item["gap"]["note"])])
        elif isinstance(item, str):
            groups.append(item.split("\n"))  # a kept multi-line block stays one group
        else:
            groups.append(render_item(item))
    return groups


def section_data(section: Section, gap: GapParser = default_gap) -> dict[str, Any]:
    data: dict[str, Any] = {"title": section.title}
    if section.blocks:
        data["body"] = body_items(section.blocks, gap)
    if section.children:
        data["sections"] = [section_data(child, gap) for child in section.children]
    return data


DocumentRenderer = Callable[[str], Groups]


def render_section(
    data: dict[str, Any],
    documents: DocumentRenderer | None = None,
    extra: Callable[[dict[str, Any]], Groups] | None = None,
) -> Groups:
    groups: Groups = [[str(data["title"])]]
    groups.extend(render_items(data.get("body", [])))
    if extra is not None:
        groups.extend(extra(data))
    for ref in data.get("documents", []):
        if documents is None:
            raise ValueError(
                f"section {data['title']!r} refers to documents but none can be rendered"
            )
        groups.extend(documents(ref))
    for child in data.get("sections", []):
        groups.extend(render_section(child, documents, extra))
    return groups


def join(groups: Groups) -> str:
    return "\n\n".join("\n".join(group) for group in groups) + "\n"


def blocks_lines(blocks: list[Block]) -> Groups:
    return [[line.text for line in block.lines] for block in blocks]


def section_lines(section: Section) -> Groups:
    """The source text of a section as groups, exactly as the outline read it."""
    groups: Groups = [[section.title]]
    groups.extend(blocks_lines(section.blocks))
    for child in section.children:
        groups.extend(section_lines(child))
    return groups


def book_head(outline: Outline) -> dict[str, Any]:
    """A book's title line, table of contents and any text before its first section."""
    head: dict[str, Any] = {"title": outline.title.text}
    if outline.toc:
        head["contents"] = [{"title": e.title, "level": e.level} for e in outline.toc]
    if outline.preamble:
        head["preamble"] = body_items(outline.preamble)
    return head


def render_head(manifest: dict[str, Any]) -> Groups:
    groups: Groups = [[str(manifest["title"])]]
    if "contents" in manifest:
        groups += [[TOC_TITLE], [TOC_TITLE]]
        groups.append(["  " * (e["level"] - 1) + "• " + e["title"] for e in manifest["contents"]])
    groups.extend(render_items(manifest.get("preamble", [])))
    return groups


def strings(value: Any) -> list[str]:
    """Every text in a document's value, depth first (a scalar as its text)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return [str(value)]
