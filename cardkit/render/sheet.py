"""Sheet layout as pure geometry: where each card, crop mark and back goes on a page.

Points, origin at the bottom left of the paper. Nothing here draws; the painter
reads these values, and tests check them without a PDF.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from cardkit.errors import UsageError
from cardkit.render.units import points

FORMATS = Path(__file__).with_name("formats.yaml")


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    def grown(self, by: float) -> Box:
        return Box(self.x - by, self.y - by, self.w + 2 * by, self.h + 2 * by)

    def inside(self, other: Box, tolerance: float = 1e-6) -> bool:
        return (
            self.x >= other.x - tolerance
            and self.y >= other.y - tolerance
            and self.x + self.w <= other.x + other.w + tolerance
            and self.y + self.h <= other.y + other.h + tolerance
        )


Segment = tuple[float, float, float, float]


@dataclass(frozen=True)
class Layout:
    paper: Box
    trims: tuple[Box, ...]  # where each card is cut, in reading order (top row first)
    bleed: float
    crop_marks: tuple[Segment, ...]
    crop_width: float
    ruler: Segment  # a 100% scale bar: along the bottom band, or up a side band
    margin: float = 0.0  # the printer's unprintable edge
    gutter: float = 0.0  # between neighbouring cards; 0 = shared cut lines
    bleeds: tuple[Box, ...] = ()  # each card's painted area: trim plus the bleed it has room for
    legend: Box | None = None  # a band for the icon legend, if the sheet has one
    legend_vertical: bool = False  # the legend runs up a side band

    @property
    def per_page(self) -> int:
        return len(self.trims)

    def marks_for(self, used: int) -> tuple[Segment, ...]:
        """The crop marks of the cut lines the first `used` cards have: a part-filled
        last sheet gets no marks for lines that only bound empty places."""
        if used >= len(self.trims):
            return self.crop_marks
        xs = {round(v, 6) for t in self.trims[:used] for v in (t.x, t.x + t.w)}
        ys = {round(v, 6) for t in self.trims[:used] for v in (t.y, t.y + t.h)}
        return tuple(
            (x1, y1, x2, y2)
            for x1, y1, x2, y2 in self.crop_marks
            if (round(x1, 6) in xs if x1 == x2 else round(y1, 6) in ys)
        )

    @property
    def vertical_ruler(self) -> bool:
        return self.ruler[0] == self.ruler[2]

    def backs(self, flip: str, offset: tuple[float, float] = (0.0, 0.0)) -> tuple[Box, ...]:
        """Where each card's back goes on the reverse side, so it lands behind its front.

        Long-edge duplex mirrors left and right; short-edge mirrors top and bottom.
        `offset` shifts the backs to correct a printer's misregistration.
        """
        return tuple(self.mirror(t, flip, offset) for t in self.trims)

    def mirror(self, box: Box, flip: str, offset: tuple[float, float] = (0.0, 0.0)) -> Box:
        dx, dy = offset
        if flip == "long":
            x, y = self.paper.w - box.x - box.w, box.y
        elif flip == "short":
            x, y = box.x, self.paper.h - box.y - box.h
        else:
            raise UsageError(f"--flip takes long or short, not '{flip}'")
        return Box(x + dx, y + dy, box.w, box.h)


@cache
def formats() -> dict[str, Any]:
    from cardkit.files import yamlio

    data = yamlio.load_text(FORMATS.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


_CUSTOM = re.compile(
    r"^\s*([0-9.]+\s*(?:mm|cm|in|pt))\s*[x×]\s*([0-9.]+\s*(?:mm|cm|in|pt))\s*$", re.I
)


def paper_size(name: str) -> tuple[float, float]:
    """A named paper (any case) or a custom size such as `210mmx297mm`."""
    papers = formats()["papers"]
    key = name.strip().lower()
    if key in papers:
        return points(papers[key]["width"]), points(papers[key]["height"])
    custom = _CUSTOM.match(name)
    if custom:
        width, height = points(custom[1].lower()), points(custom[2].lower())
        if width >= 36 and height >= 36 and max(width, height) <= 14400:
            return width, height
    raise UsageError(
        f"unknown paper '{name}'; choose one of {', '.join(papers)} or a size like 210mmx297mm"
    )


def card_size(system: str, kind: str = "") -> tuple[float, float]:
    """formats.yaml's `system/kind`, else `system`, else the system's CARD_SIZE.

    No system (an alignment sheet with no cards) takes formats.yaml's `default`.
    """
    from cardkit import systems

    cards = formats()["cards"]
    entry = cards.get(f"{system}/{kind}") or cards.get(system)
    if not entry and system in ("", "default"):
        entry = cards["default"]
    if not entry:
        entry = systems.get(system).card_size
    if not entry:
        raise UsageError(f"no card size for {system}: add it to render/formats.yaml `cards`")
    return points(entry["width"]), points(entry["height"])


def _count(room: float, card: float, gutter: float) -> int:
    return max(0, int((room + gutter + 1e-6) // (card + gutter)))


def layout(
    paper: str, card: tuple[float, float], bleed: float, gutter: float | None = None
) -> Layout:
    """As many cards as fit, in a centred grid, crop marks outside the bleed.

    `gutter` is the space between neighbouring cards: 0 shares cut lines (the bleed is
    only on the grid's outer edges), and each card keeps as much bleed as half the
    gutter. By default each card keeps its full bleed, unless sharing cut lines fits
    more cards. Trims stay inside the printable area; where the grid leaves no band
    for the ruler below it, the ruler moves up a side band.
    """
    if bleed < 0:
        raise UsageError("--bleed cannot be negative")
    if gutter is not None and gutter < 0:
        raise UsageError("--gutter cannot be negative")
    if gutter is None:
        own = _grid(paper, card, bleed, 2 * bleed)
        shared = _grid(paper, card, bleed, 0.0)
        return shared if shared.per_page > own.per_page else own
    return _grid(paper, card, bleed, gutter)


def _grid(paper: str, card: tuple[float, float], bleed: float, gutter: float) -> Layout:
    sheet = formats()["sheet"]
    width, height = paper_size(paper)
    margin = points(sheet["margin"])
    mark, gap = points(sheet["crop_mark"]), points(sheet["crop_gap"])
    ruler_room = points(sheet["ruler_room"])
    cols = _count(width - 2 * margin, card[0], gutter)
    rows_with_ruler = _count(height - 2 * margin - ruler_room, card[1], gutter)
    rows = _count(height - 2 * margin, card[1], gutter)
    if cols < 1 or rows < 1:
        size = f"{card[0] / 72 * 25.4:.1f} x {card[1] / 72 * 25.4:.1f} mm"
        raise UsageError(f"a {size} card does not fit on {paper} paper")
    side_room = 3.5 * 72 / 25.4  # a ruler up the side: its line and ticks
    while True:
        grid_w = cols * card[0] + (cols - 1) * gutter
        grid_h = rows * card[1] + (rows - 1) * gutter
        left = (width - grid_w) / 2
        bottom = (height - grid_h + ruler_room) / 2
        # the ruler goes below the grid when that costs no row and the crop marks clear it,
        # else up the left side if there is a band; else the grid gives up a row or column
        band_below = rows_with_ruler == rows and bottom - bleed - gap - mark >= margin + ruler_room
        if band_below or left - margin >= side_room:
            break
        if rows > 1 and rows * cols - cols >= (cols - 1) * rows:
            rows -= 1
        elif cols > 1:
            cols -= 1
        else:
            raise UsageError(f"a card this size does not fit on {paper} paper with its ruler")
    if not band_below:
        bottom = (height - grid_h) / 2
    inner = min(bleed, gutter / 2)
    trims, bleeds = [], []
    for r in range(rows):
        for c in range(cols):
            trim = Box(
                left + c * (card[0] + gutter),
                bottom + (rows - 1 - r) * (card[1] + gutter),
                card[0],
                card[1],
            )
            trims.append(trim)
            lo_x = bleed if c == 0 else inner
            hi_x = bleed if c == cols - 1 else inner
            lo_y = bleed if r == rows - 1 else inner
            hi_y = bleed if r == 0 else inner
            # the bleed ends at the paper's edge (what lies beyond could never print)
            lo_x, lo_y = min(lo_x, trim.x), min(lo_y, trim.y)
            hi_x, hi_y = min(hi_x, width - trim.x - trim.w), min(hi_y, height - trim.y - trim.h)
            bleeds.append(
                Box(trim.x - lo_x, trim.y - lo_y, trim.w + lo_x + hi_x, trim.h + lo_y + hi_y)
            )
    top, right = bottom + grid_h, left + grid_w
    marks: list[Segment] = []
    xs = sorted({round(t.x, 6) for t in trims} | {round(t.x + t.w, 6) for t in trims})
    ys = sorted({round(t.y, 6) for t in trims} | {round(t.y + t.h, 6) for t in trims})
    # marks sit beyond the bleed and inside the printable area; where the band is too
    # narrow for that they start at the trim instead (over the bleed, which is cut away)
    for low, high, floor, lines, vertical in (
        (bottom, top, margin, xs, True),
        (left, right, margin, ys, False),
    ):
        start = bleed + gap if low - bleed - gap - mark >= floor else gap
        length = max(0.0, min(mark, low - start - floor))
        if length < 0.3 * mark:
            # no band outside the grid: short marks in the gutters between the cards
            gutters = _gutters(ys if vertical else xs, gutter)
            for value in lines:
                for a, b in gutters:
                    marks.append((value, a, value, b) if vertical else (a, value, b, value))
            continue
        for value in lines:
            pair = ((low - start - length, low - start), (high + start, high + start + length))
            for a, b in pair:
                marks.append((value, a, value, b) if vertical else (a, value, b, value))
    length = points(sheet["ruler"])
    legend, legend_vertical = _legend_band(
        Box(left - bleed, bottom - bleed, grid_w + 2 * bleed, grid_h + 2 * bleed),
        Box(margin, margin, width - 2 * margin, height - 2 * margin),
        gap + mark,
        band_below,
    )
    room = (width if band_below else height) - 2 * margin - 2
    while length > room and length > 10 * 72 / 25.4:  # small paper: a 50 mm ruler, then 25...
        length /= 2
    if band_below:
        start = max(margin + 1, min(left, width - margin - 1 - length))
        ruler = (start, margin + 1, start + length, margin + 1)
    else:
        x = margin + 1
        ruler = (x, (height - length) / 2, x, (height + length) / 2)
        marks = _clear_of_ruler(marks, x + 3 * 72 / 25.4, left)
    return Layout(
        Box(0, 0, width, height),
        tuple(trims),
        bleed,
        tuple(marks),
        points(sheet["crop_width"]),
        ruler,
        margin,
        gutter,
        tuple(bleeds),
        legend,
        legend_vertical,
    )


def _clear_of_ruler(marks: list[Segment], clear: float, left: float) -> list[Segment]:
    """Left-hand marks shortened to start past a vertical ruler's ticks (dropped if tiny)."""
    kept = []
    for x1, y1, x2, y2 in marks:
        if y1 == y2 and max(x1, x2) <= left and min(x1, x2) < clear:
            if max(x1, x2) - clear < 1.0 * 72 / 25.4:
                continue
            x1, x2 = clear, max(x1, x2)
        kept.append((x1, y1, x2, y2))
    return kept


def _gutters(edges: list[float], gutter: float) -> list[tuple[float, float]]:
    """The spans between neighbouring cards (pairs of cut lines `gutter` apart).

    A gutter under a point has no room for a visible mark (and float rounding would put
    one over the trim), so it gets none, like shared cut lines.
    """
    if gutter < 1.0:
        return []
    return [
        (a + gutter * 0.2, b - gutter * 0.2)
        for a, b in pairwise(edges)
        if abs(b - a - gutter) < 1e-3
    ]


def _legend_band(
    grid: Box, printable: Box, marks: float, ruler_below: bool
) -> tuple[Box | None, bool]:
    """Room for the icon legend: above the grid, else up the right-hand band."""
    least = 2.5 * 72 / 25.4
    top = grid.y + grid.h + marks
    if printable.y + printable.h - top >= least:
        return Box(grid.x, top, grid.w, printable.y + printable.h - top), False
    right = grid.x + grid.w + marks
    if printable.x + printable.w - right >= least:
        return Box(right, grid.y, printable.x + printable.w - right, grid.h), True
    if ruler_below:  # beside the ruler's label in the band below the grid
        x = grid.x + 150 * 72 / 25.4
        if grid.x + grid.w - x >= 20 * 72 / 25.4:
            return Box(x, printable.y, grid.x + grid.w - x, least), False
    return None, False
