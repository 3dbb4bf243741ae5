"""Headed sections in one or two columns, from the whole-card read's lines (a grammar rule,
`how: sections`): what a Dashboard prints under its headings, in any order.

tesseract's layout analysis now and then runs a line of the left column on into the right
one (two lines at one height read as one). Each line is first cut into segments where the
space between two words is much wider than a word space (a gutter). A segment that opens
with one of the rule's headings is a heading; the headings' left edges are the columns'
(a body of text is set flush left under its heading). Every other segment belongs to the
column its left edge stands in, and there to the nearest heading above it, until the next
heading or a gap of several lines. A heading's section is its segments, top to bottom.

    fields:
      sections: {how: sections, headings: {Special Rules: dashboard/special_rules, ...},
                 names: {Villainous Plot: dashboard/villainous_plot/name}}

`names`: a heading printed with a name after it (`Villainous Plot - Evolution Track`)
gives that name to the field named there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from cardkit.ocr import fields
from cardkit.ocr.engine import Word
from cardkit.ocr.page import Line

RULES = ("sections",)
GUTTER = 1.5  # a space between two words this many type heights wide is a column gutter
PARAGRAPH_GAP = 3.0  # a section ends at a gap of this many type heights (a table below it)
NAME_WORDS = 5  # a name printed after a heading holds at most this many words
SEPARATORS = "-–—:/|"


@dataclass(frozen=True)
class Segment:
    line: int  # the index of the line it was cut from
    text: str
    confidence: float
    box: tuple[int, int, int, int]  # left, top, width, height on the card
    height: float
    words: tuple[Word, ...] = ()


def _segment(index: int, line: Line, words: list[Word]) -> Segment:
    left = min(w.box[0] for w in words)
    top = min(w.box[1] for w in words)
    right = max(w.box[0] + w.box[2] for w in words)
    bottom = max(w.box[1] + w.box[3] for w in words)
    total = sum(len(w.text) for w in words) or 1
    sure = sum(w.confidence * len(w.text) for w in words) / total
    text = " ".join(w.text for w in words)
    box = (left, top, right - left, bottom - top)
    return Segment(index, text, sure, box, line.height, tuple(words))


def segments(lines: list[Line]) -> list[Segment]:
    """Every line cut at its gutters (a line without words is one segment)."""
    out: list[Segment] = []
    for index, line in enumerate(lines):
        words = sorted(line.words, key=lambda w: w.box[0])
        if not words:
            out.append(Segment(index, line.text, line.confidence, line.box, line.height))
            continue
        # a mark alone in a gutter (`|`: a column's edge, a rule) stands in no column; one
        # close by words on both sides (`If | or more`: a body font's 1) is a word
        real = [w for n, w in enumerate(words) if _wordlike(words, n, line.height)] or words
        runs = [[real[0]]]
        for word in real[1:]:
            gap = word.box[0] - (runs[-1][-1].box[0] + runs[-1][-1].box[2])
            if gap > GUTTER * max(line.height, 1.0):
                runs.append([])
            runs[-1].append(word)
        if len(runs) == 1:
            runs = [words]  # one column: the line as read, its marks too
        out += [_segment(index, line, run) for run in runs]
    return out


LONE_NUMBER = re.compile(r"\d{1,2}")


def _text_ends(free: list[Segment], columns: list[int]) -> dict[int, int]:
    """Per column, where its lines of words end (the median of their right edges: a
    table's heads beside a heading end further out); a table's numbers standing beyond it
    are no section's text."""
    rights: dict[int, list[int]] = {}
    for segment in free:
        if sum(c.isalpha() for c in segment.text) >= 3:
            column = _column_of(segment, columns)
            rights.setdefault(column, []).append(segment.box[0] + segment.box[2])
    return {column: sorted(r)[len(r) // 2] for column, r in rights.items()}


def _whole(index: int, line: Line) -> Segment:
    if not line.words:
        return Segment(index, line.text, line.confidence, line.box, line.height)
    return _segment(index, line, sorted(line.words, key=lambda w: w.box[0]))


def _wordlike(words: list[Word], n: int, height: float) -> bool:
    """A word, or a mark standing within a type height of words on both sides."""
    word = words[n]
    if any(c.isalnum() for c in word.text):
        return True
    if n == 0 or n == len(words) - 1:
        return False
    before = word.box[0] - (words[n - 1].box[0] + words[n - 1].box[2])
    after = words[n + 1].box[0] - (word.box[0] + word.box[2])
    return max(before, after) <= max(height, 1.0)


def headings_of(kind: Any) -> list[str]:
    """The section headings a grammar kind's `sections` rules name (none without one)."""
    return [
        str(heading)
        for rule in kind.rules
        if rule.how in RULES
        for heading in dict(rule.options.get("headings") or {})
    ]


def _letters(text: str) -> str:
    return re.sub(r"[^A-Za-z]", "", text).casefold()


def heading_of(text: str, headings: list[str]) -> tuple[str, str] | None:
    """(heading, what follows it) when the text opens with one of the headings, alone or
    followed by a separator, a short name or another heading; None for a sentence that
    happens to open with a heading's word (`BAM! Instead, the Hero gets a KO token.`). A
    mark before it (a diamond read as `•`) is the heading's ornament, and so is a speck
    after it (a rule running on, read as `2`), and so is a short word in lower case or a
    lone digit before it (a square read as `mg` or `8`) when the heading would stand alone."""
    words = re.sub(r"^[^\w\"“']+\s+", "", text.strip()).split()
    first = words[0] if words else ""
    ornament = (len(first) <= 2 and first.islower()) or (len(first) == 1 and not first.isalpha())
    if len(words) > 1 and ornament:  # (a square read as `mg` or as `8`)
        found = heading_of(" ".join(words[1:]), headings)
        if found is not None and not found[1]:
            return found
    for label in sorted(headings, key=lambda h: -len(h.split())):
        size = len(label.split())
        if len(words) < size:
            continue
        head = " ".join(words[:size])
        if _letters(head) != _letters(label) and fields.closest(head, [label]) != label:
            continue
        if head.endswith(".") and not label.endswith("."):
            continue  # a sentence ending on a heading's words: `... the Villainous Plot.`
        rest = " ".join(words[size:]).strip()
        if len(rest) <= 2 and not any(c.isalpha() for c in rest):
            return label, ""  # a rule running on after it, read as a speck (`Overflow 2`)
        if rest[0] in SEPARATORS or heading_of(rest, headings) is not None:
            return label, rest.lstrip(SEPARATORS + " ").strip()
        short = len(rest.split()) <= NAME_WORDS and not re.search(r"[.,;]$", rest)
        if short and rest[0].isupper():
            return label, rest
    return None


def read(
    rule_options: dict[str, Any], lines: list[Line], left: list[str]
) -> list[tuple[str, list[int], list[str], float]]:
    """(field, lines used, its text's parts top to bottom, confidence) per section found;
    `left` (the text of each line not used up yet) loses the segments the sections took."""
    targets = {str(k): str(v) for k, v in dict(rule_options.get("headings") or {}).items()}
    named = {str(k): str(v) for k, v in dict(rule_options.get("names") or {}).items()}
    free = [s for s in segments(lines) if left[s.line] == lines[s.line].text]
    free, heads, columns = _laid_out(free, list(targets), lines)
    if len(columns) < 2:  # one column: no line is cut (a photo's wide word spaces are no gutter)
        free = [_whole(n, ln) for n, ln in enumerate(lines) if left[n] == ln.text]
        heads = _heads(free, list(targets))
    if not heads:
        return []
    members: dict[int, list[Segment]] = {id(h[0]): [] for h in heads}
    heading_ids = {id(h[0]) for h in heads}
    ends = _text_ends(free, columns)
    for segment in sorted(free, key=lambda s: s.box[1]):
        if id(segment) in heading_ids:
            continue
        column = _column_of(segment, columns)
        if LONE_NUMBER.fullmatch(segment.text.strip()) and segment.box[0] > ends.get(column, 0):
            continue  # a table's number beyond where the column's text ends: kept
        above = [
            h[0]
            for h in heads
            if _column_of(h[0], columns) == column
            and h[0].box[1] + h[0].box[3] / 2 < segment.box[1]  # under it, not beside it
        ]
        if not above:
            continue
        owner = max(above, key=lambda s: s.box[1])
        taken = members[id(owner)]
        last = taken[-1] if taken else owner
        gap = segment.box[1] - (last.box[1] + last.box[3])
        if gap > PARAGRAPH_GAP * max(segment.height, 1.0):
            continue
        taken.append(segment)
    out: list[tuple[str, list[int], list[str], float]] = []
    used: list[Segment] = []
    for head, label, rest in heads:
        body = members[id(head)]
        field = targets[label]
        if any(f == field for f, *_ in out):
            continue  # a heading read twice: the first (top left) stands
        used += [head, *body]
        if rest and label in named and heading_of(rest, list(targets)) is None:
            out.append((named[label], [head.line], [rest], head.confidence))
        if body:
            parts = [s.text for s in body]
            out.append(
                (field, sorted({s.line for s in body}), parts, min(s.confidence for s in body))
            )
    _use_up(lines, left, used)
    return out


def _laid_out(
    free: list[Segment], targets: list[str], lines: list[Line]
) -> tuple[list[Segment], list[tuple[Segment, str, str]], list[int]]:
    """The segments (cut at the columns' edges), the headings among them, the columns."""
    heads = _heads(free, targets)
    if not heads:
        return free, [], []
    # segments running over a column's edge are cut there, and the headings found again
    # (two headings side by side read as one line: `Special Rules Overflow`)
    for _ in range(2):
        columns = _columns([h[0] for h in heads])
        free = [part for segment in free for part in _across(segment, columns, lines)]
        heads = _heads(free, targets)
    return free, heads, _columns([h[0] for h in heads])


def layout(lines: list[Line], targets: list[str]) -> tuple[list[Segment], list[int]]:
    """The heading segments among the lines, and the columns' left edges."""
    _, heads, columns = _laid_out(segments(lines), targets, lines)
    return [h[0] for h in heads], columns


def _heads(free: list[Segment], targets: list[str]) -> list[tuple[Segment, str, str]]:
    heads = []
    for segment in free:
        found = heading_of(segment.text, targets)
        if found is not None:
            heads.append((segment, *found))
    return heads


def _columns(heads: list[Segment]) -> list[int]:
    """The columns' left edges: the headings' left edges, near ones as one."""
    lefts: list[int] = []
    for head in sorted(heads, key=lambda s: s.box[0]):
        if not lefts or head.box[0] - lefts[-1] > 2 * max(head.height, 1.0):
            lefts.append(head.box[0])
    return lefts


def _across(segment: Segment, columns: list[int], lines: list[Line]) -> list[Segment]:
    """A segment running over a column's left edge, cut there (a gutter narrower than
    GUTTER, read as a word space)."""
    for edge in columns[1:]:
        slack = max(segment.height, 1.0)
        words = sorted(segment.words, key=lambda w: w.box[0])
        cut = _gutter(words, edge, slack)
        if cut is None:
            before = [w for w in words if w.box[0] < edge - slack]
            after = [w for w in words if w.box[0] >= edge - slack]
        else:
            before, after = words[:cut], words[cut:]
        before, after = _unedged(before), _unedged(after)
        if before and after:
            line = lines[segment.line]
            return [
                _segment(segment.line, line, before),
                *_across(_segment(segment.line, line, after), columns, lines),
            ]
    return [segment]


def _gutter(words: list[Word], edge: int, slack: float) -> int | None:
    """Where a line crossing a column's edge is cut: at the widest space between its words
    near the edge (from 3 type heights left of it, as a column's text may start left of its
    heading's ornament, to one right), so no word is cut from its column. A line that
    starts there stands in that column whole, and one that ends short of it is not cut."""
    if not words or words[0].box[0] >= edge - 3 * slack:
        return 0
    if words[-1].box[0] < edge - slack:
        return 0  # it does not reach the edge: nothing of it stands in the next column
    gaps = [
        (words[i + 1].box[0] - (words[i].box[0] + words[i].box[2]), i + 1)
        for i in range(len(words) - 1)
        if edge - 3 * slack <= words[i + 1].box[0] <= edge + slack
    ]
    return max(gaps)[1] if gaps else None


def _unedged(words: list[Word]) -> list[Word]:
    """A column's words without a lone mark at either end (`|`: the gutter's edge)."""
    while words and not any(c.isalnum() for c in words[-1].text):
        words = words[:-1]
    while words and not any(c.isalnum() for c in words[0].text):
        words = words[1:]
    return words


def _column_of(segment: Segment, columns: list[int]) -> int:
    """The column a segment's left edge stands in (a little left of a column's edge too)."""
    slack = 2 * max(segment.height, 1.0)
    inside = [n for n, x in enumerate(columns) if segment.box[0] >= x - slack]
    return inside[-1] if inside else 0


def _use_up(lines: list[Line], left: list[str], used: list[Segment]) -> None:
    """Each line touched keeps the text of its segments no section took."""
    for index in {s.line for s in used}:
        if any(u.line == index and u.text == lines[index].text for u in used):
            left[index] = ""  # the whole line was used (one column: lines are not cut)
            continue
        rest = [
            s.text
            for s in segments([lines[index]])
            if not any(u.text == s.text and u.box == s.box for u in used)
        ]
        left[index] = " ".join(rest)
