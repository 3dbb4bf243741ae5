"""The row of placement slots on a card: the boxes slot_outlines.py finds, made into the
row (or column) of 2-4 alike boxes side by side; a box a line of words covers is letters,
a box set apart from an evenly spaced row is a badge beside it (slots.py reads the row)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from PIL import Image

from cardkit.ocr import grammar_lines, lines_read, slot_outlines
from cardkit.ocr.slot_icons import DIFFERENT, INSET, Box, Pixels

SAME = 0.3  # boxes of one row differ in width and height by at most this share
WORDS_SURE = 0.8  # a line read this surely is words, wherever it lies
ROOM = 0.75  # a space this share of a slot's length holds a slot not found
APART = 0.2  # an end box this share of a slot's length (and more) beyond the row: no slot


def _alike(a: Box, b: Box) -> bool:
    wa, ha, wb, hb = a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1]
    level = abs((a[1] + a[3]) - (b[1] + b[3])) / 2 <= 0.25 * ha
    return level and abs(wa - wb) <= SAME * wa and abs(ha - hb) <= SAME * ha


# the last card looked at and its slots: the kinds are weighed on a card (a placement
# diagram is evidence) and its placement read from the very same image
_LAST: list[tuple[Image.Image, tuple[Box, ...], list[Box]]] = []


def find_slots(card: Image.Image, words: tuple[Box, ...] = ()) -> list[Box]:
    """The placement slots' boxes, left to right (a column's top to bottom); [] when no
    row of 2-4 is found (by clear edges, else by faint ones: faint ones first would find a
    photo's noise too; else by their fills), each way's boxes also pooled with the ways
    before. A badge beside the row is dropped as the row is found (badge_dropped). A row
    of three or more without a slot's room in it ends the search; a row of two, or one
    with a slot's room in it, stands only while no later way finds a longer or whole one.
    A box that a line of `words` (left, top, right, bottom) covers over half of is a
    word's letters run together, no slot."""
    if _LAST and _LAST[0][0] is card and _LAST[0][1] == words:
        return list(_LAST[0][2])
    rgb = np.asarray(card.convert("RGB"))
    found: list[Box] = []
    pooled: list[Box] = []  # every way's boxes together: a photo's blur closes some
    # slots' frames and not others (touching cells), whose fills still stand out
    for boxes in slot_outlines.candidate_sets(rgb):
        boxes = [b for b in boxes if not any(_covered(b, w) for w in words)]
        pooled += [b for b in boxes if all(slot_outlines.overlap(b, p) < 0.5 for p in pooled)]
        for some in (boxes,) if pooled == boxes else (boxes, pooled):  # (the first way's
            # boxes are the pool: its row is found once)
            here = badge_dropped(rgb, _row(some) or across(_row(across(some))))
            if len(here) > len(found) or (here and gapped(found) and not gapped(here)):
                found = here
        if len(found) >= 3 and not gapped(found):  # (of two, a third may show another way)
            break
    _LAST[:] = [(card, words, found)]
    return list(found)


def words_of(lines: Any) -> tuple[Box, ...]:
    """The boxes of the lines read surely as words (three letters or more), as find_slots
    takes them (a title in a bold face: its letters run together look like a row); not a
    line far taller than the text's type (lines_read.PICTURE times: the slots themselves
    read as letters, `ODE` 281 px tall over text 31 px tall)."""
    worded = [ln for ln in lines if grammar_lines.letters(ln.text) >= 3]
    heights = sorted(ln.height for ln in worded)
    usual = heights[len(heights) // 2] if heights else 0.0
    return tuple(
        (ln.box[0], ln.box[1], ln.box[0] + ln.box[2], ln.box[1] + ln.box[3])
        for ln in worded
        if ln.confidence >= WORDS_SURE and ln.height <= lines_read.PICTURE * usual
    )


def _covered(box: Box, word: Box) -> bool:
    return slot_outlines.shared(box, word) > 0.5 * slot_outlines.area(box)


def across(boxes: list[Box]) -> list[Box]:
    """Boxes mirrored over the card's diagonal: a column becomes a row, and back."""
    return [(top, left, bottom, right) for left, top, right, bottom in boxes]


def column(boxes: list[Box]) -> bool:
    """Whether the slots stand one above another (their centres further apart in height)."""
    xs, ys = [b[0] + b[2] for b in boxes], [b[1] + b[3] for b in boxes]
    return len(boxes) > 1 and max(ys) - min(ys) > max(xs) - min(xs)


def _row(boxes: list[Box]) -> list[Box]:
    """The best row of 2-4 alike boxes side by side: most boxes, most alike, largest."""
    best: list[Box] = []
    rank: tuple[int, float, int] = (0, 0.0, 0)
    for seed in boxes:
        row: list[Box] = []
        alike = [b for b in boxes if _alike(seed, b)]
        for box in sorted(alike, key=lambda b: _unlike(seed, b)):  # nearest the seed's size first
            if not any(min(box[2], r[2]) > max(box[0], r[0]) for r in row):  # side by side
                row.append(box)
        spread = max(_unlike(a, b) for a in row for b in row)
        ranked = (len(row), -spread, sum(map(slot_outlines.area, row)))
        if 2 <= len(row) <= 4 and ranked > rank:
            best, rank = row, ranked
    return sorted(best)


def _unlike(a: Box, b: Box) -> float:
    """How far two boxes' sizes are apart: the larger of their widths' and heights'
    differences, as a share of the smaller."""
    wa, ha, wb, hb = a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1]
    return max(abs(wa - wb) / min(wa, wb), abs(ha - hb) / min(ha, hb))


def set_apart(boxes: list[Box]) -> list[Box]:
    """A box at the row's end standing apart from it, by over three times the widest space
    between the others and a fifth of a slot's length, is no slot: a row's slots are
    evenly spaced (a Move disc the slots' size beside a row of touching cells). A space
    of a slot's room (3/4 of its length) or more stays: a slot between was not found, and
    the row is gapped (unconfirmed), not shortened to a row that looks whole."""
    if len(boxes) < 3:
        return boxes
    along = 1 if column(boxes) else 0
    ordered = sorted(boxes, key=lambda b: b[along])
    spaces = [b[along] - a[along + 2] for a, b in itertools.pairwise(ordered)]
    length = float(np.median([b[along + 2] - b[along] for b in ordered]))
    for end, inner in ((0, spaces[1:]), (len(spaces) - 1, spaces[:-1])):
        if max(3 * max(inner), APART * length) < spaces[end] < ROOM * length:
            return [b for b in ordered if b is not ordered[0 if end == 0 else -1]]
    return boxes


def gapped(boxes: list[Box]) -> bool:
    """Slots a slot's room apart (over 3/4 of one's length along the line): the one between
    them was not found (its frame broken in a photo), so the names would be wrong."""
    if len(boxes) < 2:
        return False
    along = 1 if column(boxes) else 0
    ordered = sorted(boxes, key=lambda b: b[along])
    sizes = sorted(b[along + 2] - b[along] for b in ordered)
    room = ROOM * sizes[len(sizes) // 2]
    return any(b[along] - a[along + 2] > room for a, b in itertools.pairwise(ordered))


def odd_one(values: list[float], least: float) -> int | None:
    """The index of the one value far above all the others, if there is one."""
    best = int(np.argmax(values))
    others = [v for i, v in enumerate(values) if i != best]
    if values[best] > least and values[best] > 3 * max(others, default=0.0):
        return best
    return None


def odd_colour(colours: list[Pixels]) -> int | None:
    """The one colour far from the others, which are alike (of two, neither is odd)."""
    if len(colours) < 3:
        return None
    far = []
    for i, colour in enumerate(colours):
        rest = [c for j, c in enumerate(colours) if j != i]
        far.append(min(float(np.abs(colour - c).max()) for c in rest))
    return odd_one(far, DIFFERENT)


def colours(rgb: Pixels, boxes: list[Box]) -> tuple[list[Pixels], list[Pixels]]:
    """Each box's fill (the median of a band just inside its frame) and frame colour."""
    frames, fills = [], []
    for left, top, right, bottom in boxes:
        h, w = bottom - top, right - left
        rim = max(2, round(0.03 * min(h, w)))
        frames.append(np.median(rgb[top : top + rim, left:right].reshape(-1, 3), axis=0))
        inset = round(INSET * min(h, w))
        inner = rgb[top + inset : top + 2 * inset, left + inset : right - inset]
        fills.append(np.median(inner.reshape(-1, 3), axis=0))
    return fills, frames


def badge_dropped(rgb: Pixels, boxes: list[Box]) -> list[Box]:
    """A box at the row's end filled unlike all the others and reaching above or below
    them is no slot (a Move badge of the slots' size beside them: a Villain's slot
    differs in one way at most, its fill or its height); nor is one set apart."""
    boxes = set_apart(boxes)
    if len(boxes) < 3:
        return boxes
    fills, _ = colours(rgb.astype(np.int16), boxes)
    odd = odd_colour(fills)
    if odd is None or odd not in (0, len(boxes) - 1):
        return boxes
    rest = [b for n, b in enumerate(boxes) if n != odd]
    # measured across the line of slots: a column's is its left and right
    line = across(boxes) if column(boxes) else boxes
    others = [b for n, b in enumerate(line) if n != odd]
    top, bottom = np.median([b[1] for b in others]), np.median([b[3] for b in others])
    slack = 0.05 * (bottom - top)
    if line[odd][1] < top - slack or line[odd][3] > bottom + slack:
        return rest
    return boxes
