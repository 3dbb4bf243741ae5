"""Why a sheet holds fewer cards than its printable area, and what would fit more.

`sheet.layout` asks this when its grid gives up rows or columns to keep the bleed, the
crop marks, the ruler and the legend inside the printable margin: the advice is found
by trying thinner bleeds and narrower margins (0.25 mm steps), not guessed.
"""

from __future__ import annotations

from cardkit.render.sheet import best


def mm(value: float) -> str:
    return f"{value / 72 * 25.4:.2f}".rstrip("0").rstrip(".") + "mm"


def shortfall(
    paper: str,
    card: tuple[float, float],
    bleed: float,
    gutter: float | None,
    margin: float,
    got: int,
    room: int,
) -> str:
    """Why a sheet holds fewer cards than fit its printable area, and what would fit more."""
    size = f"{card[0] / 72 * 25.4:.1f} x {card[1] / 72 * 25.4:.1f} mm"
    ways = []
    thinner = bleed_for(paper, card, bleed, gutter, margin, room)
    if thinner is not None:
        ways.append(f"--bleed {mm(thinner)}")
    narrower = margin_for(paper, card, bleed, gutter, margin, room)
    if narrower is not None:
        ways.append(f"--margin {mm(narrower)} (if your printer prints that close to the edge)")
    if not ways and bleed:
        both = margin_for(paper, card, 0.0, gutter, margin, room)
        if both is not None:
            ways.append(f"--bleed 0mm --margin {mm(both)}")
    change = f"; for {room}, use " + " or ".join(ways) if ways else ""
    return (
        f"{paper}: {got} {size} cards per sheet, not {room}: {room} leave no room inside "
        f"the {mm(margin)} printable margin for "
        + (f"a {mm(bleed)} bleed, " if bleed else "")
        + f"crop marks and the ruler{change}"
    )


def bleed_for(
    paper: str,
    card: tuple[float, float],
    bleed: float,
    gutter: float | None,
    margin: float,
    want: int,
) -> float | None:
    step = 0.25 * 72 / 25.4
    value = bleed - step
    while value >= -1e-9:
        found = best(paper, card, max(0.0, value), gutter, margin)
        if found is not None and found.per_page >= want:
            return max(0.0, value)
        value -= step
    return None


def margin_for(
    paper: str,
    card: tuple[float, float],
    bleed: float,
    gutter: float | None,
    margin: float,
    want: int,
) -> float | None:
    """The widest margin under `margin` (0.25 mm steps, not under 2 mm) that holds `want`."""
    step = 0.25 * 72 / 25.4
    value = round(margin / step) * step - step
    while value >= 2 * 72 / 25.4 - 1e-9:
        found = best(paper, card, bleed, gutter, value)
        if found is not None and found.per_page >= want:
            return value
        value -= step
    return None
