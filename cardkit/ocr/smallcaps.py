"""Small capitals raised to the capitals' height, for titles set in small caps.

A small-caps title (`Klaw` printed K + LAW in capitals a size smaller) reads to tesseract
as a capital and lower-case letters, and at a scan's size some of those small capitals
look like other lower-case letters (D as `o`, L as `t`, B as `e`). Raised to the height
of the full capitals, the line is plain capitals, which it reads well.

On black-on-white ink: the glyphs standing on the line's baseline (fitted as a line: a
scan's title may slope) are measured, the capital height is the tallest of them, and
those between LOW and HIGH of it (the small capitals) are scaled up about their foot;
everything after each is moved right by the width it gained. Punctuation, marks above the
line and glyphs below it are moved only.

The raised line keeps where each glyph went and whether it was a small capital, so the
words read from it can be given back their printed case (`recase`): a full capital is an
upper-case letter, a small capital a lower-case one (`THE BREAK-IN!` printed T+HE B+REAK-I+N!
is `The Break-In!`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np
from PIL import Image

from cardkit.ocr.engine import Reading

LOW, HIGH = 0.55, 0.9  # a small capital's height, as a share of a full capital's
SPECK = 4  # components of fewer pixels are noise, left where they are
LEAST_RATIO = 1.08  # smaller differences are a line in one size
WIDEST = 1.5  # a character is at most this many capital heights wide (M and W are ~1.1)


@dataclass(frozen=True)
class Glyph:
    """Where a glyph stands on the raised line (its columns), and whether it was small."""

    left: int
    right: int
    small: bool


def even_caps(image: Image.Image) -> Image.Image:
    """The line with its small capitals as tall as its capitals (black ink on white)."""
    return raise_small_caps(image)[0]


def raise_small_caps(image: Image.Image) -> tuple[Image.Image, tuple[Glyph, ...]]:
    """The line with its small capitals raised, and its glyphs (none when it has no small
    capitals: the line is returned as it is)."""
    import cv2

    ink = (np.asarray(image.convert("L")) < 128).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    glyphs = [i for i in range(1, count) if stats[i, 4] >= SPECK]
    if len(glyphs) < 3:
        return image, ()
    heights = stats[glyphs, 3]
    bottoms = stats[glyphs, 1] + heights
    centres = stats[glyphs, 0] + stats[glyphs, 2] / 2
    slack = max(2.0, 0.08 * float(heights.max()))
    line_at = _baseline(centres, bottoms, heights >= 0.5 * heights.max(), slack)
    off = np.abs(bottoms - line_at(centres))
    standing = [i for i, gap in zip(glyphs, off, strict=True) if gap <= slack]
    cap = float(np.percentile(stats[standing, 3], 95))
    small = {i for i in standing if LOW * cap <= stats[i, 3] <= HIGH * cap}
    if not small:
        return image, ()
    ratio = cap / float(np.median(stats[sorted(small), 3]))
    if ratio < LEAST_RATIO:
        return image, ()
    room = round(cap * (ratio - 1)) + 1  # a raised glyph may stand above the old top
    gained = sum(round(stats[i, 2] * ratio) - stats[i, 2] for i in small)
    out = np.zeros((ink.shape[0] + room, ink.shape[1] + gained), np.uint8)
    shift = 0
    placed = []
    for i in sorted(glyphs, key=lambda g: stats[g, 0]):
        x, y, w, h = (int(v) for v in stats[i, :4])
        glyph = (labels[y : y + h, x : x + w] == i).astype(np.uint8) * 255
        if i in small:
            size = (max(1, round(w * ratio)), max(1, round(h * ratio)))
            glyph = cv2.resize(glyph, size, interpolation=cv2.INTER_LINEAR)
            glyph = np.where(glyph >= 128, 255, 0).astype(np.uint8)
        foot = y + h + room
        target = out[foot - glyph.shape[0] : foot, x + shift : x + shift + glyph.shape[1]]
        np.maximum(target, glyph[: target.shape[0], : target.shape[1]], out=target)
        if w <= WIDEST * cap:  # a rule or a run of joined ink is no character
            placed.append(Glyph(x + shift, x + shift + glyph.shape[1], i in small))
        shift += glyph.shape[1] - w
    return Image.fromarray(255 - out), tuple(placed)


def _baseline(x: np.ndarray, bottom: np.ndarray, letters: np.ndarray, slack: float) -> np.poly1d:
    """The line the letters stand on, as a function of x: a scan's line may slope a little
    (a degree over a title is several pixels). Fitted to the letters' feet, then again
    without those far off it (a glyph reaching below the line)."""
    xs, ys = x[letters], bottom[letters]
    if len(xs) < 2 or np.ptp(xs) == 0:
        return np.poly1d([float(np.median(ys))])
    line = np.poly1d(np.polyfit(xs, ys, 1))
    near = np.abs(ys - line(xs)) <= slack
    if near.sum() >= 2 and np.ptp(xs[near]) > 0:
        line = np.poly1d(np.polyfit(xs[near], ys[near], 1))
    return line


def recase(reading: Reading, glyphs: tuple[Glyph, ...], offset: int = 0) -> Reading:
    """Each word's letters in the case they were printed in. Where the word's glyphs (those
    centred in its box, the narrowest box when boxes overlap; `offset` is the margin added
    round the line) are one per character
    and give each run of letters a plausible case (`Word`, `WORD`, `word`), letter by
    letter; otherwise the word as a whole: its first letter as its first glyph, the rest as
    most of its other glyphs."""
    if not glyphs:
        return reading
    owner: dict[int, list[Glyph]] = {}
    for glyph in glyphs:  # each glyph to the narrowest word box round its centre
        centre = (glyph.left + glyph.right) / 2 + offset
        holding = [
            (w.box[2], n) for n, w in enumerate(reading.words) if 0 <= centre - w.box[0] <= w.box[2]
        ]
        if holding:
            owner.setdefault(min(holding)[1], []).append(glyph)
    words = []
    for n, word in enumerate(reading.words):
        small = _characters(owner.get(n, []))
        text = word.text
        if small and any(c.isalpha() for c in text):
            text = _by_letter(text, small) or _by_word(text, small)
        words.append(replace(word, text=text))
    return Reading(tuple(words))


def _by_letter(text: str, small: list[bool]) -> str | None:
    if len(small) != len(text):
        return None
    cased = "".join(c.lower() if s else c.upper() for c, s in zip(text, small, strict=True))
    runs = re.findall(r"[^\W\d_]+", cased)
    if all(r.isupper() or r.islower() or (r[0].isupper() and r[1:].islower()) for r in runs):
        return cased
    return None


def _by_word(text: str, small: list[bool]) -> str:
    first = text[0].lower() if small[0] else text[0].upper()
    rest = small[1:]
    lower = sum(rest) * 2 > len(rest) if rest else small[0]
    return first + (text[1:].lower() if lower else text[1:].upper())


def _characters(glyphs: list[Glyph]) -> list[bool]:
    """Glyphs standing over each other (the dot over `!`) joined into one character; for
    each character, whether it was a small capital."""
    joined: list[list[Glyph]] = []
    for glyph in sorted(glyphs, key=lambda g: g.left):
        if joined:
            last = joined[-1]
            start, end = min(g.left for g in last), max(g.right for g in last)
            overlap = min(end, glyph.right) - max(start, glyph.left)
            if overlap > 0.5 * min(end - start, glyph.right - glyph.left):
                last.append(glyph)
                continue
        joined.append([glyph])
    return [all(g.small for g in group) for group in joined]
