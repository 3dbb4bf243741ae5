"""The "?" badge on an unconfirmed slot is drawn whole, not cut by the diagram's edge."""

from __future__ import annotations

import math

import pytest
from PIL import Image

from cardkit.games.marvel_united import diagram
from cardkit.games.marvel_united.diagram import PlacementFigure
from cardkit.render import content, face, pdf, sheet

MU = "marvel-united"
DPI = 300
RED = (204, 26, 26)  # diagram.WARN


def _red_pixels(image: Image.Image, left: float, bottom: float, size: float, page_h: float) -> int:
    """Badge-red pixels in a square given in PDF points (origin bottom left)."""
    scale = DPI / 72
    box = (
        round(left * scale),
        round((page_h - bottom - size) * scale),
        round((left + size) * scale),
        round((page_h - bottom) * scale),
    )
    crop = image.crop(box)
    return sum(
        1
        for pixel in crop.get_flattened_data()
        if sum(abs(a - b) for a, b in zip(pixel, RED, strict=True)) < 60
    )


@pytest.mark.parametrize("anchor", ["villain", "sewer"])
def test_every_badge_is_a_whole_disc(anchor: str) -> None:
    card = content.ProofCard(
        system=MU,
        deck="Test · Master Plan",
        title="Test 3",
        figure=PlacementFigure(MU, {"left": {"civilian": 1}, "right": {"thug": 1}}, anchor),
        unconfirmed=frozenset({"place"}),
    )
    layout = sheet.layout("a4", sheet.card_size(MU), 0)
    image = pdf.to_png(pdf.render([card], layout), DPI)[0].convert("RGB")
    box = face.regions(card, layout.trims[0]).diagram
    assert box is not None
    radius = diagram.BADGE
    disc = math.pi * (radius * DPI / 72) ** 2
    slots = diagram.slot_boxes(box)
    badged = [s for s in slots if not (s == "villain" and anchor != "villain")]
    for slot in badged:
        area = slots[slot]
        x, y = diagram.badge_centre(area)
        whole = _red_pixels(image, x - radius, y - radius, 2 * radius, layout.paper.h)
        # the white "?" takes a little of the disc; a badge cut at the diagram's top or
        # right edge loses half of it or more
        assert 0.7 * disc < whole <= 1.05 * disc, (slot, whole, disc)
        above = _red_pixels(image, x - radius, box.y + box.h, 2 * radius, layout.paper.h)
        assert above > 0.1 * disc, (slot, "the part above the slots is cut off")
