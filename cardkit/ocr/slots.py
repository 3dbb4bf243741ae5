"""Placement slots on any design: found by segmentation against the card's own background,
their icons counted per slot and named by the nearest token colour of the system's palette.

1. Slots: what differs from the card's background (its median colour) by more than
   DIFFERENT levels in some channel, closed, gives outer contours; a slot is a contour that
   fills its bounding box (a rectangle, framed or filled: extent ≥ 0.85), 8-40% of the
   card's width, about square; the slots are the largest row of 2-4 such boxes of one
   height and one line.
2. The Villain's slot is the one that stands out: a mark just above or below it (a star, a
   bar) or a frame of another colour than the others'. With none standing out it is not
   known, and the placement is unconfirmed. Slots are named from it: `left`, `villain`,
   `right`, `beyond` (a slot further out on the left has no name: unconfirmed).
3. Icons: inside a slot (its frame inset away), what differs from the slot's own fill is
   cut into components (a component inside another's box is a part of it: a face's eyes);
   each is named by the nearest token colour (hue within the palette's tolerance, from the
   component's most saturated half of pixels); one that matches none is counted as `unknown`
   and makes its slot unconfirmed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PIL import Image

from cardkit.ocr import channels, tokens

DIFFERENT = 40  # levels of 255: a pixel this far from the background is something
EXTENT = 0.85  # a slot's contour fills this share of its bounding box
SLOT_WIDTH = (0.08, 0.4)  # a slot's width as a share of the card's
ICON_AREA = 0.01  # an icon covers this share of its slot at least
SURE = 0.9  # a placement whose every slot and icon was named
NAMES = ("left", "villain", "right", "beyond")  # from the Villain's slot outwards


@dataclass
class Slot:
    box: tuple[int, int, int, int]  # left, top, right, bottom in card pixels
    icons: list[str] = field(default_factory=list)  # token names, `unknown` for no match
    name: str = ""


@dataclass
class Placement:
    slots: list[Slot]
    villain_known: bool

    @property
    def sure(self) -> bool:
        named = all(s.name for s in self.slots)
        return self.villain_known and named and not any("unknown" in s.icons for s in self.slots)

    def place(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for slot in self.slots:
            counts: dict[str, int] = {}
            for icon in slot.icons:
                counts[icon] = counts.get(icon, 0) + 1
            if counts:
                out[slot.name or f"slot{self.slots.index(slot) + 1}"] = counts
        return out


def _rgb(image: Image.Image) -> np.ndarray[Any, Any]:
    return np.asarray(image.convert("RGB")).astype(np.int16)


def _differs(rgb: np.ndarray[Any, Any], colour: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return np.asarray(channels.brightest(np.abs(rgb - colour)) > DIFFERENT)


def find_slots(card: Image.Image) -> list[tuple[int, int, int, int]]:
    """The placement slots' boxes, left to right; [] when no row of 2-4 is found."""
    import cv2

    rgb = _rgb(card)
    background = np.median(rgb.reshape(-1, 3), axis=0)
    mask = _differs(rgb, background).astype(np.uint8) * 255
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)))
    contours, _ = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    width = card.width
    boxes = []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        if not SLOT_WIDTH[0] * width <= w <= SLOT_WIDTH[1] * width or not 0.6 <= w / h <= 1.7:
            continue
        if cv2.contourArea(contour) < EXTENT * w * h:
            continue
        boxes.append((x, y, x + w, y + h))
    boxes = _distinct(boxes)
    rows: list[list[tuple[int, int, int, int]]] = []
    for box in sorted(boxes, key=lambda b: b[1]):
        h = box[3] - box[1]
        for row in rows:
            first = row[0]
            fh = first[3] - first[1]
            if abs((box[1] + box[3]) - (first[1] + first[3])) / 2 < 0.3 * fh and (
                abs(h - fh) < 0.25 * fh
            ):
                row.append(box)
                break
        else:
            rows.append([box])
    rows = [sorted(r) for r in rows if 2 <= len(r) <= 4]
    return max(rows, key=len) if rows else []


