"""Small capitals raised to the capitals' height, for titles set in small caps.

A small-caps title (`Klaw` printed K + LAW in capitals a size smaller) reads to tesseract
as a capital and lower-case letters, and at a scan's size some of those small capitals
look like other lower-case letters (D as `o`, L as `t`, B as `e`). Raised to the height
of the full capitals, the line is plain capitals, which it reads well.

On black-on-white ink, line by line (a long title may wrap): the glyphs standing on the
line's baseline (fitted as a line: a scan's title may slope) are measured, the capital
height is the tallest of them, and those between LOW and HIGH of it (the small capitals)
are scaled up about their foot; everything after each is moved right by the width it
gained. Punctuation, marks above the line and glyphs below it are moved only. Ink that is
no line of glyphs (a stray mark, a rule) leaves the image as it is: this step only ever
helps a reading, it never stops one.

The raised line keeps where each glyph went and whether it was a small capital, so the
words read from it can be given back their printed case (cardkit/ocr/casing.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from PIL import Image

LOW, HIGH = 0.55, 0.9  # a small capital's height, as a share of a full capital's
SPECK = 4  # components of fewer pixels are noise, left where they are
LEAST_RATIO = 1.08  # smaller differences are a line in one size
WIDEST = 1.5  # a character is at most this many capital heights wide (M and W are ~1.1)


@dataclass(frozen=True)
class Glyph:
    """Where a glyph stands in the raised image (its columns and rows), and whether it was
    a small capital."""

    left: int
    right: int
    top: int
    bottom: int
    small: bool


def even_caps(image: Image.Image) -> Image.Image:
    """The lines with their small capitals as tall as their capitals (black ink on white)."""
    return raise_small_caps(image)[0]


def raise_small_caps(image: Image.Image) -> tuple[Image.Image, tuple[Glyph, ...]]:
    """The lines with their small capitals raised, and their glyphs (none, and the image as
    it was, when no line has small capitals)."""
    ink = (np.asarray(image.convert("L")) < 128).astype(np.uint8)
    parts: list[tuple[int, np.ndarray]] = []  # (blank rows above, the line)
    glyphs: list[Glyph] = []
    row = previous = 0
    for top, bottom in _bands(ink):
        raised, placed = _raise_line(ink[top:bottom])
        row += top - previous
        glyphs += [replace(g, top=g.top + row, bottom=g.bottom + row) for g in placed]
        parts.append((top - previous, raised))
        row += raised.shape[0]
        previous = bottom
    if not glyphs:
        return image, ()
    out = np.zeros((row + ink.shape[0] - previous, max(p.shape[1] for _, p in parts)), np.uint8)
    row = 0
    for gap, part in parts:
        row += gap
        out[row : row + part.shape[0], : part.shape[1]] = part
        row += part.shape[0]
    return Image.fromarray((1 - out) * 255), tuple(glyphs)


def _bands(ink: np.ndarray) -> list[tuple[int, int]]:
    """The rows of each line of ink: runs of inked rows, a thin run (a speck, quote marks
    standing clear of the letters) joined to the line before it (the first, to the next)."""
    inked = [bool(v) for v in np.asarray(ink.any(axis=1)).ravel()]
    runs: list[list[int]] = []
    start: int | None = None
    for row, has in enumerate([*inked, False]):
        if has and start is None:
            start = row
        elif not has and start is not None:
            runs.append([start, row])
            start = None
    tallest = max((b - t for t, b in runs), default=0)
    merged: list[list[int]] = []
    for run in runs:
        thin = run[1] - run[0] < 0.3 * tallest
        if merged and (thin or merged[-1][1] - merged[-1][0] < 0.3 * tallest):
            merged[-1][1] = run[1]
        else:
            merged.append(run)
    return [(t, b) for t, b in merged]


def _raise_line(ink: np.ndarray) -> tuple[np.ndarray, tuple[Glyph, ...]]:
    """One line (ink 1, paper 0) with its small capitals raised, and its glyphs; the line
    unchanged and no glyphs when it has no small capitals."""
    import cv2

    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    glyphs = [i for i in range(1, count) if stats[i, 4] >= SPECK]
    if len(glyphs) < 3:
        return ink, ()
    heights = stats[glyphs, 3]
    bottoms = stats[glyphs, 1] + heights
    centres = stats[glyphs, 0] + stats[glyphs, 2] / 2
    slack = max(2.0, 0.08 * float(heights.max()))
    line_at = _baseline(centres, bottoms, heights >= 0.5 * heights.max(), slack)
    off = np.abs(bottoms - line_at(centres))
    standing = [i for i, gap in zip(glyphs, off, strict=True) if gap <= slack]
    if len(standing) < 2:
        return ink, ()
    cap = float(np.percentile(stats[standing, 3], 95))
    small = {i for i in standing if LOW * cap <= stats[i, 3] <= HIGH * cap}
    if not small or cap / float(np.median(stats[sorted(small), 3])) < LEAST_RATIO:
        return ink, ()
    ratio = cap / float(np.median(stats[sorted(small), 3]))
    room = round(cap * (ratio - 1)) + 1  # a raised glyph may stand above the old top
    gained = sum(round(stats[i, 2] * ratio) - stats[i, 2] for i in small)
    out = np.zeros((ink.shape[0] + room, ink.shape[1] + gained), np.uint8)
    shift, placed = 0, []
    for i in sorted(glyphs, key=lambda g: stats[g, 0]):
        x, y, w, h = (int(v) for v in stats[i, :4])
        glyph = (labels[y : y + h, x : x + w] == i).astype(np.uint8)
        if i in small:
            size = (max(1, round(w * ratio)), max(1, round(h * ratio)))
            glyph = cv2.resize(glyph * 255, size, interpolation=cv2.INTER_LINEAR) >= 128
            glyph = glyph.astype(np.uint8)
        foot = y + h + room
        target = out[foot - glyph.shape[0] : foot, x + shift : x + shift + glyph.shape[1]]
        np.maximum(target, glyph[: target.shape[0], : target.shape[1]], out=target)
        if w <= WIDEST * cap:  # a rule or a run of joined ink is no character
            left, top = x + shift, foot - glyph.shape[0]
            placed.append(Glyph(left, left + glyph.shape[1], top, foot, i in small))
        shift += glyph.shape[1] - w
    return out, tuple(placed)


def _baseline(x: np.ndarray, bottom: np.ndarray, letters: np.ndarray, slack: float) -> np.poly1d:
    """The line the letters stand on, as a function of x (a degree of slope over a title is
    several pixels): the foot most letters share, then a line fitted to the feet near it."""
    xs, ys = x[letters], bottom[letters]
    support = [int((np.abs(ys - y) <= slack).sum()) for y in ys]
    near = np.abs(ys - ys[int(np.argmax(support))]) <= slack
    if near.sum() < 2 or np.ptp(xs[near]) == 0:
        return np.poly1d([float(np.median(ys[near]))])
    return np.poly1d(np.polyfit(xs[near], ys[near], 1))
