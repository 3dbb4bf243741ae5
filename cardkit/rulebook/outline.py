"""Split a rulebook transcription into a title, a table of contents and a section tree.

Headings are the titles the table of contents lists, plus lone short lines that
read like titles (no end punctuation, no `label:`), which some books leave out of it.
Blocks are separated by blank lines: a paragraph, a bullet list or a numbered list.
Every block keeps its line numbers so an importer can account for each source line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

TOC_TITLE = "Table of Contents"
BULLET = re.compile(r"^(?P<indent>\s*)• (?P<text>.*)$")
STEP = re.compile(r"^(?P<n>\d+)\. (?P<text>.*)$")
_TITLE_END = re.compile(r"[.:?]$")


@dataclass(frozen=True)
class Line:
    no: int  # 1-based line number in the source
    text: str


@dataclass
class Block:
    kind: str  # "para", "bullets" or "steps"
    lines: list[Line]

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


@dataclass
class Section:
    title: str
    line: int
    level: int
    blocks: list[Block] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)

    def child(self, title: str) -> Section | None:
        return next((c for c in self.children if c.title == title), None)

    def walk(self) -> list[Section]:
        found = [self]
        for c in self.children:
            found.extend(c.walk())
        return found


@dataclass
class TocEntry:
    level: int
    title: str
    line: int


@dataclass
class Outline:
    title: Line
    toc: list[TocEntry]
    toc_lines: list[int]  # line numbers of the "Table of Contents" headings
    preamble: list[Block]
    sections: list[Section]


def _blocks(lines: list[Line]) -> list[list[Line]]:
    groups: list[list[Line]] = []
    current: list[Line] = []
    for line in lines:
        if line.text.strip():
            current.append(line)
        elif current:
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def classify(group: list[Line]) -> Block:
    first = group[0].text
    if BULLET.match(first):
        return Block("bullets", group)
    if STEP.match(first):
        return Block("steps", group)
    return Block("para", group)


def looks_like_title(text: str) -> bool:
    return (
        len(text) <= 70
        and not BULLET.match(text)
        and not STEP.match(text)
        and ": " not in text
        and not _TITLE_END.search(text)
        and text[:1].isupper()
    )


def _parse_toc(groups: list[list[Line]], start: int) -> tuple[list[TocEntry], list[int], int]:
    """Read 'Table of Contents' headings and the bullet list after them."""
    toc_lines: list[int] = []
    index = start
    while index < len(groups) and len(groups[index]) == 1 and groups[index][0].text == TOC_TITLE:
        toc_lines.append(groups[index][0].no)
        index += 1
    entries: list[TocEntry] = []
    if toc_lines and index < len(groups) and BULLET.match(groups[index][0].text):
        for line in groups[index]:
            match = BULLET.match(line.text)
            if match is None:
                break
            entries.append(TocEntry(len(match["indent"]) // 2 + 1, match["text"], line.no))
        index += 1
    return entries, toc_lines, index


# (heading, the text of the block after it, titles of the open sections) -> level or None
LevelHint = Callable[[str, str, list[str]], int | None]


def parse_outline(text: str, level_hint: LevelHint | None = None) -> Outline:
    lines = [Line(no, raw.rstrip()) for no, raw in enumerate(text.splitlines(), start=1)]
    groups = _blocks(lines)
    if not groups:
        raise ValueError("the rulebook is empty")
    title = groups[0][0]
    if len(groups[0]) > 1:
        groups[0] = groups[0][1:]
        rest_start = 0
    else:
        rest_start = 1
    toc, toc_lines, index = _parse_toc(groups, rest_start)
    titles = [entry.title for entry in toc]
    next_entry = 0

    def toc_level(heading: str) -> int | None:
        """The level of the heading's TOC entry: the next one in order, else any earlier one."""
        nonlocal next_entry
        if heading in titles[next_entry:]:
            index = titles.index(heading, next_entry)
            next_entry = index + 1
            return toc[index].level
        return toc[titles.index(heading)].level if heading in titles else None

    root = Section("", 0, 0)
    stack = [root]
    preamble: list[Block] = []
    body = groups[index:]
    for position, group in enumerate(body):
        heading = group[0].text if len(group) == 1 else None
        if heading is not None and (heading in titles or looks_like_title(heading)):
            level = toc_level(heading)
            if level is None and level_hint is not None:
                following = body[position + 1][0].text if position + 1 < len(body) else ""
                level = level_hint(heading, following, [s.title for s in stack[1:]])
            level = level or (stack[-1].level if len(stack) > 1 else 1)
            while stack[-1].level >= level:
                stack.pop()
            section = Section(heading, group[0].no, level)
            stack[-1].children.append(section)
            stack.append(section)
            continue
        target = stack[-1].blocks if len(stack) > 1 else preamble
        target.append(classify(group))
    return Outline(title, toc, toc_lines, preamble, root.children)
