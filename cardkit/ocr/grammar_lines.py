"""Line-level helpers of the grammar's rules (grammar.py): a line without its stray marks,
a title up to its wide space, a first line set apart, rules lines of one paragraph, and
lines joined into a field's text."""

from __future__ import annotations

import re

from cardkit.ocr.page import Line


def letters(text: str) -> int:
    return sum(c.isalpha() for c in text)


def strip_marks(text: str, number: bool = False) -> str:
    """A line without the stray marks an ornament or icon leaves at its ends (`number`: a
    lone digit at its end is the card's number, not a speck)."""
    speck = r"\s+[^\sAI0-9]$" if number else r"\s+[^\sAI]$"  # a lone speck after the last word
    text = re.sub(speck, "", text.strip())
    return re.sub(r"^[^A-Za-z0-9\"“'(]+|[^A-Za-z0-9.!?)\"”']+$", "", text).strip()


def set_apart(lines: list[Line], i: int) -> bool:
    """The card's first line of words stands apart from the next below it, by 1.5 of its heights
    (a title in a narrow display face is no taller than the text, but set apart)."""
    first = next((n for n, ln in enumerate(lines) if letters(ln.text) >= 3), None)
    if i != first or len(lines) < 2:
        return False
    line = lines[i]
    below = [ln.box[1] for ln in lines[i + 1 :] if ln.box[1] > line.box[1] + line.box[3] / 2]
    return bool(below) and min(below) - (line.box[1] + line.box[3]) >= 1.5 * line.box[3]


TITLE_GAP = 3.0  # a title's words stand closer than this many type heights apart


def title_part(line: Line, text: str) -> tuple[str, str]:
    """A title line's text up to a space wider than TITLE_GAP type heights, and what stands
    beyond it (a Dashboard's player-count table beside its name: `High Evolutionary ...
    Heroes 2 6 3 6`); the whole text when the line is no longer as read or has no such
    space."""
    words = sorted(line.words, key=lambda w: w.box[0])
    if text != line.text or len(words) < 2:
        return text, ""
    for n in range(1, len(words)):
        gap = words[n].box[0] - (words[n - 1].box[0] + words[n - 1].box[2])
        # the nearer type's height: a box's edges read with a word beside the title
        # (`Goliath }HP 5 |`) make the line's median height the box's; a mark's own
        # height (a dash, a speck: no letter or digit) is no type's
        typed = [w.box[3] for w in words[n - 1 : n + 1] if any(c.isalnum() for c in w.text)]
        if gap > TITLE_GAP * max(min([line.height, *typed]), 1.0):
            return " ".join(w.text for w in words[:n]), " ".join(w.text for w in words[n:])
    return text, ""


def within_paragraph(lines: list[Line], fit: list[int], picked: list[int]) -> list[int]:
    """Lines fit to be text but read less surely than `least` (no less than
    LEAST_CONFIDENCE) between two picked lines of one paragraph: set at their left edge and
    their size, a line of the text whose words read unsurely (a curly apostrophe), not art
    read as words."""
    chosen = set(picked)
    found = []
    for i in fit:
        if i in chosen or i == 0 or i == len(lines) - 1:
            continue
        if i - 1 not in chosen or i + 1 not in chosen:
            continue
        line, above, below = lines[i], lines[i - 1], lines[i + 1]
        size = max(above.height, 1.0)
        edges = all(abs(line.box[0] - other.box[0]) <= size for other in (above, below))
        sized = all(
            abs(line.height - other.height) <= 0.3 * other.height for other in (above, below)
        )
        if edges and sized:
            found.append(i)
    return found


def median_height(lines: list[Line]) -> float:
    """The lines' median type height, lines of words only (a card's edge read as a tall
    `|` is no type)."""
    heights = sorted(line.height for line in lines if letters(line.text) >= 3)
    return heights[len(heights) // 2] if heights else 0.0


def join(parts: list[str]) -> str:
    """Lines joined with single spaces, a hyphen at a line's end joined to the next word."""
    text = ""
    for part in parts:
        part = part.strip()
        if not part:
            continue
        if text.endswith("-") and part[:1].islower():
            text = text[:-1] + part
        else:
            text = f"{text} {part}" if text else part
    return text


def rejoined(lines: list[Line]) -> list[Line]:
    """The lines with a line tesseract split in two joined again: the next line in reading
    order on the same row (tops within a quarter of its height, heights within a quarter),
    starting left of the first's end or within half a height of it. Where the two boxes
    overlap, the letters read twice are kept once (`Hobg` + `goblin 7`: `Hobgoblin 7`)."""
    out: list[Line] = []
    for line in lines:
        last = out[-1] if out else None
        if last is None or not _continues(last, line):
            out.append(line)
            continue
        text = line.text
        if line.box[0] < last.box[0] + last.box[2]:  # overlapping: a word read twice in part
            low, high = last.text.casefold(), text.casefold()
            twice = max(
                (k for k in range(1, min(len(low), len(high)) + 1) if low.endswith(high[:k])),
                default=0,
            )
            joined = last.text + text[twice:]
        else:
            joined = f"{last.text} {text}"
        left, top = min(last.box[0], line.box[0]), min(last.box[1], line.box[1])
        right = max(last.box[0] + last.box[2], line.box[0] + line.box[2])
        bottom = max(last.box[1] + last.box[3], line.box[1] + line.box[3])
        out[-1] = Line(
            joined,
            min(last.confidence, line.confidence),
            (left, top, right - left, bottom - top),
            max(last.height, line.height),
            (*last.words, *line.words),
        )
    return out


def _continues(first: Line, then: Line) -> bool:
    height = max(first.box[3], 1)
    level = abs(first.box[1] - then.box[1]) <= 0.25 * height
    sized = abs(first.box[3] - then.box[3]) <= 0.25 * height
    start = then.box[0] > first.box[0] and then.box[0] <= first.box[0] + first.box[2] + height / 2
    return level and sized and start


TABLE_WORDS = 8  # a table's row read as text holds this many letters at most (`Heroes`)


def table_rows(lines: list[Line], left: list[str], heads: list[str]) -> list[int]:
    """The lines that are a table's rows read as text: its heads in order (`2 3 4 Heroes`,
    `Heroes 2 3 4`) with a word at most, and the line right under it holding as many
    numbers and as few letters (its values); not rules text, whichever section they
    follow."""
    out = []
    for n, text in enumerate(left):
        if not heads or re.findall(r"\d+", text) != heads or letters(text) > TABLE_WORDS:
            continue
        out.append(n)
        x, y, w, h = lines[n].box
        for m in range(n + 1, len(left)):
            ox, oy, ow, _ = lines[m].box
            if oy - (y + h) > 2 * max(h, 1) or ox > x + w or ox + ow < x:
                continue
            if len(re.findall(r"\d+", left[m])) == len(heads) and letters(left[m]) <= TABLE_WORDS:
                out.append(m)
            break
    return out
