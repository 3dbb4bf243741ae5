"""Placement slots on any design: found by their edges, their icons segmented against each
slot's own fill, counted per slot and named by the box's palette (palette.py).

1. Slots: the card's edges (every channel, so a panel told from its ground by hue alone
   is found too) are closed into outlines; a slot is an outline that fills its bounding
   box (a rectangle, framed or filled, corners rounded or not, a disc, a hexagon: extent
   >= 0.7), 8-40% of the card's width; the slots are the row of 2-4 such boxes of one
   size on one line, side by side (most boxes, then the largest), or, with no row, such
   a column, one above another. A column is read as a row turned a quarter: what is
   above and below a row's slot is left and right of a column's, and its top slot is a
   row's first. Two slots a slot's room apart leave it unconfirmed (one between was not
   found). A frame's inner and outer edges are one slot; a mark that touches a frame (a
   star on its edge) makes that box taller, so the frame's inner edge stands for it.
2. The Villain's slot is the one that stands out: a mark just above or below it (a star,
   a bar, a shield: ink where the other slots have none), else a frame or a fill of
   another colour than the others'. With none standing out it is not known, and the
   placement is unconfirmed. Slots are named from it: `left`, `villain`, `right`,
   `beyond` (a slot further out on the left has no name: unconfirmed).
3. Icons: inside a slot (its frame inset away), what differs from the slot's own fill
   (the median of the inset box's border) is cut into components; a part inside
   another's box is that icon's (an emblem), specks and edge slivers are not icons. Each
   is measured (its colour: the median of its more colourful half of pixels, so an
   outline or a shadow is not its fill; its shape: shapes.py) and named by the palette;
   one that matches no token is counted as `unknown` and makes its slot unconfirmed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PIL import Image

from cardkit.ocr import slot_rows
from cardkit.ocr.slot_icons import DIFFERENT, Box, Icon, Pixels, delta, icons_in
from cardkit.ocr.slot_rows import find_slots as find_slots
from cardkit.ocr.slot_rows import words_of as words_of

SURE = 0.9  # a placement whose every slot and icon was named
NAMES = ("left", "villain", "right", "beyond")  # from the Villain's slot outwards


@dataclass
class Slot:
    box: Box
    found: list[Icon] = field(default_factory=list)
    name: str = ""

    @property
    def icons(self) -> list[str]:
        return [icon.name for icon in self.found]


@dataclass
class Placement:
    slots: list[Slot]
    villain_known: bool
    marked_by: str = ""  # what told the Villain's slot: a mark, its frame, its fill
    gapped: bool = False  # two slots stand a slot's room apart: one between was not found

    @property
    def oriented(self) -> bool:
        """Whether the slots are named (the Villain's slot was told)."""
        return self.villain_known

    @property
    def sure(self) -> bool:
        named = all(s.name for s in self.slots)
        unknown = any("unknown" in s.icons for s in self.slots)
        return self.villain_known and named and not unknown and not self.gapped

    def place(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for index, slot in enumerate(self.slots):
            counts: dict[str, int] = {}
            for icon in slot.icons:
                counts[icon] = counts.get(icon, 0) + 1
            if counts:
                out[slot.name or f"slot{index + 1}"] = counts
        return out

    def described(self) -> str:
        return "; ".join(
            f"{s.name or f'slot {n + 1}'}: {', '.join(s.icons) or 'empty'}"
            for n, s in enumerate(self.slots)
        )


def _rgb(image: Image.Image) -> Pixels:
    return np.asarray(image.convert("RGB"))


def diagram_found(card: Image.Image, words: tuple[Box, ...] = ()) -> bool:
    """A placement diagram stands on the card: a row of three or four alike slots, or of
    two with the Villain's marked (two alike boxes alone are any card's pair of panels)."""
    boxes = slot_rows.find_slots(card, words)
    return len(boxes) >= 3 or (bool(boxes) and villain_slot(card, boxes)[0] is not None)


def diagram_boxes(card: Image.Image, words: tuple[Box, ...] = ()) -> list[Box]:
    """The slots' boxes when they make a placement diagram (diagram_found), else []: two
    alike boxes alone are any card's pair of panels, whose lines are rules text."""
    boxes = slot_rows.find_slots(card, words)
    return boxes if diagram_found(card, words) else []


def _trimmed(boxes: list[Box]) -> tuple[list[Box], int | None, str]:
    """A row of three or four: the one box (if one) that reaches beyond the others' top or
    bottom, and why. Beyond one edge: a mark joined to its frame (a star on its edge, a bar
    under it), and the box is cut to the others' line; beyond both: a larger slot."""
    top, bottom = int(np.median([b[1] for b in boxes])), int(np.median([b[3] for b in boxes]))
    slack = 0.05 * (bottom - top)
    out, taller, how = [], [], ""
    for index, (left, up, right, down) in enumerate(boxes):
        above, below = up < top - slack, down > bottom + slack
        if above and below:
            taller.append(index)
            how = "its size"
            out.append((left, up, right, down))
            continue
        if above or below:
            taller.append(index)
            how = "a mark"
        out.append((left, max(up, top), right, min(down, bottom)))
    if len(taller) == 1:
        return out, taller[0], how
    return out, None, ""


def _marked(rgb: Pixels, boxes: list[Box], far: float) -> int | None:
    """The one slot with ink in the middle of its width just outside its top or bottom
    edge (from 5% of its height to `far`), where the others have none."""
    bands = []
    for left, top, right, bottom in boxes:
        h, w = bottom - top, right - left
        near, out = round(0.05 * h), round(far * h)
        middle = slice(left + round(0.2 * w), right - round(0.2 * w))
        above = rgb[max(0, top - out) : max(0, top - near), middle]
        below = rgb[bottom + near : bottom + out, middle]
        bands.append([band for band in (above, below) if band.size])
    pooled = [band.reshape(-1, 3) for pair in bands for band in pair]
    if not pooled:
        return None
    ground = np.median(np.concatenate(pooled), axis=0)  # most of these bands hold no mark
    # each side apart: a line running past every slot on one side (the card's border
    # beside a column) would hide the one mark on the other
    found = set()
    for side in (0, 1):
        marks = [
            float((np.abs(pair[side] - ground).max(axis=2) > DIFFERENT).mean())
            if len(pair) > side
            else 0.0
            for pair in bands
        ]
        found.add(slot_rows.odd_one(marks, 0.05))
    found.discard(None)
    return found.pop() if len(found) == 1 else None


def villain_slot(card: Image.Image, boxes: list[Box]) -> tuple[int | None, str]:
    """The slot with a mark against its top or bottom edge (a star, a bar, a shield), else
    a fill or frame unlike the others'; and what told it. A mark is looked for in the
    middle of a slot's width, just outside its edge (5% to 13% of its height away: a BAM!
    burst further up is not the slot's), then further out (to 30%: a label over it)."""
    rgb = _rgb(card).astype(np.int16)
    if slot_rows.column(boxes):  # read as a row: the card mirrored over its diagonal
        rgb, boxes = rgb.transpose(1, 0, 2), slot_rows.across(boxes)
    for far in (0.13, 0.3):
        marked = _marked(rgb, boxes, far)
        if marked is not None:
            return marked, "a mark"
    fills, frames = slot_rows.colours(rgb, boxes)
    for what, colours in (("its fill", fills), ("its frame", frames)):
        odd = slot_rows.odd_colour(colours)
        if odd is not None:
            return odd, what
    return None, ""


def _marker_inside(slots: list[Slot]) -> tuple[int | None, str]:
    """With nothing outside the slots standing out: a slot holding the diagram's one icon
    that is no token (a shield, the Villain's face) is the Villain's, and that icon its
    marker, not counted. Two such icons, or none, tell nothing."""
    odd = [
        (n, icon) for n, slot in enumerate(slots) for icon in slot.found if icon.name == "unknown"
    ]
    if len(odd) != 1:
        return None, ""
    index, marker = odd[0]
    slots[index].found.remove(marker)
    return index, "a mark inside it"


def marker_from(found: Placement, place: dict[str, dict[str, int]]) -> None:
    """Calibrating, with no mark outside the slots: the Villain's slot may hold its marker
    (a shield). The one slot that, named the Villain's, leaves every slot its confirmed
    count and itself one icon more is it; its icon least like the card's others is the
    marker, dropped."""
    fits = []
    for villain in range(len(found.slots)):
        names = [
            NAMES[n - villain + 1] if -1 <= n - villain <= 2 else ""
            for n in range(len(found.slots))
        ]
        wanted = [sum((place.get(name) or {}).values()) for name in names]
        seen = [len(s.found) for s in found.slots]
        extra = [n for n in range(len(seen)) if seen[n] != wanted[n]]
        if all(names) and extra == [villain] and seen[villain] == wanted[villain] + 1:
            fits.append((villain, names))
    if len(fits) != 1:
        return
    villain, names = fits[0]
    every = [icon for slot in found.slots for icon in slot.found]
    marker = max(
        found.slots[villain].found,
        key=lambda icon: min(
            (delta(icon.colour, o.colour) for o in every if o is not icon), default=0.0
        ),
    )
    found.slots[villain].found.remove(marker)
    for slot, name in zip(found.slots, names, strict=True):
        slot.name = name
    found.villain_known, found.marked_by = True, "a mark inside it"


def read_placement(
    card: Image.Image, palette: Any, words: tuple[Box, ...] = ()
) -> Placement | None:
    """The placement diagram on the card, or None when no row of slots is found.
    `palette` names icons: `palette.name(icon) -> str` (palette.BoxPalette)."""
    boxes = slot_rows.find_slots(card, words)  # (a badge beside the row dropped)
    if not boxes:
        return None
    joined, how = None, ""
    if len(boxes) > 2 and slot_rows.column(boxes):
        trimmed, joined, how = _trimmed(slot_rows.across(boxes))
        boxes = slot_rows.across(trimmed)
    elif len(boxes) > 2:  # of two, one may be a frame's outer edge and the other its inner one
        boxes, joined, how = _trimmed(boxes)
    villain, how = (joined, how) if joined is not None else villain_slot(card, boxes)
    slots = [Slot(box, icons_in(card, box)) for box in boxes]
    for slot in slots:
        for icon in slot.found:
            icon.name = palette.name(icon)
    if villain is None:
        villain, how = _marker_inside(slots)
    if villain is not None:
        for index, slot in enumerate(slots):
            offset = index - villain
            slot.name = NAMES[offset + 1] if -1 <= offset <= 2 else ""
    return Placement(slots, villain is not None, how, slot_rows.gapped(boxes))
