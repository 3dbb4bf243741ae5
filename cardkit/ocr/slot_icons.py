"""A placement slot's icons: what differs from the slot's own fill, cut into components,
each measured (its fill colour and its shape) for the palette to name (slots.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image

from cardkit.ocr import shapes

DIFFERENT = 40  # levels of 255 in some channel: an icon's pixel against its slot's fill
ICON_HEIGHT = 0.1  # an icon is at least this share of its slot's height
INSET = 0.06  # a slot's frame: this share of its smaller side
STEADY = 0.6  # a band this much of one colour is the slot's fill
STRETCH = 4  # an icon is at most this many times as wide as high, or as high as wide

Box = tuple[int, int, int, int]  # left, top, right, bottom in card pixels
Pixels = NDArray[Any]


@dataclass
class Icon:
    colour: tuple[float, float, float]  # CIE Lab, L 0-100
    shape: shapes.Shape
    height: int  # pixels
    box: Box  # in card pixels
    name: str = "unknown"


def _rgb(image: Image.Image) -> Pixels:
    return np.asarray(image.convert("RGB"))


def delta(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    return float(np.sqrt(sum((x - y) ** 2 for x, y in zip(a, b, strict=True))))


def _lab(pixels: Pixels) -> Pixels:
    """RGB pixels (n x 3, 0-255) in CIE Lab, L 0-100."""
    scaled = (pixels.reshape(-1, 1, 3).astype(np.float32) / 255).astype(np.float32)
    return np.asarray(cv2.cvtColor(scaled, cv2.COLOR_RGB2LAB)).reshape(-1, 3)


def fill_colour(pixels: Pixels) -> tuple[float, float, float]:
    """An icon's fill in Lab: the median of its more colourful half of pixels."""
    lab = _lab(pixels)
    chroma = np.hypot(lab[:, 1], lab[:, 2])
    top = lab[chroma >= np.median(chroma)]
    median = np.median(top if len(top) else lab, axis=0)
    return float(median[0]), float(median[1]), float(median[2])


def _sides(stat: Any, shape: tuple[int, ...]) -> int:
    """How many sides of the slot's inset box a component touches: a slot that is no
    rectangle (a hexagon, a disc) leaves its outline's edges across the box's corners."""
    x, y, w, h = (int(v) for v in stat[:4])
    return (x == 0) + (y == 0) + (x + w == shape[1]) + (y + h == shape[0])


def _edged(own: NDArray[np.bool_], patch: Pixels, fill: Pixels, seal: int) -> NDArray[np.bool_]:
    """The icon cut where its colour is halfway from the slot's fill to its own body's
    (a blurred photo's rim, 40 levels off the fill, is no part of it: a cross measured
    with it is fatter than a cross), sealed across thin lines as the icon was."""
    off = np.abs(patch - fill).max(axis=2)
    body = float(np.percentile(off[own], 75)) if own.any() else 0.0
    half = np.pad((own & (off > body / 2)).astype(np.uint8), seal + 1)
    # padded: closing treats what lies past the patch's edge as ink, and would fill the
    # space between the patch's edge and an icon whose cut rim no longer reaches it
    half = np.asarray(cv2.morphologyEx(half, cv2.MORPH_CLOSE, np.ones((2 * seal + 1,) * 2))) > 0
    half = half[seal + 1 : -(seal + 1), seal + 1 : -(seal + 1)] & own
    return half if half.sum() >= 0.5 * own.sum() else own


