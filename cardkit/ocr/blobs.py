"""Blobs in binary masks: morphology, holes filled, connected components, and light evened
out in a colour image. OpenCV under the hood; the token counter (tokens.py) uses these."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image

Mask = NDArray[np.bool_]


def _u8(mask: Mask) -> NDArray[np.uint8]:
    return mask.astype(np.uint8)


def _square(radius: int) -> NDArray[np.uint8]:
    return np.ones((2 * radius + 1, 2 * radius + 1), np.uint8)


def _erode(mask: NDArray[np.uint8], kernel: NDArray[np.uint8]) -> NDArray[np.uint8]:
    # outside the mask counts as empty: a blob cut by the edge erodes there too
    return np.asarray(
        cv2.erode(mask, kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0), np.uint8
    )


def close(mask: Mask, radius: int) -> Mask:
    """Dilate, then erode: seals pinholes in an icon's rim so its emblem counts as a hole."""
    if radius <= 0:
        return mask
    kernel = _square(radius)
    return _erode(np.asarray(cv2.dilate(_u8(mask), kernel), np.uint8), kernel) > 0


def opened(mask: Mask, radius: int) -> Mask:
    """Erode, then dilate: thin lines and text narrower than the window are dropped."""
    if radius <= 0:
        return mask
    kernel = _square(radius)
    return (np.asarray(cv2.dilate(_erode(_u8(mask), kernel), kernel)) > 0) & mask


def grow_rows(mask: Mask, radius: int) -> Mask:
    """Dilated up and down by `radius` rows (a rule tilted by a degree or two stays one row)."""
    if radius <= 0:
        return mask
    return np.asarray(cv2.dilate(_u8(mask), np.ones((2 * radius + 1, 1), np.uint8))) > 0


def opened_rows(mask: Mask, length: int) -> NDArray[np.bool_]:
    """Per row: whether it holds an unbroken run of at least `length` pixels."""
    kept = cv2.morphologyEx(_u8(mask), cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    return np.asarray(np.asarray(kept).any(axis=1), dtype=bool)


def fill_holes(mask: Mask) -> Mask:
    """The mask with every enclosed gap filled: an icon's white emblem counts as the icon."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(_u8(~mask), connectivity=8)
    height, width = mask.shape
    left, top = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    right = left + stats[:, cv2.CC_STAT_WIDTH] - 1
    bottom = top + stats[:, cv2.CC_STAT_HEIGHT] - 1
    enclosed = (left > 0) & (top > 0) & (right < width - 1) & (bottom < height - 1)
    enclosed[0] = False  # label 0 is the mask itself
    return np.asarray(mask | enclosed[labels], dtype=bool)


@dataclass
class Component:
    area: int
    left: int
    right: int  # inclusive
    top: int
    bottom: int  # inclusive
    centre: float  # the mean column of its pixels

    @property
    def width(self) -> int:
        return self.right - self.left + 1

    @property
    def height(self) -> int:
        return self.bottom - self.top + 1


def components(mask: Mask) -> list[Component]:
    """8-connected components of a mask."""
    count, _, stats, centroids = cv2.connectedComponentsWithStats(_u8(mask), connectivity=8)
    out = []
    # Python ints and floats in one pass each, not one numpy scalar at a time
    for (left, top, width, height, area), (middle, _) in zip(
        stats[1:count].tolist(), centroids[1:count].tolist(), strict=True
    ):
        out.append(Component(area, left, left + width - 1, top, top + height - 1, middle))
    return out


def longest_run(row: NDArray[np.bool_]) -> int:
    edges = np.diff(np.concatenate(([0], row.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    return int((ends - starts).max()) if starts.size else 0


def channel_range(pixels: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Each pixel's brightest and darkest channel."""
    top = np.maximum(np.maximum(pixels[..., 0], pixels[..., 1]), pixels[..., 2])
    low = np.minimum(np.minimum(pixels[..., 0], pixels[..., 1]), pixels[..., 2])
    return top, low


def flatten_light(rgb: Image.Image) -> NDArray[np.float32]:
    """RGB in 0-1 with uneven light divided out: each pixel over the local paper white.

    The paper white is the bright end (90th percentile) of coarse blocks, smoothed; a
    flatbed scan barely changes, a phone photo lit from one side becomes even.
    """
    pixels = np.asarray(rgb, dtype=np.uint8)
    height, width = pixels.shape[:2]
    block = max(24, min(height, width) // 4)  # larger than an icon, small for the light
    rows, cols = max(1, height // block), max(1, width // block)
    grey, _ = channel_range(pixels)
    white = np.empty((rows, cols), dtype=np.float32)
    for r in range(rows):
        for c in range(cols):
            cell = grey[
                r * height // rows : (r + 1) * height // rows,
                c * width // cols : (c + 1) * width // cols,
            ]
            white[r, c] = np.percentile(cell, 90) / 255
    # a block all icon takes its neighbours' paper
    white = np.asarray(
        cv2.dilate(white, np.ones((3, 3), np.uint8), borderType=cv2.BORDER_REPLICATE)
    )
    smooth = cv2.resize(white, (width, height), interpolation=cv2.INTER_LINEAR)
    light = np.clip(np.asarray(smooth, dtype=np.float32), 0.25, None)
    scaled = pixels.astype(np.float32) * (1 / 255)
    return np.asarray(np.clip(scaled / light[..., None], 0, 1), dtype=np.float32)
