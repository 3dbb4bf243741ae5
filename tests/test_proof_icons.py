"""Icons and placement diagrams: data per system, forms once per PDF, counts seen in pixels."""

from __future__ import annotations

import io
from collections import deque
from itertools import combinations
from typing import Any

import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import IndirectObject

from cardkit.games.marvel_united import diagram
from cardkit.games.marvel_united.diagram import PlacementFigure
from cardkit.render import content, face, icons, pdf, sheet
from cardkit.render.sheet import Box

MM = 72 / 25.4
MU = "marvel-united"
DPI = 200


def test_tokens_differ_in_colour_and_shape() -> None:
    tokens = [
        i for k, i in icons.icon_set(MU).items() if k == i.key and i.role in ("token", "anchor")
    ]
    assert {"civilian", "thug", "crisis"} <= {i.key for i in tokens}
    for one, other in combinations(tokens, 2):
        distance = sum((a - b) ** 2 for a, b in zip(one.rgb255, other.rgb255, strict=True)) ** 0.5
        assert distance > 80, (one.key, other.key)
        assert one.shape != other.shape, (one.key, other.key)
    everything = icons.palette(MU)
    for key in ("action", "heroic-action", "attack", "move", "wild", "bam"):
        assert key in everything
    assert icons.palette(MU, "token")["civilian"] == (0x1E, 0x6F, 0xD9)


def test_aliases_plurals_and_undeclared_tokens() -> None:
    assert icons.lookup(MU, "yellow-star").key == "heroic-action"
    assert icons.lookup(MU, "Thugs").key == "thug"
    odd = icons.lookup(MU, "doom_bot")
    assert (odd.glyph, odd.label, odd.role) == ("D", "Doom Bot", "token")
    assert icons.icon_set("no-such-system") == {}
    with pytest.raises(ValueError):
        icons.hex_colour("blue")


@pytest.mark.parametrize("count", range(1, 13))
def test_icon_grid_fits_without_overlap(count: int) -> None:
    area = Box(10, 20, 50, 35)
    boxes = diagram.icon_grid(count, area)
    assert len(boxes) == count
    for box in boxes:
        assert box.inside(area) and box.w == box.h > 0
    for one, other in combinations(boxes, 2):
        assert (
            one.x + one.w <= other.x
            or other.x + other.w <= one.x
            or one.y + one.h <= other.y
            or other.y + other.h <= one.y
        )


def test_tokens_are_drawn_in_the_systems_order() -> None:
    assert diagram.tokens_in_order(MU, {"thug": 2, "zzz": 1, "civilian": 1}) == [
        "civilian",
        "thug",
        "thug",
        "zzz",
    ]


def _components(image: Image.Image, box: Box, paper_h: float, rgb: tuple[int, int, int]) -> int:
    """Blobs of `rgb` (within a tolerance) inside `box` of the rendered page."""
    scale = DPI / 72
    left, top = round(box.x * scale), round((paper_h - box.y - box.h) * scale)
    width, height = round(box.w * scale), round(box.h * scale)
    pixels: Any = image.load()
    hit = set()
    for y in range(top, top + height):
        for x in range(left, left + width):
            p = pixels[x, y]
            if sum((a - b) ** 2 for a, b in zip(p, rgb, strict=True)) < 40**2:
                hit.add((x, y))
    blobs = 0
    while hit:
        queue = deque([hit.pop()])
        size = 0
        while queue:
            x, y = queue.popleft()
            size += 1
            for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if near in hit:
                    hit.remove(near)
                    queue.append(near)
        blobs += size > 30
    return blobs


PLACEMENTS = [
    (
        {"left": {"thug": 2, "civilian": 1}, "villain": {"civilian": 3}, "right": {"crisis": 1}},
        "villain",
    ),
    ({"left": {"thug": 1}, "right": {"civilian": 2, "thug": 2}}, "sewer"),
    ({"villain": {"thug": 5, "crisis": 2}}, "villain"),
]


@pytest.mark.parametrize("placement,anchor", PLACEMENTS)
@pytest.mark.parametrize("doubtful", [False, True])
def test_icons_per_slot_in_pixels_equal_the_data(
    placement: dict[str, dict[str, int]], anchor: str, doubtful: bool
) -> None:
    card = content.ProofCard(
        system=MU,
        deck="Test · Master Plan",
        title="Test 1",
        corner="Move 2",
        figure=PlacementFigure(MU, placement, anchor),
        unconfirmed=frozenset({"place"} if doubtful else ()),
    )
    layout = sheet.layout("a4", sheet.card_size(MU), 0)
    image = pdf.to_png(pdf.render([card], layout), DPI)[0].convert("RGB")
    box = face.regions(card, layout.trims[0]).diagram
    assert box is not None
    colours = icons.palette(MU, "token")
    for slot, area in diagram.slot_boxes(box).items():
        expected = placement.get(slot, {}) if not (slot == "villain" and anchor == "sewer") else {}
        for token, rgb in colours.items():
            assert _components(image, area, layout.paper.h, rgb) == expected.get(token, 0), (
                slot,
                token,
            )
    if anchor == "sewer":
        sewer = icons.palette(MU)["sewer"]
        middle = diagram.slot_boxes(box)["villain"]
        assert _components(image, middle, layout.paper.h, sewer) == 1


def _forms(reader: PdfReader) -> tuple[set[int], list[Any]]:
    ids: set[int] = set()
    fonts: list[Any] = []
    for page in reader.pages:
        resources = page["/Resources"]
        fonts += list(resources.get("/Font", {}).values())
        for ref in resources.get("/XObject", {}).values():
            assert isinstance(ref, IndirectObject)
            ids.add(ref.idnum)
            fonts += list(ref.get_object()["/Resources"].get("/Font", {}).values())
    return ids, fonts


def test_icons_are_forms_stored_once_and_fonts_are_embedded() -> None:
    card = content.ProofCard(
        system=MU,
        deck="Test",
        title="Test 1",
        figure=PlacementFigure(MU, {"left": {"thug": 1, "crisis": 1}, "right": {"civilian": 1}}),
        unconfirmed=frozenset({"place"}),
    )
    layout = sheet.layout("a4", sheet.card_size(MU), 0)
    data = pdf.render([card] * 30, layout, backs="long")
    reader = PdfReader(io.BytesIO(data))
    ids, fonts = _forms(reader)
    # thug, crisis, civilian, the villain's shield (in the legend) and the slots' frame:
    # one form each, however many sheets (4 here) use them
    assert len(reader.pages) == 8 and len(ids) == 5
    assert fonts
    for font in fonts:
        font = font.get_object()
        descendant = (
            font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        )
        descriptor = descendant["/FontDescriptor"].get_object()
        assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), font
    assert "Civilian" in reader.pages[0].extract_text()  # the legend names the icons


def test_inline_icons_in_text_become_icons_on_the_baseline() -> None:
    card = content.ProofCard(
        system=MU, deck="Test", title="Inline", text="Defeat 1 {thug} and rescue 2 {civilian} here."
    )
    layout = sheet.layout("a4", sheet.card_size(MU), 0)
    data = pdf.render([card], layout)
    text = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    assert "{thug}" not in text and "Defeat 1" in text and "rescue 2" in text
    image = pdf.to_png(data, DPI)[0].convert("RGB")
    box = face.regions(card, layout.trims[0]).text
    colours = icons.palette(MU, "token")
    assert _components(image, box, layout.paper.h, colours["thug"]) == 1
    assert _components(image, box, layout.paper.h, colours["civilian"]) == 1
    assert "Thug" in text  # and the legend names it