def _unframed(mask: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The mask without what crosses two sides of the slot's inset box (a ring's or a
    frame's remains), before icons are sealed: an icon close to a thick ring would join
    it and go with it."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    frames = [i for i in range(1, count) if _sides(stats[i], mask.shape) >= 2]
    if not frames:
        return mask
    return np.where(np.isin(labels, frames), 0, mask).astype(np.uint8)


def _within_fill(fill: NDArray[Any]) -> NDArray[np.bool_]:
    """The slot's inside: the largest patch of its fill with what it surrounds (its
    icons); what lies beyond its outline (a hexagon's frame in the box's corners) is not."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        fill.astype(np.uint8), connectivity=8
    )
    if count < 2:
        return np.ones(fill.shape, bool)
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    contours, _ = cv2.findContours(
        (labels == largest).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    inside = np.zeros(fill.shape, np.uint8)
    cv2.drawContours(inside, contours, -1, 1, thickness=-1)
    return inside.astype(bool)


def icons_in(card: Image.Image, box: Box) -> list[Icon]:
    """The icons inside one slot, left to right then top to bottom (not yet named)."""
    inset = max(2, round(INSET * min(box[2] - box[0], box[3] - box[1])))
    left, top = box[0] + inset, box[1] + inset
    rgb = _rgb(card.crop((left, top, box[2] - inset, box[3] - inset))).astype(np.int16)
    if rgb.shape[0] < 8 or rgb.shape[1] < 8:
        return []
    # the fill: the median of a band along the inset box's edges, as wide as the inset (a
    # frame seen a few pixels off in a photo is a small part of it, an icon seldom in it)
    band = np.ones(rgb.shape[:2], bool)
    band[inset:-inset, inset:-inset] = False
    fill = np.median(rgb[band], axis=0)
    h, w = rgb.shape[:2]
    middle = np.median(rgb[h // 5 : h - h // 5, w // 5 : w - w // 5].reshape(-1, 3), axis=0)
    steady = (np.abs(rgb[band] - fill).max(axis=1) <= DIFFERENT / 2).mean()
    if steady < STEADY and np.abs(fill - middle).max() > DIFFERENT / 2:
        # the band lies on a ring thicker than the inset, its median a blend of ring, fill
        # and ground: the middle is the fill (a steady band is the fill, whatever panel
        # the middle holds: Lizard's sewer grate)
        fill = middle
    mask = (np.abs(rgb - fill).max(axis=2) > DIFFERENT).astype(np.uint8)
    within = _within_fill(1 - mask)
    mask = _unframed(mask)
    slot_height = box[3] - box[1]
    seal = max(1, round(slot_height / 60))  # a thin line across an icon does not cut it
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((2 * seal + 1,) * 2)))
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    least = ICON_HEIGHT * slot_height
    parts = [
        i
        for i in range(1, count)
        if max(stats[i, cv2.CC_STAT_HEIGHT], stats[i, cv2.CC_STAT_WIDTH]) >= least
        and stats[i, cv2.CC_STAT_AREA] >= 0.25 * least * least
        and band[labels == i].mean() <= 0.5  # mostly along the edges: a frame's remains
        and _sides(stats[i], mask.shape) < 2  # across a corner or round it: an outline's edge
        and within[labels == i].mean() >= 0.5  # outside the fill's outline: the frame's
    ]
    found = []
    for i in parts:
        x, y, w, h = (int(v) for v in stats[i, :4])
        if any(
            j != i
            and stats[j, 0] <= x
            and stats[j, 1] <= y
            and stats[j, 0] + stats[j, 2] >= x + w
            and stats[j, 1] + stats[j, 3] >= y + h
            for j in parts
        ):
            continue  # a part of a larger icon
        own = labels[y : y + h, x : x + w] == i
        shape = shapes.measure(_edged(own, rgb[y : y + h, x : x + w], fill, seal))
        if shape is None or not 1 / STRETCH <= shape.aspect <= STRETCH:
            continue  # a line across the slot is its pattern (a grate), not an icon
        colour = fill_colour(rgb[y : y + h, x : x + w][own].astype(np.uint8))
        found.append(Icon(colour, shape, h, (left + x, top + y, left + x + w, top + y + h)))
    return sorted(found, key=lambda icon: (round(icon.box[1] / max(1, icon.height)), icon.box[0]))