def _distinct(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """A frame's outer and inner contours are one slot: boxes inside another are dropped."""
    out = []
    for box in boxes:
        inside = any(
            o != box and o[0] <= box[0] and o[1] <= box[1] and o[2] >= box[2] and o[3] >= box[3]
            for o in boxes
        )
        if not inside:
            out.append(box)
    return out


def icons_in(card: Image.Image, box: tuple[int, int, int, int], palette: Any) -> list[str]:
    """The icons inside one slot, named by the nearest token colour (or `unknown`)."""
    import cv2

    inset = max(2, round(0.1 * (box[2] - box[0])))
    inner = card.crop((box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset))
    rgb = _rgb(inner)
    if rgb.size == 0:
        return []
    fill = np.median(rgb.reshape(-1, 3), axis=0)
    mask = _differs(rgb, fill).astype(np.uint8)
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    least = ICON_AREA * mask.size
    parts = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= least]
    whole = []
    for i in parts:
        x, y, w, h = (int(v) for v in stats[i, :4])
        within = any(
            j != i
            and stats[j, 0] <= x
            and stats[j, 1] <= y
            and stats[j, 0] + stats[j, 2] >= x + w
            and stats[j, 1] + stats[j, 3] >= y + h
            for j in parts
        )
        if not within:
            whole.append(i)
    return [
        name_colour(rgb[labels == i], palette) for i in sorted(whole, key=lambda i: stats[i, 0])
    ]


def name_colour(pixels: np.ndarray[Any, Any], palette: Any) -> str:
    """The token whose fill is nearest the icon's colour (its more saturated half of
    pixels: an outline or a shadow is not its fill), within the palette's tolerance."""
    step = max(1, len(pixels) // 400)
    hsv = [tokens.hsv((p[0] / 255, p[1] / 255, p[2] / 255)) for p in pixels[::step].tolist()]
    hsv.sort(key=lambda v: -v[1])
    top = hsv[: max(1, len(hsv) // 2)]
    hue = float(np.median([v[0] for v in top]))
    sat = float(np.median([v[1] for v in top]))
    val = float(np.median([v[2] for v in top]))
    best, distance = "unknown", 1e9
    for colour in palette.colours:
        if not colour.token:
            continue
        dh = min(abs(hue - colour.hue), 360 - abs(hue - colour.hue))
        if (
            dh <= palette.hue_tolerance
            and abs(sat - colour.saturation) <= palette.saturation_tolerance
            and abs(val - colour.value) <= palette.value_tolerance
            and dh < distance
        ):
            best, distance = colour.name, dh
    return best


def _standing_out(card: Image.Image, boxes: list[tuple[int, int, int, int]]) -> int | None:
    """The slot with a mark just above or below it, or a frame unlike the others'."""
    rgb = _rgb(card)
    background = np.median(rgb.reshape(-1, 3), axis=0)
    marks = []
    frames = []
    for left, top, right, bottom in boxes:
        h = bottom - top
        above = rgb[max(0, top - h // 2) : max(0, top - 2), left:right]
        below = rgb[bottom + 2 : bottom + h // 2, left:right]
        ink = sum(float(_differs(a, background).mean()) if a.size else 0.0 for a in (above, below))
        marks.append(ink)
        frames.append(np.median(rgb[top : top + 3, left:right].reshape(-1, 3), axis=0))
    best = int(np.argmax(marks))
    others = [m for i, m in enumerate(marks) if i != best]
    if marks[best] > 0.03 and marks[best] > 3 * max(others, default=0.0):
        return best
    spread = [
        sum(float(np.abs(frames[i] - frames[j]).max()) for j in range(len(frames)) if j != i)
        for i in range(len(frames))
    ]
    odd = int(np.argmax(spread))
    if len(frames) >= 3 and spread[odd] / (len(frames) - 1) > DIFFERENT:
        return odd
    return None


def read_placement(card: Image.Image, palette: Any) -> Placement | None:
    """The placement diagram on the card, or None when no row of slots is found."""
    boxes = find_slots(card)
    if not boxes:
        return None
    villain = _standing_out(card, boxes)
    slots = [Slot(box, icons_in(card, box, palette)) for box in boxes]
    if villain is not None:
        for index, slot in enumerate(slots):
            offset = index - villain
            slot.name = NAMES[offset + 1] if -1 <= offset <= 2 else ""
    return Placement(slots, villain is not None)
