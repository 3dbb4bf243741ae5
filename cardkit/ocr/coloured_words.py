"""Words printed large in a strong colour of their own, found as a row of letter-sized
pieces of that colour (marks.py reads each): a BAM! in magenta letters, stamped at a
tilt, whose frame runs into the card's own border line at 150 dpi, so that no patch holds
it. The pieces are each colour's connected parts (the mask marks.py makes per hue) of a
display letter's height (DISPLAY of the card's height or more: rules text, a label and a
dotted rule are smaller), side by side at one height with less than LETTER_GAP of their
height between them; LETTERS or more of them make a word. Its tilt is the line through
their feet."""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

Box = tuple[int, int, int, int]  # x, y, w, h on the card

DISPLAY = 0.025  # a display letter is at least this share of the card's height tall ...
TALLEST = 0.15  # ... and at most this
LETTER_GAP = 0.6  # letters of a word stand less than this many of their heights apart
LETTERS = 3  # pieces in a row: a word (`B`, `AM` run together, `!`)


def rows(
    contours: Any, links: Any, mask: Any, grey: Any, card_height: int
) -> list[tuple[Box, float, Any, Any]]:
    """Each word's box, its tilt (degrees, for Image.rotate: level when 0) and its letters
    in the card's grey on white: only the pieces' own pixels and their edge (a frame line
    round them is none; the grey keeps what binary ink would run together at 150 dpi);
    and the pieces' own pixels alone, black on white (a dark outline round red letters is
    none of them)."""
    pieces: list[Box] = sorted(
        (
            _box(cv2.boundingRect(contour))
            for contour, link in zip(contours, links, strict=True)
            if link[3] == -1
        ),
        key=lambda b: b[0],
    )
    pieces = [b for b in pieces if DISPLAY * card_height <= b[3] <= TALLEST * card_height]
    out = []
    used: set[int] = set()
    for start in range(len(pieces)):
        if start in used:
            continue
        row = [start]
        for k in range(start + 1, len(pieces)):
            if k not in used and _next_letter(pieces[row[-1]], pieces[k]):
                row.append(k)
        if len(row) < LETTERS:
            continue
        used.update(row)
        boxes = [pieces[k] for k in row]
        left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right = max(b[0] + b[2] for b in boxes)
        bottom = max(b[1] + b[3] for b in boxes)
        ink = np.full((bottom - top, right - left), 255, np.uint8)
        bare = ink.copy()  # the pieces' own pixels alone, black: an outline round them none
        own = mask[top:bottom, left:right] > 0
        edged = cv2.dilate(own.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        for bx, by, bw, bh in boxes:
            at = (slice(by - top, by - top + bh), slice(bx - left, bx - left + bw))
            ink[at] = np.where(edged[at], grey[by : by + bh, bx : bx + bw], 255)
            bare[at] = np.where(own[at], 0, 255)
        out.append(((left, top, right - left, bottom - top), _tilt(boxes), ink, bare))
    return out


def _box(rect: Any) -> Box:
    x, y, w, h = (int(v) for v in rect)
    return x, y, w, h


def _next_letter(a: Box, b: Box) -> bool:
    """`b` is the letter after `a`: to its right, close, of a like height, at its height
    (a tilt of up to half a height a letter)."""
    height = max(a[3], b[3])
    gap = b[0] - (a[0] + a[2])
    like = 0.5 <= b[3] / max(1, a[3]) <= 2.0
    level = abs((a[1] + a[3] / 2) - (b[1] + b[3] / 2)) <= 0.6 * height
    return -0.2 * height <= gap <= LETTER_GAP * height and like and level


def _tilt(boxes: list[Box]) -> float:
    """The line through the letters' middles, as degrees for Image.rotate."""
    if len(boxes) < 2:
        return 0.0
    xs = np.array([b[0] + b[2] / 2 for b in boxes], float)
    ys = np.array([b[1] + b[3] / 2 for b in boxes], float)
    if np.ptp(xs) == 0:
        return 0.0
    slope = float(np.polyfit(xs, ys, 1)[0])
    return math.degrees(math.atan(slope))
