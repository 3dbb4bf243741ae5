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

BAR_WIDTH = 0.2  # of the card's width, at least
BAR_RATIO = 4.0  # width / height, at least
BAR_HEIGHT = 0.12  # of the card's height, at most
BAR_FILL = 0.6  # of its box its dark ink covers, at least
INSET = 0.15  # of the bar's height cut off each edge: the bar's own border is no letter
READ_HEIGHT = 56  # a bar lower than this (px) is read enlarged to it
PAD = 12  # white pixels round the turned-over bar: tesseract reads a line with margins


@dataclass(frozen=True)
class Bar:
    box: tuple[int, int, int, int]  # left, top, width, height on the card

    def turned_over(self, rgb: Any) -> Image.Image:
        """The bar's inside, light words as dark ink on white, with a margin."""
        x, y, w, h = self.box
        inset = max(1, round(h * INSET))
        inside = rgb[y + inset : y + h - inset, x + inset : x + w - inset]
        ink = 255 - channels.brightest(inside)
        # only the words' stretch: a short word alone on a long bar reads unsurely
        columns = _word_columns(ink, h)
        if len(columns):
            margin = h // 2
            ink = ink[:, max(0, columns[0] - margin) : columns[-1] + 1 + margin]
        # the bar's own tone (its colour turned over, a grey) made white, as the margin is
        low, paper = float(ink.min(initial=0)), float(np.median(ink)) if ink.size else 255.0
        if paper > low:
            ink = np.clip((ink.astype(np.float32) - low) * (255.0 / (paper - low)), 0, 255)
        image = Image.fromarray(np.pad(ink.astype(np.uint8), PAD, constant_values=255))
        if h < READ_HEIGHT:  # a low-resolution scan's bar: its type too small to read surely
            scale = READ_HEIGHT / h
            size = (round(image.width * scale), round(image.height * scale))
            image = image.resize(size, Image.Resampling.LANCZOS)
        return image

    def scale(self) -> float:
        """How much `turned_over` enlarged the bar."""
        return max(1.0, READ_HEIGHT / self.box[3])

    def words_left(self, rgb: Any) -> int:
        """Where the words' stretch starts inside the bar (the crop `turned_over` reads)."""
        x, y, w, h = self.box
        inset = max(1, round(h * INSET))
        inside = 255 - channels.brightest(rgb[y + inset : y + h - inset, x + inset : x + w - inset])
        columns = _word_columns(inside, h)
        return max(0, int(columns[0]) - h // 2) if len(columns) else 0


def _word_columns(ink: Any, height: int) -> Any:
    """The columns of the bar's inside (turned over) holding a word's ink, in its middle
    rows and away from its ends (a rounded or tilted end shows the paper beyond it)."""
    rows = ink.shape[0]
    middle = ink[rows // 5 : rows - rows // 5]
    columns = np.flatnonzero((middle < 128).any(axis=0))
    end = height // 2
    return columns[(columns >= end) & (columns < ink.shape[1] - end)]


def find(card: Image.Image, dark_level: int) -> list[Bar]:
    """The card's heading bars, top to bottom."""
    rgb = np.asarray(card.convert("RGB"))
    height, width = rgb.shape[:2]
    if not height or not width:
        return []
    dark = (channels.brightest(rgb) < dark_level).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=4)
    out = []
    for n in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[n][:5])
        if (
            w >= BAR_WIDTH * width
            and w >= BAR_RATIO * h
            and h <= BAR_HEIGHT * height
            and h >= 8
            and area >= BAR_FILL * w * h
        ):
            out.append(Bar((x, y, w, h)))
    return sorted(out, key=lambda bar: (bar.box[1], bar.box[0]))


def rgb_of(card: Image.Image) -> Any:
    return np.asarray(card.convert("RGB"))
