"""Small capitals raised to the capitals' height, for titles set in small caps.

A small-caps title (`Klaw` printed K + LAW in capitals a size smaller) reads to tesseract
as a capital and lower-case letters, and at a scan's size some of those small capitals
look like other lower-case letters (D as `o`, L as `t`, B as `e`). Raised to the height
of the full capitals, the line is plain capitals, which it reads well.

On black-on-white ink: the glyphs standing on the line's baseline are measured, the
capital height is the tallest of them, and those between LOW and HIGH of it (the small
capitals) are scaled up about their foot; everything after each is moved right by the
width it gained. Punctuation, marks above the line and glyphs below it are moved only.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

LOW, HIGH = 0.55, 0.9  # a small capital's height, as a share of a full capital's
SPECK = 4  # components of fewer pixels are noise, left where they are
LEAST_RATIO = 1.08  # smaller differences are a line in one size


def even_caps(image: Image.Image) -> Image.Image:
    """The line with its small capitals as tall as its capitals (black ink on white)."""
    import cv2

    ink = (np.asarray(image.convert("L")) < 128).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    glyphs = [i for i in range(1, count) if stats[i, 4] >= SPECK]
    if len(glyphs) < 3:
        return image
    heights = stats[glyphs, 3]
    bottoms = stats[glyphs, 1] + heights
    baseline = float(np.median(bottoms[heights >= 0.5 * heights.max()]))
    slack = max(2.0, 0.08 * float(heights.max()))
    standing = [i for i, b in zip(glyphs, bottoms, strict=True) if abs(b - baseline) <= slack]
    cap = float(np.percentile(stats[standing, 3], 95))
    small = {i for i in standing if LOW * cap <= stats[i, 3] <= HIGH * cap}
    if not small:
        return image
    ratio = cap / float(np.median(stats[sorted(small), 3]))
    if ratio < LEAST_RATIO:
        return image
    room = round(cap * (ratio - 1)) + 1  # a raised glyph may stand above the old top
    gained = sum(round(stats[i, 2] * ratio) - stats[i, 2] for i in small)
    out = np.zeros((ink.shape[0] + room, ink.shape[1] + gained), np.uint8)
    shift = 0
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
        shift += glyph.shape[1] - w
    return Image.fromarray(255 - out)
