"""Where a card's placement slots may stand: outlines that fill their bounding boxes (a
rectangle, a disc, a hexagon), found by their edges in every channel (clear ones, then
faint ones), else by their fills against the card's ground (slots.py makes rows of them)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from cardkit.ocr.slot_icons import Box, Pixels

EXTENT = 0.7  # a slot's outline fills this share of its bounding box (a disc 0.79, a hexagon 0.75)
SLOT_WIDTH = (0.08, 0.4)  # a slot's width as a share of the card's


EDGES = ((20, 50), (8, 24))  # Canny's thresholds: clear edges, then faint ones (a pale panel)


def edges(rgb: Pixels, low: int, high: int) -> NDArray[np.uint8]:
    found = np.zeros(rgb.shape[:2], np.uint8)
    for channel in range(3):
        smooth = cv2.GaussianBlur(np.ascontiguousarray(rgb[..., channel]), (3, 3), 0)
        found |= np.asarray(cv2.Canny(smooth, low, high), np.uint8)
    return np.asarray(cv2.dilate(found, np.ones((3, 3), np.uint8)), np.uint8)


def _candidates(rgb: Pixels, low: int, high: int) -> list[Box]:
    width = rgb.shape[1]
    found = edges(rgb, low, high)
    contours, _ = cv2.findContours(found, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    boxes = [box for box in map(_slot_box(width), contours) if box is not None]
    # a frame's outer and inner edge: the outer one is the slot; a box well inside another
    # (a square icon in its slot) is no slot
    boxes.sort(key=lambda b: -area(b))
    kept: list[Box] = []
    for box in boxes:
        if not any(
            inside(box, k) and (overlap(box, k) > 0.75 or area(box) < 0.5 * area(k)) for k in kept
        ):
            kept.append(box)
    return kept


def _slot_box(width: int) -> Any:
    """The box of an outline that may be a slot on a card this wide, else None."""

    def box(contour: Any) -> Box | None:
        x, y, w, h = cv2.boundingRect(contour)
        if not SLOT_WIDTH[0] * width <= w <= SLOT_WIDTH[1] * width or not 0.5 <= w / h <= 2:
            return None
        return (x, y, x + w, y + h) if cv2.contourArea(contour) >= EXTENT * w * h else None

    return box


def inside(inner: Box, outer: Box) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and outer[2] >= inner[2]
        and outer[3] >= inner[3]
    )


def shared(a: Box, b: Box) -> int:
    """The area two boxes (left, top, right, bottom) share."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0


def overlap(a: Box, b: Box) -> float:
    """Intersection over union."""
    both = shared(a, b)
    if not both:
        return 0.0
    return both / (area(a) + area(b) - both)


def candidate_sets(rgb: Pixels) -> Iterator[list[Box]]:
    for low, high in EDGES:
        yield _candidates(rgb, low, high)
    yield _filled(rgb)


FILL_DIFF = 12  # levels of 255: a slot's fill against the card's ground, at least


def _filled(rgb: Pixels) -> list[Box]:
    """Slots by their fills when their outlines did not close (a thin frame blurred in a
    photo): what differs from the card's ground, thin lines (frames, rules, the card's
    border) opened away, each patch a slot when it fills its box as an outline must; then
    each of the few colours most of that holds, alone (touching cells of two fills, the
    Villain's one colour and the others another, are one patch against the ground).
    Looked for at most FILL_WIDTH wide (a slot is a twelfth of the card or more)."""
    scale = min(1.0, FILL_WIDTH / rgb.shape[1])
    if scale < 1.0:
        size = (FILL_WIDTH, max(1, round(rgb.shape[0] * scale)))
        small = np.asarray(cv2.resize(rgb, size, interpolation=cv2.INTER_AREA))
        return [_grown(b, 1 / scale) for b in _filled(small)]
    rgb = np.ascontiguousarray(rgb, dtype=np.uint8)
    differs = _far(rgb, np.median(rgb.reshape(-1, 3), axis=0)) > FILL_DIFF
    boxes = _patches(differs.astype(np.uint8), rgb.shape[1])
    off = rgb[differs]
    binned = (off // BIN).astype(np.int32) @ np.array([1024, 32, 1])
    codes, counts = np.unique(binned, return_counts=True)
    for code in codes[np.argsort(-counts)][:COLOURS]:
        if counts[codes == code][0] < FILL_SHARE * differs.size:
            break
        centre = np.median(off[binned == code], axis=0)
        alike = ((_far(rgb, centre) <= BIN) & differs).astype(np.uint8)
        boxes += [
            b for b in _patches(alike, rgb.shape[1]) if all(overlap(b, o) < 0.5 for o in boxes)
        ]
    return boxes


def _far(rgb: NDArray[np.uint8], colour: Any) -> NDArray[np.uint8]:
    """Each pixel's largest channel difference from the colour."""
    ref = np.empty_like(rgb)
    ref[:] = np.clip(np.round(colour), 0, 255).astype(np.uint8)
    red, green, blue = cv2.split(cv2.absdiff(rgb, ref))
    return np.asarray(cv2.max(cv2.max(red, green), blue))


def _grown(box: Box, by: float) -> Box:
    left, top, right, bottom = box
    return (round(left * by), round(top * by), round(right * by), round(bottom * by))


FILL_WIDTH = 360  # px: fills are looked for on the card this wide
BIN = 24  # levels of 255: a fill's colour is looked for within this of its bin's middle
COLOURS = 4  # the most common colours off the ground, each looked at alone
FILL_SHARE = 0.01  # ... each holding this share of the card at least


def _patches(mask: NDArray[np.uint8], width: int) -> list[Box]:
    """The patches of the mask that may be slots: none touching the image's edge (a
    slot is printed inside the card; what runs off the edge is a table's stripe beside a
    photographed card)."""
    side = max(3, round(width / 100)) | 1
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((side, side), np.uint8)))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    height = mask.shape[0]
    return [
        box
        for box in map(_slot_box(width), contours)
        if box is not None and box[0] > 0 and box[1] > 0 and box[2] < width and box[3] < height
    ]


def area(box: Box) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])
