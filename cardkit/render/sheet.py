"""Sheet layout as pure geometry: where each card, crop mark and back goes on a page.

Points, origin at the bottom left of the paper. Nothing here draws; the painter
reads these values, and tests check them without a PDF.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from cardkit.errors import UsageError
from cardkit.render.units import points

FORMATS = Path(__file__).with_name("formats.yaml")
LEGEND_LEAST = 2.5 * 72 / 25.4  # the thinnest band that holds a legend


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
    shortfall: str = ""  # why fewer cards than fit the printable area, and what to change

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
        # the marks below the grid move up under the last row used (into the empty places)
        lift = min(t.y for t in self.trims[:used]) - min(t.y for t in self.trims)
        bottom = min(t.y for t in self.trims)
        return tuple(
            (x1, y1 + lift, x2, y2 + lift) if x1 == x2 and y2 < bottom else (x1, y1, x2, y2)
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


def default_margin() -> float:
    return points(formats()["sheet"]["margin"])


def layout(
    paper: str,
    card: tuple[float, float],
    bleed: float,
    gutter: float | None = None,
    margin: float | None = None,
) -> Layout:
    """As many cards as fit, in a grid centred across the paper, with nothing drawn in
    the printer's `margin` (formats.yaml's `sheet.margin` by default, 0.25 in).

    `gutter` is the space between neighbouring cards: 0 shares cut lines (the bleed is
    only on the grid's outer edges), and each card keeps as much bleed as half the
    gutter. By default each card keeps its full bleed, unless sharing cut lines fits
    more cards. Every card keeps its whole bleed, crop marks sit outside the bleed on
    all four sides, and the ruler and the legend have their bands; a grid that cannot
    keep all of that gives up a row or a column, and `shortfall` says why and what to
    change.
    """
    if bleed < 0:
        raise UsageError("--bleed cannot be negative")
    if gutter is not None and gutter < 0:
        raise UsageError("--gutter cannot be negative")
    from cardkit.render.sheet_advice import margin_for, mm, shortfall

    margin = default_margin() if margin is None else margin
    if margin < 0:
        raise UsageError("--margin cannot be negative")
    found = best(paper, card, bleed, gutter, margin)
    shown = paper
    if found is None:  # a card too wide for the paper upright (a board): the paper turned
        width, height = paper_size(paper)
        turned = f"{height}ptx{width}pt"
        if width < height and (found := best(turned, card, bleed, gutter, margin)):
            paper, shown = turned, f"{paper} (landscape)"
    if found is None:
        size = f"{card[0] / 72 * 25.4:.1f} x {card[1] / 72 * 25.4:.1f} mm"
        raise UsageError(
            f"a {size} card does not fit on {paper} paper with its bleed, crop marks and "
            f"ruler inside the {mm(margin)} printable margin"
            + (
                f"; try --margin {mm(m)}"
                if (m := margin_for(paper, card, bleed, gutter, margin, 1)) is not None
                else ""
            )
        )
    room = _trims_that_fit(paper, card, margin)
    if found.per_page < room:
        note = shortfall(paper, card, bleed, gutter, margin, found.per_page, room)
        found = replace(found, shortfall=note.replace(paper, shown, 1))
    return found


def _trims_that_fit(paper: str, card: tuple[float, float], margin: float) -> int:
    width, height = paper_size(paper)
    return _count(width - 2 * margin, card[0], 0.0) * _count(height - 2 * margin, card[1], 0.0)


def best(
    paper: str, card: tuple[float, float], bleed: float, gutter: float | None, margin: float
) -> Layout | None:
    """The grid with the most cards that keeps bleed, marks, ruler and legend inside the
    printable area (None: not even one card does)."""
    if gutter is None:
        own = best(paper, card, bleed, 2 * bleed, margin)
        shared = best(paper, card, bleed, 0.0, margin)
        if own is None or (shared is not None and shared.per_page > own.per_page):
            return shared
        return own
    width, height = paper_size(paper)
    most_cols = _count(width - 2 * margin, card[0], gutter)
    most_rows = _count(height - 2 * margin, card[1], gutter)
    grids = sorted(
        ((c, r) for c in range(1, most_cols + 1) for r in range(1, most_rows + 1)),
        key=lambda cr: (-cr[0] * cr[1], abs(cr[0] - cr[1])),
    )
    for cols, rows in grids:
        found = _grid(paper, card, bleed, gutter, margin, cols, rows)
        if found is not None:
            return found
    return None


def _grid(
    paper: str,
    card: tuple[float, float],
    bleed: float,
    gutter: float,
    margin: float,
    cols: int,
    rows: int,
) -> Layout | None:
    """The grid of `cols` x `rows`, or None when its bleed, marks, ruler and legend do not
    all fit inside the printable area."""
    sheet = formats()["sheet"]
    width, height = paper_size(paper)
    mark, least_mark = points(sheet["crop_mark"]), points(sheet["crop_mark_least"])
    gap, ruler_room = points(sheet["crop_gap"]), points(sheet["ruler_room"])
    side_room = 3.5 * 72 / 25.4  # a ruler up the side: its line and ticks
    legend_least = LEGEND_LEAST
    printable = Box(margin, margin, width - 2 * margin, height - 2 * margin)
    grid_w = cols * card[0] + (cols - 1) * gutter
    grid_h = rows * card[1] + (rows - 1) * gutter
    spare_x = (printable.w - grid_w - 2 * bleed) / 2 - gap  # each side, past the bleed
    spare_y = printable.h - grid_h - 2 * bleed - 2 * gap  # both bands together
    if spare_x < least_mark or spare_y < 2 * least_mark:
        return None
    ruler_below = spare_y - 2 * least_mark >= ruler_room
    if not ruler_below and spare_x - least_mark < side_room:
        return None
    left_room = spare_y - 2 * least_mark - (ruler_room if ruler_below else 0.0)
    legend_above = left_room >= legend_least
    legend_side = not legend_above and spare_x - least_mark >= legend_least + (
        0.0 if ruler_below else side_room
    )
    beside = 155 * 72 / 25.4  # past the ruler (from the grid's left edge) and its label
    beside_ruler = ruler_below and grid_w + bleed - beside >= 20 * 72 / 25.4
    if not (legend_above or legend_side or beside_ruler):
        return None
    low = printable.y + (ruler_room if ruler_below else 0.0)
    high = printable.y + printable.h - (legend_least if legend_above else 0.0)
    bottom = (low + high - grid_h) / 2
    left = (width - grid_w) / 2
    mark_y = min(mark, (high - low - grid_h) / 2 - bleed - gap)
    side_need = side_room if not ruler_below else 0.0
    mark_x = min(mark, spare_x - side_need, spare_x - (legend_least if legend_side else 0.0))
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
            bleeds.append(
                Box(trim.x - lo_x, trim.y - lo_y, trim.w + lo_x + hi_x, trim.h + lo_y + hi_y)
            )
    top, right = bottom + grid_h, left + grid_w
    marks: list[Segment] = []
    xs = sorted({round(t.x, 6) for t in trims} | {round(t.x + t.w, 6) for t in trims})
    ys = sorted({round(t.y, 6) for t in trims} | {round(t.y + t.h, 6) for t in trims})
    for value in xs:  # up and down from the grid, past the bleed
        marks.append((value, bottom - bleed - gap - mark_y, value, bottom - bleed - gap))
        marks.append((value, top + bleed + gap, value, top + bleed + gap + mark_y))
    for value in ys:
        marks.append((left - bleed - gap - mark_x, value, left - bleed - gap, value))
        marks.append((right + bleed + gap, value, right + bleed + gap + mark_x, value))
    outer = Box(left - bleed, bottom - bleed, grid_w + 2 * bleed, grid_h + 2 * bleed)
    if legend_above:
        band_y = top + bleed + gap + mark_y
        legend: Box | None = Box(outer.x, band_y, outer.w, printable.y + printable.h - band_y)
    elif legend_side:
        band_x = right + bleed + gap + mark_x
        legend = Box(band_x, outer.y, printable.x + printable.w - band_x, outer.h)
    else:
        x = left + beside
        legend = Box(x, printable.y, outer.x + outer.w - x, min(ruler_room, legend_least + 1))
    length = points(sheet["ruler"])
    room = (width if ruler_below else height) - 2 * margin - 2
    while length > room and length > 10 * 72 / 25.4:  # small paper: a 50 mm ruler, then 25...
        length /= 2
    if ruler_below:
        start = max(margin + 1, min(left, width - margin - 1 - length))
        ruler = (start, margin + 1, start + length, margin + 1)
    else:
        x = margin + 1
        ruler = (x, (height - length) / 2, x, (height + length) / 2)
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
        legend_side,
    )
