"""Lines found by their shape and read one by one: for a card whose whole-card read (the
engine's own layout analysis) finds next to nothing. Tesseract's layout analysis now and
then takes a sparse card (a title, a disc, a diagram, a label) for one picture and reads
none of it, though each line read alone reads well.

Ink is what differs from the card's local ground (a heavily smoothed copy of the card),
either way: light letters on a dark band are ink as much as dark ones on paper. Frames and
bands reaching across half the card are dropped; glyph-sized parts joined along their
line make line boxes, each read alone as one line (black on white).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import numpy as np
from PIL import Image

from cardkit.ocr.boxes import shared_area
from cardkit.ocr.engine import OcrEngine
from cardkit.ocr.page import LEAST_CONFIDENCE, Line, lines_of, reading_order

CONTRAST = 50  # a pixel this far (grey levels) from its local ground is ink
LOWEST, HIGHEST = 0.012, 0.12  # a glyph's height as a share of the card's height
MOST_LINES = 24  # read at most this many boxes (a card of rules text reads well whole)
HOLLOW = 0.18  # ... and one filling less than this is an outline
SOLID = 0.8  # a part filling this much of its box is a tag or a badge
TARGET = 40  # a line's box is read at this height in pixels (capitals ~30)


def ink(grey: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Pixels far from the card's local ground, frames and bands across the card dropped."""
    import cv2

    h, w = grey.shape
    small = cv2.resize(grey, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    ground = cv2.medianBlur(small, (max(3, max(h, w) // 48)) | 1)
    ground = cv2.resize(ground, (w, h), interpolation=cv2.INTER_LINEAR)
    mask = np.abs(grey.astype(np.int16) - ground.astype(np.int16)) > CONTRAST
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    wide = (stats[:, 2] > 0.5 * w) | (stats[:, 3] > 0.5 * h)  # every piece at once
    wide[0] = False  # the ground
    if wide.any():
        mask[wide[labels]] = False  # one look-up by label
    return mask


def boxes(mask: np.ndarray[Any, Any]) -> list[tuple[int, int, int, int]]:
    """Line boxes (x, y, w, h): glyph-sized parts joined along their line."""
    import cv2

    h = mask.shape[0]
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        mask.astype(np.uint8), connectivity=8
    )
    # every part at once (stats' columns): what each test below keeps, by label
    gw, gh, area = (stats[:, k].astype(np.float64) for k in (2, 3, 4))
    badge = (area > SOLID * gw * gh) & (gw > gh / 2)  # a filled tag or badge, not a glyph
    # (a bar of an `l` is narrow); an outline round something (a frame, a halo) is none
    hollow = area < HOLLOW * gw * gh
    sized = (LOWEST * h <= gh) & (gh <= HIGHEST * h) & (gw <= 3 * gh + 4)
    kept = ~badge & ~hollow & sized
    kept[0] = False  # the ground
    if not kept.any():
        return []
    heights = stats[kept, 3]
    glyphs = np.where(kept[labels], 255, 0).astype(np.uint8)  # one look-up, not a pass per glyph
    size = int(np.median(heights))
    joined = cv2.dilate(glyphs, np.ones((max(1, size // 4), max(3, size)), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    out = []
    for i in range(1, count):
        x, y, bw, bh, _area = (int(v) for v in stats[i])
        if bh >= LOWEST * h:
            out.append((x, y, bw, bh))
    return sorted(out, key=lambda b: (b[1], b[0]))[:MOST_LINES]


def read_lines(
    card: Image.Image, engine: OcrEngine, key: str, known: list[Line] | None = None
) -> list[Line]:
    """The card's lines found by shape, each read alone; boxes on the card. A box mostly
    covered by a line `known` (read already) is not read again."""
    grey = np.asarray(card.convert("L"))
    mask = ink(grey)
    out = []
    for number, (x, y, w, h) in enumerate(boxes(mask)):
        if any(_covered((x, y, w, h), line.box) > 0.5 for line in known or []):
            continue
        pad = max(2, h // 4)
        crop = mask[max(0, y - pad) : y + h + pad, max(0, x - pad) : x + w + pad]
        image = Image.fromarray(np.where(crop, 0, 255).astype(np.uint8))
        scale = TARGET / max(1, h)
        if abs(scale - 1) > 0.1:
            size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
            image = image.resize(size, Image.Resampling.LANCZOS)
        border = Image.new("L", (image.width + 20, image.height + 20), 255)
        border.paste(image, (10, 10))
        for line in lines_of(engine.read(border, "line", key=f"{key}/line{number}")):
            if line.confidence < LEAST_CONFIDENCE:
                continue
            lx, ly, lw, lh = line.box
            box = (
                max(0, round((lx - 10) / scale) + x - pad),
                max(0, round((ly - 10) / scale) + y - pad),
                round(lw / scale),
                round(lh / scale),
            )
            words = tuple(
                replace(
                    w,
                    box=(
                        round((w.box[0] - 10) / scale) + x - pad,
                        round((w.box[1] - 10) / scale) + y - pad,
                        round(w.box[2] / scale),
                        round(w.box[3] / scale),
                    ),
                )
                for w in line.words
            )
            out.append(Line(line.text, line.confidence, box, line.height / scale, words))
    return out


def _covered(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    """The share of box a that box b covers."""
    return shared_area(a, b) / max(1, a[2] * a[3])


def merged(lines: list[Line], found: list[Line]) -> list[Line]:
    """`lines` with the lines found by shape that no line of theirs covers, nor reads the
    same words close by (a line cut loosely on a photo stands a little off), in reading
    order."""
    out = list(lines)
    for line in found:
        if any(_covered(line.box, old.box) > 0.5 for old in lines):
            continue
        if any(_same_words(line, old) for old in lines):
            continue
        out.append(line)
    return reading_order(out)


def _same_words(a: Line, b: Line) -> bool:
    """The two lines read the same words, within two line heights of each other."""
    near = abs(a.centre[1] - b.centre[1]) <= 2 * max(a.height, b.height, 1.0)
    words = [re.findall(r"[a-z0-9]+", ln.text.casefold()) for ln in (a, b)]
    return near and bool(words[0]) and words[0] == words[1]
