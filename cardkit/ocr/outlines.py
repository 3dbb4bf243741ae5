"""Thin outlines taken out of a crop before it is read: a pill or box drawn round a title,
a frame's rule. Tesseract's layout analysis takes a word closed in by an outline for a
picture and reads nothing (a title in a pill outline reads only with the pill cut away),
so the outline's ink is painted over with the paper.

An outline is a connected piece of ink much larger than a letter (its longer side at
least OUTLINE_SIZE times the letters' median height) that covers little of its own box
(under OUTLINE_FILL): a ring or a rule, not a glyph. Letters, a filled panel and the
card's own frame (a box over OUTLINE_SHARE of the image) stay.
"""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image

OUTLINE_SIZE = 2.0  # an outline's longer side, in letter heights, at least
OUTLINE_FILL = 0.2  # ... and the share of its box its ink covers, at most
OUTLINE_SHARE = 0.25  # ... and its box at most this share of the image: the card's own frame
# stays (tesseract reads inside it, and without it reads some lines differently)
SPECK = 4  # pieces this few pixels high are specks, not letters (they set no height)


def erase(image: Image.Image) -> Image.Image:
    """The image (greyscale) with its thin outlines painted the paper's tone; the image
    itself when it has none."""
    grey = np.asarray(image.convert("L"))
    if grey.size == 0:
        return image.convert("L")
    paper = int(np.median(grey))
    dark_paper = paper < 128
    _, ink = cv2.threshold(
        grey, 0, 255, (cv2.THRESH_BINARY if dark_paper else cv2.THRESH_BINARY_INV) | cv2.THRESH_OTSU
    )
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    # every piece at once (label 0 is the paper): its width, height and ink
    w, h, area = (stats[:, k].astype(np.int64) for k in (2, 3, 4))
    heights = h[1:][h[1:] >= SPECK]
    if not heights.size:
        return Image.fromarray(grey)
    letter = float(np.median(heights))
    outline = (
        (np.maximum(w, h) >= OUTLINE_SIZE * letter)
        & (area <= OUTLINE_FILL * w * h)
        & (w * h <= OUTLINE_SHARE * grey.size)
    )
    outline[0] = False
    if not outline.any():
        return Image.fromarray(grey)
    out = grey.copy()
    out[outline[labels]] = paper  # one look-up by label, not a pass per outline
    return Image.fromarray(out)
