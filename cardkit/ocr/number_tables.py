"""A printed table of numbers read from the numbers found on a card (numbers.py): the
heads every table prints (a Dashboard's Hero counts 2, 3, 4) in a row with each value
below, or in a column with each value beside; and the same table as the page read it as
text (`Heroes 2 3 4` over `Health 10 12 13`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardkit.ocr.page import Line


@dataclass(frozen=True)
class Number:
    box: tuple[int, int, int, int]  # left, top, width, height on the card
    text: str  # digits as read ("" when not read as digits)
    confidence: float

    @property
    def centre(self) -> tuple[float, float]:
        return self.box[0] + self.box[2] / 2, self.box[1] + self.box[3] / 2


def table(numbers: list[Number], heads: list[int]) -> tuple[dict[str, int | None], float] | None:
    """The heads in a row (values below) or a column (values beside), and their values."""
    wanted = [str(h) for h in heads]
    best: tuple[dict[str, int | None], float] | None = None
    for first in (n for n in numbers if n.text == wanted[0]):
        for across in (True, False):
            row = [first]
            for head in wanted[1:]:
                after = [n for n in numbers if n.text == head and _follows(row[-1], n, across)]
                if not after:
                    break
                row.append(min(after, key=lambda n: _distance(row[-1], n)))
            if len(row) != len(wanted):
                continue
            values: dict[str, int | None] = {}
            sure = min(n.confidence for n in row)
            for head, cell in zip(wanted, row, strict=True):
                value = _value_of(cell, numbers, row, across)
                values[head] = int(value.text) if value else None
                if value:
                    sure = min(sure, value.confidence)
            if best is None or _filled(values) > _filled(best[0]):
                best = (values, sure)
    return best


def read_numbers(lines: list[Line]) -> list[Number]:
    """The numbers the page read as words of its lines (a table's row read as text), each
    at its word's box: the glyph finder leaves what stands inside a line to the line."""
    return [
        Number(word.box, word.text, min(word.confidence, line.confidence))
        for line in lines
        for word in line.words
        if word.text.isdigit() and len(word.text) <= 2
    ]


def table_in_lines(
    lines: list[Line], heads: list[int]
) -> tuple[dict[str, int | None], float] | None:
    """The table as the page read it, row by row: a line ending in the heads (`Heroes 2 3
    4`) and the nearest line under it, within two of its heights and overlapping it across,
    holding as many numbers (`Health 10 12 13`): a table whose digits the page read stand
    clear of no line, so the glyph finder leaves them to this."""
    wanted = [str(h) for h in heads]
    for n, line in enumerate(lines):
        if re.findall(r"\d+", line.text)[-len(wanted) :] != wanted:
            continue
        x, y, w, h = line.box
        for other in lines[n + 1 :]:
            ox, oy, ow, _ = other.box
            if oy - (y + h) > 2 * max(h, 1) or oy <= y:
                continue
            if ox > x + w or ox + ow < x:
                continue
            values = re.findall(r"\d+", other.text)[-len(wanted) :]
            if len(values) == len(wanted):
                sure = min(line.confidence, other.confidence)
                return {k: int(v) for k, v in zip(wanted, values, strict=True)}, sure
    return None


def better(
    a: tuple[dict[str, int | None], float] | None, b: tuple[dict[str, int | None], float] | None
) -> tuple[dict[str, int | None], float] | None:
    """The reading of a table with more values, the first on a tie."""
    if a is None or b is None:
        return a or b
    return b if _filled(b[0]) > _filled(a[0]) else a


def _filled(values: dict[str, int | None]) -> int:
    """How many of a table's heads have a value."""
    return sum(v is not None for v in values.values())


def _follows(a: Number, b: Number, across: bool) -> bool:
    (ax, ay), (bx, by) = a.centre, b.centre
    if across:
        return bx > ax and abs(by - ay) < 0.5 * a.box[3] and bx - ax < 6 * a.box[3]
    return by > ay and abs(bx - ax) < 0.5 * max(a.box[2], a.box[3]) and by - ay < 6 * a.box[3]


def _distance(a: Number, b: Number) -> float:
    (ax, ay), (bx, by) = a.centre, b.centre
    return abs(ax - bx) + abs(ay - by)


def _value_of(
    head: Number, numbers: list[Number], row: list[Number], across: bool
) -> Number | None:
    """The number under a head of a row (beside one of a column), within a cell's reach."""
    hx, hy = head.centre
    reach = 5 * head.box[3]
    near = []
    for n in numbers:
        if n in row:
            continue
        x, y = n.centre
        below = y > hy and abs(x - hx) < 0.6 * max(head.box[3], n.box[2]) and y - hy < reach
        beside = x > hx and abs(y - hy) < 0.5 * head.box[3] and x - hx < reach
        if below if across else beside:
            near.append(n)
    return min(near, key=lambda n: _distance(head, n)) if near else None
