"""Heading bars: one line of light words on a wide dark bar (a Dashboard's `BAM!`,
`Overflow`). The whole-card read skips such a bar when it holds one short word (tesseract's
layout analysis takes a wide dark band with little in it for a rule or a picture), and a
large card's turned-over read of its whole dark box is mostly paper; so each bar is cut
out inside its edges, turned over (light words become dark ink on white) and read as a
single line.

A bar is a connected piece of dark ink (darker than page.DARK_BACKGROUND) at least
BAR_WIDTH of the card wide, at least BAR_RATIO times as wide as it is tall, no taller than
BAR_HEIGHT of the card, that fills most of its own box (at least BAR_FILL: the words cut
holes in it, a frame or an outline fills little).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from PIL import Image

from cardkit.ocr import channels
from cardkit.ocr.boxes import runs

BAR_WIDTH = 0.2  # of the card's width, at least
BAR_RATIO = 4.0  # width / height, at least
BAR_HEIGHT = 0.12  # of the card's height, at most
BAR_FILL = 0.6  # of its box its dark ink covers, at least ...
EDGED_FILL = 0.45  # ... or this, with its rows along both edges dark nearly all across
EDGE_RUN = 0.8  # of the bar's width: white words bloomed on a photo cut more of the bar
INSET = 0.15  # of the bar's height cut off each edge: the bar's own border is no letter
READ_HEIGHT = 56  # a bar lower than this (px) is read enlarged to it
PAD = 12  # white pixels round the turned-over bar: tesseract reads a line with margins


@dataclass(frozen=True)
class Bar:
    box: tuple[int, int, int, int]  # left, top, width, height on the card
    dark_level: int = 110  # what counts as the bar's dark

    def _words(self, rgb: Any) -> tuple[Any, int, int]:
        """The bar's inside turned over (light words as dark ink), cut to its words'
        stretch, and where that stands on the card (left, top)."""
        x, y, w, h = self.box
        inset = max(1, round(h * INSET))
        part = rgb[y : y + h, x : x + w]
        light, grey = channels.brightest(part), luminance(part)
        # the columns where the bar runs whole (dark along both its edges): a disc or a
        # badge set over the bar's end is no part of its heading; dark anywhere in the rim
        # along each edge, as a letter bloomed on a photo may reach into the rim's middle
        rim = max(1, inset)
        top, bottom = grey[:rim].min(axis=0), grey[h - rim :].min(axis=0)
        edges = (top < self.dark_level) & (bottom < self.dark_level)
        start, stop = max(runs(edges), key=lambda run: run[1] - run[0], default=(0, w))
        left, right = max(start, inset), min(stop, w - inset)
        ink = 255 - light[inset : h - inset, left:right]
        columns = _word_columns(ink, h)  # a short word alone on a long bar reads unsurely
        if len(columns):
            margin = h // 2
            cut = max(0, int(columns[0]) - margin)
            ink = ink[:, cut : int(columns[-1]) + 1 + margin]
            left += cut
        return ink, x + left, y + inset

    def turned_over(self, rgb: Any) -> tuple[Image.Image, tuple[int, int]]:
        """The bar's words, dark ink on white, with a margin (enlarged on a small scan), and
        where that image's top left corner stands on the card (its margin outside)."""
        ink, left, top = self._words(rgb)
        # the bar's own tone (its colour turned over, a grey) made white, as the margin is
        low, paper = float(ink.min(initial=0)), float(np.median(ink)) if ink.size else 255.0
        if paper > low:
            ink = np.clip((ink.astype(np.float32) - low) * (255.0 / (paper - low)), 0, 255)
        image = Image.fromarray(np.pad(ink.astype(np.uint8), PAD, constant_values=255))
        if self.box[3] < READ_HEIGHT:  # a low-resolution scan's bar: type too small to read
            scale = READ_HEIGHT / self.box[3]
            size = (round(image.width * scale), round(image.height * scale))
            image = image.resize(size, Image.Resampling.LANCZOS)
        return image, (left - PAD, top - PAD)

    def scale(self) -> float:
        """How much `turned_over` enlarged the bar."""
        return max(1.0, READ_HEIGHT / self.box[3])


def _word_columns(ink: Any, height: int) -> Any:
    """The columns of the bar's inside (turned over) holding a word's ink, in its middle
    rows and away from its ends (a rounded or tilted end shows the paper beyond it)."""
    rows = ink.shape[0]
    middle = ink[rows // 5 : rows - rows // 5]
    columns = np.flatnonzero((middle < 128).any(axis=0))
    end = height // 2
    return columns[(columns >= end) & (columns < ink.shape[1] - end)]


def _edged(dark: Any, area: int) -> bool:
    """A bar whose words cut more than BAR_FILL leaves of it (white letters bloomed on a
    phone photo), told from a line of dark letters by its edges: a row in the fifth of its
    height along its top, and one along its bottom, are dark nearly all across (its rim
    over and under the words); a line of letters has no such row."""
    h, w = dark.shape
    if h < 5 or area < EDGED_FILL * w * h:
        return False
    rows = dark.mean(axis=1)
    band = max(1, h // 5)
    return bool(
        rows[1 : 1 + band].max() >= EDGE_RUN and rows[h - 1 - band : h - 1].max() >= EDGE_RUN
    )


def luminance(rgb: Any) -> Any:
    """Each pixel's luminance, as tesseract greys a colour picture: a saturated bar (white
    words on magenta) is dark in luminance though its brightest channel is not."""
    return cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2GRAY)


def find(card: Image.Image, dark_level: int) -> list[Bar]:
    """The card's heading bars, top to bottom."""
    rgb = np.asarray(card.convert("RGB"))
    height, width = rgb.shape[:2]
    if not height or not width:
        return []
    dark = (luminance(rgb) < dark_level).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=4)
    # every piece tested at once (dark art holds tens of thousands), in int64 as Python's
    # ints: the few bars are made one by one
    x, y, w, h, area = (stats[1:, i].astype(np.int64) for i in range(5))
    shaped = (w >= BAR_WIDTH * width) & (w >= BAR_RATIO * h) & (h <= BAR_HEIGHT * height)
    shaped &= h >= 8
    filled = area >= BAR_FILL * w * h
    out = []
    for n in np.flatnonzero(shaped):
        box = (int(x[n]), int(y[n]), int(w[n]), int(h[n]))
        part = dark[box[1] : box[1] + box[3], box[0] : box[0] + box[2]]
        if filled[n] or _edged(part, int(area[n])):
            out.append(Bar(box, dark_level))
    return sorted(out, key=lambda bar: (bar.box[1], bar.box[0]))
