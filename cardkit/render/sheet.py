"""Sheet layout as pure geometry: where each card, crop mark and back goes on a page.

Points, origin at the bottom left of the paper. Nothing here draws; the painter
reads these values, and tests check them without a PDF.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
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
    ruler: Segment  # a 100% scale bar along the bottom margin
    margin: float = 0.0  # the printer's unprintable edge
    band_gap: float = 0.0  # from the grid's bleed edge to the outer end of the crop marks

    @property
    def per_page(self) -> int:
        return len(self.trims)

    def backs(self, flip: str, offset: tuple[float, float] = (0.0, 0.0)) -> tuple[Box, ...]:
        """Where each card's back goes on the reverse side, so it lands behind its front.

        Long-edge duplex mirrors left and right; short-edge mirrors top and bottom.
        `offset` shifts the backs to correct a printer's misregistration.
        """
        dx, dy = offset
        backs = []
        for t in self.trims:
            if flip == "long":
                x, y = self.paper.w - t.x - t.w, t.y
            elif flip == "short":
                x, y = t.x, self.paper.h - t.y - t.h
            else:
                raise UsageError(f"--flip takes long or short, not '{flip}'")
            backs.append(Box(x + dx, y + dy, t.w, t.h))
        return tuple(backs)


@cache
def formats() -> dict[str, Any]:
    from cardkit import yamlio

    data = yamlio.load_text(FORMATS.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def paper_size(name: str) -> tuple[float, float]:
    papers = formats()["papers"]
    if name not in papers:
        raise UsageError(f"unknown paper '{name}'; choose one of {', '.join(papers)}")
    return points(papers[name]["width"]), points(papers[name]["height"])


def card_size(system: str) -> tuple[float, float]:
    """The system's card size: formats.yaml's `cards`, else the system's CARD_SIZE."""
    from cardkit import systems

    size = formats()["cards"].get(system) or systems.get(system).card_size
    if not size:
        raise UsageError(f"no card size for {system}: add it to render/formats.yaml `cards`")
    return points(size["width"]), points(size["height"])


def layout(paper: str, card: tuple[float, float], bleed: float) -> Layout:
    """As many cards as fit, in a centred grid, bleeds touching, crop marks outside them."""
    sheet = formats()["sheet"]
    width, height = paper_size(paper)
    margin = points(sheet["margin"])
    mark, gap = points(sheet["crop_mark"]), points(sheet["crop_gap"])
    ruler_room = points(sheet["ruler_room"])
    cell_w, cell_h = card[0] + 2 * bleed, card[1] + 2 * bleed
    room = margin + gap + mark  # crop marks sit between the grid and the margin
    cols = int((width - 2 * room) // cell_w)
    rows = int((height - 2 * room - ruler_room) // cell_h)
    if cols < 1 or rows < 1:
        size = f"{card[0] / 72 * 25.4:.1f} x {card[1] / 72 * 25.4:.1f} mm"
        raise UsageError(f"a {size} card with its bleed does not fit on {paper} paper")
    grid_w, grid_h = cols * cell_w, rows * cell_h
    left = (width - grid_w) / 2
    bottom = (height - grid_h + ruler_room) / 2
    trims = tuple(
        Box(left + c * cell_w + bleed, bottom + (rows - 1 - r) * cell_h + bleed, card[0], card[1])
        for r in range(rows)
        for c in range(cols)
    )
    marks: list[Segment] = []
    top, right = bottom + grid_h, left + grid_w
    for x in sorted({t.x for t in trims} | {t.x + t.w for t in trims}):
        marks += [(x, bottom - gap - mark, x, bottom - gap), (x, top + gap, x, top + gap + mark)]
    for y in sorted({t.y for t in trims} | {t.y + t.h for t in trims}):
        marks += [(left - gap - mark, y, left - gap, y), (right + gap, y, right + gap + mark, y)]
    length = points(sheet["ruler"])
    ruler = (left, margin + 1, left + length, margin + 1)
    return Layout(
        Box(0, 0, width, height),
        trims,
        bleed,
        tuple(marks),
        points(sheet["crop_width"]),
        ruler,
        margin,
        gap + mark,
    )
