"""A title printed in a banner: found as a row of glyphs, read as one line.

Display type in a name banner (a squarish font on a flat colour, the card's art around it)
is read badly by a whole-card read: tesseract's layout analysis takes the banner for a
picture, or joins the art to the letters. Cut out alone, the same letters read well. The
letters are found without knowing the design: in the card's top band, the dark marks of a
capital's height (2-8% of the card's height) standing on one baseline, one beside the next,
the longest such row. The band is cut at a few levels of darkness (the banner's colour may
be light blue or a gold nearly as dark as the art), and the row with the most glyphs wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image

from cardkit.ocr.engine import OcrEngine

GLYPH = (0.02, 0.08)  # a banner capital's height, as a share of the card's height
BASELINE = 0.15  # glyphs of one row stand on one baseline, within this share of their height
SAME_SIZE = 0.25  # ... and are of one height within this share
SPACING = 1.6  # the gap between two glyphs of a row (a word space too) is at most this many heights
LEAST_GLYPHS = 3  # fewer marks are an icon or a speck, not a name
LEVELS = (1.0, 0.72, 0.5)  # darkness cuts tried: Otsu's level, then darker ones
READ_HEIGHT = 32  # the crop is scaled so that its capitals are this many pixels tall
MARGIN = 0.3  # the crop's margin round the row, in glyph heights


@dataclass(frozen=True)
class Title:
    text: str
    confidence: float
    box: tuple[int, int, int, int]  # left, top, width, height on the card


def glyph_row(grey: np.ndarray[Any, Any], card_height: int) -> tuple[int, int, int, int] | None:
    """The box (left, top, right, bottom) of the longest row of capital-sized dark marks in
    `grey` (the band, luminance), or None when no row of LEAST_GLYPHS is found."""
    import cv2

    otsu, _ = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    best: list[tuple[int, int, int, int]] = []
    for level in LEVELS:
        _, ink = cv2.threshold(grey, otsu * level, 255, cv2.THRESH_BINARY_INV)
        _, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
        x, y, w, h, area = (stats[1:, k].astype(np.int64) for k in range(5))  # every piece
        glyph = (GLYPH[0] * card_height <= h) & (h <= GLYPH[1] * card_height)  # at once
        glyph &= (w <= 2 * h) & (area >= 0.15 * w * h)
        marks = [(int(x[n]), int(y[n]), int(w[n]), int(h[n])) for n in np.flatnonzero(glyph)]
        for row in _rows(marks):
            if len(row) > len(best):
                best = row
    if len(best) < LEAST_GLYPHS:
        return None
    return (
        min(m[0] for m in best),
        min(m[1] for m in best),
        max(m[0] + m[2] for m in best),
        max(m[1] + m[3] for m in best),
    )


def _rows(marks: list[tuple[int, int, int, int]]) -> list[list[tuple[int, int, int, int]]]:
    """Runs of marks of one size on one baseline, each next to the one before."""
    out = []
    for x, y, w, h in marks:
        same = sorted(
            m
            for m in marks
            if abs((m[1] + m[3]) - (y + h)) <= BASELINE * h and abs(m[3] - h) <= SAME_SIZE * h
        )
        run = [same[0]]
        for mark in same[1:]:
            if mark[0] - (run[-1][0] + run[-1][2]) <= SPACING * h:
                run.append(mark)
            elif (x, y, w, h) in run:
                break
            else:
                run = [mark]
        out.append(run)
    return out


def read_title(card: Image.Image, share: float, engine: OcrEngine, key: str) -> Title | None:
    """The title in the card's top `share`, read from its row of glyphs alone (one line;
    one word when a line reads nothing: tesseract's line mode drops a short lone word)."""
    import cv2

    rgb = np.asarray(card.convert("RGB"))
    band = np.ascontiguousarray(rgb[: max(1, round(card.height * share))])
    grey = cv2.cvtColor(band, cv2.COLOR_RGB2GRAY)
    row = glyph_row(grey, card.height)
    if row is None:
        return None
    left, top, right, bottom = row
    margin = round(MARGIN * (bottom - top))
    crop = grey[max(0, top - margin) : bottom + margin, max(0, left - margin) : right + margin]
    scale = READ_HEIGHT / max(1, bottom - top)
    method = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=method)
    _, ink = cv2.threshold(crop, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    image = Image.fromarray(ink)
    for mode in ("line", "word"):
        reading = engine.read(image, mode, key=f"{key}/banner-{mode}")
        text = " ".join(w.text for w in reading.words).strip()
        if sum(c.isalpha() for c in text) >= LEAST_GLYPHS:
            return Title(text, reading.confidence, (left, top, right - left, bottom - top))
    return None
