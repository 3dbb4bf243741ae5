"""Marvel United's card figure: the placement diagram, the three slots a Master Plan card
fills, with one icon per token (`PlacementFigure`, a `render.content.Figure`).

The slots are left, the Villain's Location and right; when the card anchors on a
token (Lizard's Sewer) the middle shows that token and takes none. Each slot draws
N icons for a count of N. When the placement is unconfirmed every slot is dashed
and carries a "?" badge. Geometry (`slot_boxes`, `icon_grid`) is pure and tested
apart from drawing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from reportlab.pdfgen.canvas import Canvas

from cardkit.games.marvel_united import SLOTS
from cardkit.render import fonts
from cardkit.render.icons import Forms, icon_set, lookup
from cardkit.render.sheet import Box

MM = 72 / 25.4

LABEL_BAND = 2.6 * MM  # under the icons: the slot's name
GREY, WARN, INK = (0.55, 0.55, 0.55), (0.80, 0.10, 0.10), (0.1, 0.1, 0.1)
MAX_ICON = 6.5 * MM
BADGE = 1.6 * MM  # the "?" disc's radius; it sits on a slot's top right corner


def slot_boxes(box: Box) -> dict[str, Box]:
    """The three slots side by side, a small gap between them."""
    gap = 1.2 * MM
    width = (box.w - 2 * gap) / 3
    return {
        slot: Box(box.x + index * (width + gap), box.y, width, box.h)
        for index, slot in enumerate(SLOTS)
    }


def icon_area(slot: Box) -> Box:
    pad = 1.0 * MM
    return Box(slot.x + pad, slot.y + LABEL_BAND, slot.w - 2 * pad, slot.h - LABEL_BAND - pad)


def icon_grid(count: int, area: Box, largest: float = MAX_ICON) -> list[Box]:
    """`count` equal squares in rows, as large as fit with a gap of a fifth between them."""
    if count <= 0:
        return []
    best = (0.0, 1, count)
    for rows in range(1, count + 1):
        cols = math.ceil(count / rows)
        size = min(area.w / cols, area.h / rows) / 1.2
        if size > best[0]:
            best = (size, rows, cols)
    size, rows, cols = best
    size = min(size, largest)
    step = size * 1.2
    top = area.y + area.h / 2 + rows * step / 2
    boxes = []
    for index in range(count):
        row, col = divmod(index, cols)
        in_row = min(cols, count - row * cols)
        left = area.x + area.w / 2 - in_row * step / 2
        boxes.append(
            Box(left + col * step + size * 0.1, top - (row + 1) * step + size * 0.1, size, size)
        )
    return boxes


def tokens_in_order(system: str, tokens: dict[str, int]) -> list[str]:
    """One name per token, in the system's icon order (undeclared tokens last, by name)."""
    order = {key: index for index, key in enumerate(icon_set(system))}
    names = sorted(tokens, key=lambda name: (order.get(name, len(order)), name))
    return [name for name in names for _ in range(max(0, int(tokens[name])))]


def badge_centre(slot: Box) -> tuple[float, float]:
    """Where an unconfirmed slot's "?" disc sits: on its top right corner, overhanging it."""
    return slot.x + slot.w - 0.4 * MM, slot.y + slot.h - 0.4 * MM


def _badge(c: Canvas, x: float, y: float) -> None:
    c.setFillColorRGB(*WARN)
    c.circle(x, y, BADGE, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.setFont(fonts.BOLD, 7)
    c.drawCentredString(x, y - 2.4, "?")


def draw(
    c: Canvas,
    forms: Forms,
    system: str,
    placement: dict[str, dict[str, int]],
    anchor: str,
    doubtful: bool,
    box: Box,
) -> None:
    """The slots' frames (one form per kind of frame), then one icon per token."""
    marker = lookup(system, anchor) if anchor != "villain" else lookup(system, "villain")
    # the form is a badge's radius larger all round: a form clips to its bounds, and the
    # badges overhang the slots' corners
    local = Box(BADGE, BADGE, box.w, box.h)

    def frame(canvas: Canvas) -> None:
        _frame(canvas, forms, system, anchor, doubtful, local)

    key = f"frame_{system}_{anchor}_{doubtful}_{box.w:.2f}_{box.h:.2f}"
    size = (box.w + 2 * BADGE, box.h + 2 * BADGE)
    forms.stamp(key, *size, frame, box.x - BADGE, box.y - BADGE)
    forms.on_page.setdefault(marker.label, marker)
    for slot, area in slot_boxes(box).items():
        if slot == "villain" and anchor != "villain":
            continue
        names = tokens_in_order(system, placement.get(slot, {}))
        for name, spot in zip(names, icon_grid(len(names), icon_area(area)), strict=True):
            forms.place(lookup(system, name), spot.x, spot.y, spot.w)
        if not names:
            c.setFillColorRGB(*GREY)
            c.setFont(fonts.REGULAR, 7)
            c.drawCentredString(area.x + area.w / 2, area.y + area.h / 2, "–")


def _frame(c: Canvas, forms: Forms, system: str, anchor: str, doubtful: bool, box: Box) -> None:
    """Slot outlines, labels, the Villain's shading and shield, badges; the anchor token."""
    for slot, area in slot_boxes(box).items():
        label = {"left": "left", "villain": "villain's", "right": "right"}[slot]
        if slot == "villain" and anchor != "villain":
            marker = lookup(system, anchor)
            size = min(area.w, area.h - LABEL_BAND) * 0.7
            forms.place(marker, area.x + (area.w - size) / 2, area.y + LABEL_BAND, size)
            _label(c, area, marker.label)
            continue
        if slot == "villain":
            c.setFillColorRGB(0.90, 0.89, 0.86)
            c.roundRect(area.x, area.y, area.w, area.h, 1.2 * MM, stroke=0, fill=1)
        c.setStrokeColorRGB(*(WARN if doubtful else GREY))
        c.setLineWidth(0.8 if doubtful or slot == "villain" else 0.5)
        if doubtful:
            c.setDash(2, 1.5)
        c.roundRect(area.x, area.y, area.w, area.h, 1.2 * MM, stroke=1, fill=0)
        c.setDash()
        if slot == "villain":
            shield = lookup(system, "villain")
            forms.place(shield, area.x + 0.6 * MM, area.y + 0.5 * MM, LABEL_BAND - 0.8 * MM)
        _label(c, area, label)
        if doubtful:
            _badge(c, *badge_centre(area))


def _label(c: Canvas, area: Box, text: str) -> None:
    c.setFont(fonts.REGULAR, 5)
    c.setFillColorRGB(*GREY)
    c.drawCentredString(area.x + area.w / 2, area.y + 0.9 * MM, text)


NO_TOKENS = "No tokens placed."


@dataclass(frozen=True)
class PlacementFigure:
    """A master plan card's placement, as its proof draws it."""

    system: str
    placement: dict[str, dict[str, int]] = field(default_factory=dict)
    anchor: str = "villain"
    no_tokens: bool = False  # the card says it places none

    def draw(self, c: Canvas, forms: Forms, box: Box, doubtful: frozenset[str]) -> None:
        if self.no_tokens:
            c.setFillColorRGB(*INK)
            c.setFont(fonts.REGULAR, 7)
            c.drawString(box.x, box.y + box.h / 2, NO_TOKENS)
            return
        draw(c, forms, self.system, self.placement, self.anchor, "place" in doubtful, box)
