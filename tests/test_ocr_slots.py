"""The placement diagram on any design (cardkit/ocr/slots.py, shapes.py, palette.py,
calibrate.py): slot rows and the Villain's mark on hand-drawn cards, icons named by colour
and shape, palette files and their mistakes, calibration, and the real engine on one
design-b card. Every expected count is written by hand from what the test draws."""

from __future__ import annotations

import math
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from PIL import Image, ImageDraw

from cardkit.ocr import calibrate, page, palette, shapes, slot_icons, slots
from tests.drawn_fonts import dejavu

BLUE, RED, GREEN = (40, 90, 200), (200, 40, 40), (40, 160, 60)
PAPER, SLOT, EDGE = (240, 230, 205), (222, 210, 178), (90, 70, 40)


def _icon(
    pen: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float, fill: tuple[int, int, int]
) -> None:
    if shape == "circle":
        pen.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif shape == "ring":
        pen.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
        pen.ellipse((cx - r / 2, cy - r / 2, cx + r / 2, cy + r / 2), fill=SLOT)
    elif shape == "square":
        pen.rectangle((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif shape == "triangle":
        points = [
            (cx + r * math.cos(a), cy + r * math.sin(a))
            for a in (-math.pi / 2, math.pi / 6, 5 * math.pi / 6)
        ]
        pen.polygon(points, fill=fill)


def _card(
    slots_icons: list[list[tuple[str, tuple[int, int, int]]]],
    marked: int | None = None,
    outline: bool = True,
    odd_fill: int | None = None,
    ground: tuple[int, int, int] = PAPER,
) -> Image.Image:
    """A card with a row of slots 200 x 170 px, 20 px apart, each holding its icons (radius
    22, 60 px apart); a bar just under slot `marked`; slot `odd_fill` filled darker."""
    card = Image.new("RGB", (760, 1060), ground)
    pen = ImageDraw.Draw(card)
    width = len(slots_icons) * 200 + (len(slots_icons) - 1) * 20
    x0 = (760 - width) // 2
    for n, icons in enumerate(slots_icons):
        left = x0 + n * 220
        fill = (150, 140, 120) if n == odd_fill else SLOT
        pen.rounded_rectangle(
            (left, 300, left + 200, 470), 14, fill=fill, outline=EDGE if outline else None, width=4
        )
        if n == marked:
            pen.rectangle((left + 50, 480, left + 150, 490), fill=(30, 100, 110))
        first = left + 100 - (len(icons) - 1) * 30
        for i, (shape, colour) in enumerate(icons):
            _icon(pen, shape, first + i * 60, 385, 22, colour)
    return card


def _palette(text: str, tmp_path: Path) -> palette.BoxPalette:
    path = tmp_path / "palette.yaml"
    path.write_text(text)
    return palette.load(path)


BOX = """provenance: written for this test
tokens:
  civilian: {colour: '#285ac8', shape: triangle}
  thug: {colour: '#c82828', shape: square}
  hostage: {colour: '#285ac8', shape: ring}
"""


def test_a_row_of_three_framed_slots_is_found_and_the_marked_one_is_the_villains(
    tmp_path: Path,
) -> None:
    card = _card(
        [
            [("triangle", BLUE)],
            [("square", RED), ("triangle", BLUE)],
            [("square", RED), ("square", RED)],
        ],
        marked=1,
    )
    boxes = slots.find_slots(card)
    assert len(boxes) == 3
    assert [round(b[0] / 10) for b in boxes] == [6, 28, 50]  # x0 = (760 - 640) / 2 = 60, +220
    found = slots.read_placement(card, _palette(BOX, tmp_path))
    assert found is not None and found.sure and found.marked_by == "a mark"
    assert found.place() == {
        "left": {"civilian": 1},
        "villain": {"thug": 1, "civilian": 1},
        "right": {"thug": 2},
    }


def test_two_panels_without_outline_on_a_dark_card_the_villains_told_by_its_fill(
    tmp_path: Path,
) -> None:
    """Three unframed panels; the Villain's is filled darker than the other two."""
    card = _card(
        [[("ring", BLUE)], [], [("triangle", BLUE)]], outline=False, odd_fill=1, ground=(30, 36, 60)
    )
    found = slots.read_placement(card, _palette(BOX, tmp_path))
    assert found is not None and found.marked_by == "its fill"
    assert [s.name for s in found.slots] == ["left", "villain", "right"]
    assert found.place() == {"left": {"hostage": 1}, "right": {"civilian": 1}}  # a ring has a hole


def test_of_two_slots_the_one_with_a_bar_under_it_is_the_villains(tmp_path: Path) -> None:
    card = _card([[("square", RED)], [("triangle", BLUE), ("triangle", BLUE)]], marked=1)
    found = slots.read_placement(card, _palette(BOX, tmp_path))
    assert found is not None
    assert [s.name for s in found.slots] == ["left", "villain"]
    assert found.place() == {"left": {"thug": 1}, "villain": {"civilian": 2}}


def test_faint_unframed_panels_and_a_label_well_above_the_villains_are_found(
    tmp_path: Path,
) -> None:
    """Panels 12 levels darker than the card, no outline; a dark bar 30-45 px over the
    middle one (17-25% of its 180 px height: further than a mark against its edge)."""
    card = Image.new("RGB", (750, 1050), (240, 240, 240))
    pen = ImageDraw.Draw(card)
    for n, icons in enumerate([["triangle"], ["square", "square"], []]):
        left = 60 + n * 220
        pen.rectangle((left, 400, left + 190, 580), fill=(228, 228, 228))
        if n == 1:
            pen.rectangle((left + 60, 355, left + 130, 370), fill=(20, 20, 20))
        for i, shape in enumerate(icons):
            _icon(
                pen,
                shape,
                left + 95 + (i - (len(icons) - 1) / 2) * 60,
                490,
                22,
                BLUE if shape == "triangle" else RED,
            )
    found = slots.read_placement(card, _palette(BOX, tmp_path))
    assert found is not None and found.marked_by == "a mark"
    assert found.place() == {"left": {"civilian": 1}, "villain": {"thug": 2}}


def _hexagon(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """A hexagon with points left and right, flat top and bottom."""
    return [
        (cx + r * math.cos(k * math.pi / 3), cy + r * math.sin(k * math.pi / 3)) for k in range(6)
    ]


def test_a_column_of_hexagons_beside_the_cards_border_reads_top_to_bottom(
    tmp_path: Path,
) -> None:
    """Three hexagons (radius 80, flat top and bottom) one above another at the right edge,
    a line of the card's border 12 px to their right; a triangle pointing at the middle
    one from its left; the middle one is dark green with five pale bars across it (a grate,
    no token). The top one holds a square and a triangle, the bottom one a ring."""
    card = Image.new("RGB", (760, 1060), PAPER)
    pen = ImageDraw.Draw(card)
    pen.line((732, 40, 732, 1020), fill=EDGE, width=4)
    centres = [(640, 330), (640, 500), (640, 670)]
    for n, (cx, cy) in enumerate(centres):
        fill = (30, 90, 60) if n == 1 else SLOT
        pen.polygon(_hexagon(cx, cy, 80), fill=fill, outline=EDGE, width=5 if n == 1 else 3)
    for k in range(5):
        y = 500 - 44 + k * 22
        pen.rectangle((585, y, 695, y + 4), fill=(200, 230, 210))
    pen.polygon([(530, 480), (530, 520), (552, 500)], fill=EDGE)  # the pointer
    _icon(pen, "square", 610, 330, 22, RED)
    _icon(pen, "triangle", 670, 332, 22, BLUE)
    _icon(pen, "ring", 640, 670, 22, BLUE)
    boxes = slots.find_slots(card)
    assert len(boxes) == 3 and boxes[0][1] < boxes[1][1] < boxes[2][1]  # top to bottom
    found = slots.read_placement(card, _palette(BOX, tmp_path))
    assert found is not None and found.marked_by == "a mark"
    assert [s.name for s in found.slots] == ["left", "villain", "right"]
    assert found.place() == {"left": {"thug": 1, "civilian": 1}, "right": {"hostage": 1}}


def test_an_icon_of_no_token_is_counted_as_unknown_and_the_placement_is_unsure(
    tmp_path: Path,
) -> None:
    # a green square (no token is green) and a blue square (blue tokens are triangles and rings)
    card = _card([[("square", GREEN)], [("square", BLUE)], []], marked=0)
    found = slots.read_placement(card, _palette(BOX, tmp_path))
    assert found is not None and not found.sure
    assert [s.icons for s in found.slots] == [["unknown"], ["unknown"], []]
    assert "villain: unknown" in found.described()


def test_without_a_mark_the_villains_slot_is_not_known() -> None:
    card = _card([[("square", RED)], [("square", RED)], [("square", RED)]])
    found = slots.read_placement(card, palette.builtin("marvel-united"))
    assert found is not None and not found.villain_known and not found.sure
    assert [len(s.found) for s in found.slots] == [1, 1, 1]


def test_a_slot_holding_the_one_icon_of_no_token_is_the_villains_and_it_is_its_marker(
    tmp_path: Path,
) -> None:
    """No mark outside the slots; the middle slot holds a green circle (no token) beside a
    thug: it is the Villain's slot, the circle its marker, not counted. Calibrated the same."""
    card = _card([[("triangle", BLUE)], [("circle", GREEN), ("square", RED)], [("square", RED)]])
    found = slots.read_placement(card, _palette(BOX, tmp_path))
    assert found is not None and found.sure and found.marked_by == "a mark inside it"
    assert found.place() == {"left": {"civilian": 1}, "villain": {"thug": 1}, "right": {"thug": 1}}
    confirmed = {"left": {"civilian": 1}, "villain": {"thug": 1}, "right": {"thug": 1}}
    learnt = calibrate.learn([("shield", card, confirmed)], "a marker inside")
    assert [t.name for t in learnt.palette.tokens] == ["civilian", "thug"] and learnt.icons == 3


def test_named_shapes_tell_a_triangle_a_square_a_diamond_and_a_ring() -> None:
    def drawn(shape: str) -> shapes.Shape:
        image = Image.new("L", (80, 80), 0)
        pen = ImageDraw.Draw(image)
        if shape == "diamond":
            pen.polygon([(40, 10), (70, 40), (40, 70), (10, 40)], fill=255)
        elif shape == "ring":
            pen.ellipse((10, 10, 70, 70), fill=255)
            pen.ellipse((28, 28, 52, 52), fill=0)
        elif shape == "square":
            pen.rectangle((10, 10, 70, 70), fill=255)
        else:
            pen.polygon([(40, 10), (70, 62), (10, 62)], fill=255)
        found = shapes.measure(__import__("numpy").asarray(image) > 127)
        assert found is not None
        return found

    for shape in ("triangle", "square", "diamond", "ring"):
        assert shapes.nearest(drawn(shape), 60)[0] == shape


@pytest.mark.parametrize(
    ("text", "where", "says"),
    [
        ("tokens:\n  civilian: {colour: '#12345', shape: triangle}\n", ":2:22:", "hex"),
        (
            "tokens:\n  civilian: {colour: '#123456', shape: blob}\n",
            ":2:40:",
            "unknown shape 'blob'",
        ),
        ("provenance: x\n", ":1:1:", "needs `tokens:`"),
        ("tokens:\n  thug: {shape: square}\n", ":2:9:", "needs a colour"),
        ("tokens: [a\n", ":2:1:", "not YAML"),
        ("tolerance: {colour: -3}\ntokens:\n  a: {colour: '#000000'}\n", ":1:21:", "number"),
    ],
)
def test_a_palette_file_mistake_is_one_line_naming_file_line_and_column(
    tmp_path: Path, text: str, where: str, says: str
) -> None:
    with pytest.raises(palette.PaletteError) as err:
        _palette(text, tmp_path)
    message = str(err.value)
    assert message.startswith(str(tmp_path / "palette.yaml") + where), message
    assert says in message and "\n" not in message


def test_a_palette_file_reads_colours_shapes_and_tolerances(tmp_path: Path) -> None:
    made = _palette(BOX + "tolerance: {colour: 30, shape: 0.2}\n", tmp_path)
    assert [t.name for t in made.tokens] == ["civilian", "thug", "hostage"]
    assert made.tokens[0].shape == "triangle" and made.colour_tolerance == 30
    assert made.provenance == "written for this test"
    again = palette.parse(palette.dump(made), tmp_path / "again.yaml")
    assert [t.name for t in again.tokens] == ["civilian", "thug", "hostage"]


def test_calibration_learns_each_token_from_a_confirmed_card_and_names_another() -> None:
    """One card confirmed by hand (a mixed slot too), another read with what it taught."""
    taught = _card(
        [[("triangle", BLUE)], [("square", RED), ("triangle", BLUE)], [("square", RED)]], marked=1
    )
    confirmed = {
        "left": {"civilian": 1},
        "villain": {"thug": 1, "civilian": 1},
        "right": {"thug": 1},
    }
    learnt = calibrate.learn([("taught", taught, confirmed)], "a hand-made pair")
    assert [t.name for t in learnt.palette.tokens] == ["civilian", "thug"]
    assert learnt.icons == 4 and learnt.notes == []
    other = _card([[("square", RED), ("square", RED)], [], [("triangle", BLUE)]], marked=1)
    found = slots.read_placement(other, learnt.palette)
    assert found is not None and found.sure
    assert found.place() == {"left": {"thug": 2}, "right": {"civilian": 1}}
    wrong = calibrate.learn([("short", taught, {"left": {"civilian": 2}})], "miscounted")
    assert wrong.notes == [  # the slots it does not confirm hold icons too
        "short: left: 1 icons found, 2 confirmed",
        "short: right: 1 icons found, 0 confirmed",
        "short: villain: 2 icons found, 0 confirmed",
    ]


DESIGN_B = Path(__file__).resolve().parent.parent / "scans" / "samples" / "marvel-united-design-b"
# design-b's tokens as a person would describe the box: civilians are blue triangles, thugs
# purple pentagons (colours picked from the card, the way a person with a colour picker would)
DESIGN_B_BOX = """provenance: written by hand from the design-b card (blue triangles, purple pentagons)
tokens:
  civilian: {colour: '#228bb2', shape: triangle}
  thug: {colour: '#7030a0', shape: pentagon}
"""


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract")
def test_the_real_engine_reads_a_design_b_placement_with_a_box_palette(
    tmp_path: Path, cli: Any
) -> None:
    """Blastaar 1 as design-b paints it: a blue triangle in the left slot, a purple
    pentagon and a blue triangle in the starred middle slot, a blue triangle on the right."""
    scans = tmp_path / "scans"
    scans.mkdir()
    shutil.copy(DESIGN_B / "design-b-blastaar-mp01-clean.png", scans / "blastaar-1.png")
    (scans / "palette.yaml").write_text(DESIGN_B_BOX)  # found beside the scans
    out = tmp_path / "out"
    result = cli(["ocr", str(scans), "--out", str(out), "-j", "1"])
    assert result.returncode == 0, result.stderr
    draft = yaml.safe_load((out / "blastaar-1.yaml").read_text())
    assert draft["card"]["place"] == {
        "left": {"civilian": 1},
        "villain": {"thug": 1, "civilian": 1},
        "right": {"civilian": 1},
    }
    assert "card/place" not in (draft.get("unconfirmed") or [])
    # the draft, confirmed as it is, calibrates a palette that names the same tokens
    target = tmp_path / "learnt.yaml"
    made = cli(["palette", str(out / "blastaar-1.yaml"), "--out", str(target)])
    assert made.returncode == 0, made.stderr
    learnt = palette.load(target)
    assert [t.name for t in learnt.tokens] == ["civilian", "thug"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("tokens:\n  civilian: {colour: blue}\n")
    refused = cli(["ocr", str(scans), "--out", str(out), "--palette", str(bad)])
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [
        f"cardkit: {bad}:2:22: civilian: colour must be hex like '#2290b2'"
    ]


def test_a_palette_that_learnt_no_token_is_not_written(tmp_path: Path, cli: Any) -> None:
    """A confirmed draft whose scan shows no row of slots (a blank card) teaches nothing:
    `cardkit palette` says so and writes no file (a palette naming no token is refused
    by `cardkit ocr --palette`), exit 1."""
    from PIL import Image

    scan = tmp_path / "blank.png"
    Image.new("RGB", (500, 700), (240, 236, 228)).save(scan)
    draft = tmp_path / "blank.yaml"
    draft.write_text(
        "kind: marvel-united/masterplan-card\nid: blank\n"
        f"card: {{n: 1, move: 2, place: {{left: {{civilian: 1}}}}}}\n"
        f"provenance: {{scan: {scan}}}\n"
    )
    target = tmp_path / "learnt.yaml"
    made = cli(["palette", str(draft), "--out", str(target)])
    assert made.returncode == 1, made.stderr
    assert "no token learnt from 1 drafts" in made.stderr
    assert not target.exists()


def test_a_small_disc_slot_with_a_ring_thicker_than_its_inset_reads_its_icons(
    tmp_path: Path,
) -> None:
    """Three discs 90 px wide (a 150 dpi scan), the middle one's ring 9 px thick (thicker
    than the 5 px inset), a chevron under it; a blue triangle in each disc, 20 px."""
    card = Image.new("RGB", (372, 522), (232, 240, 234))
    pen = ImageDraw.Draw(card)
    for n in range(3):
        left = 41 + 100 * n
        ring = 9 if n == 1 else 2
        pen.ellipse(
            (left, 335, left + 90, 425), fill=(214, 226, 214), outline=(44, 58, 36), width=ring
        )
        _icon(pen, "triangle", left + 45, 381, 11, BLUE)
    pen.polygon([(171, 430), (201, 430), (186, 442)], fill=(44, 58, 36))
    found = slots.read_placement(card, _palette(BOX, tmp_path))
    assert found is not None and [s.name for s in found.slots] == ["left", "villain", "right"]
    assert found.place() == {n: {"civilian": 1} for n in ("left", "villain", "right")}


def test_a_blurred_icon_is_measured_at_its_edge_not_its_rim(tmp_path: Path) -> None:
    """Plus crosses (arms a third of their 40 px) in three framed slots, blurred twice as
    much as a phone photo blurs them (Gaussian, radius 2): measured where their colour is
    halfway to the fill, they are still the crosses they were, named by the sharp cross's
    measures (as `cardkit palette` takes them from a clean scan)."""
    from PIL import ImageFilter

    card = Image.new("RGB", (760, 1060), PAPER)
    pen = ImageDraw.Draw(card)
    for n in range(3):
        left = 60 + n * 220
        pen.rounded_rectangle((left, 300, left + 200, 470), 14, fill=SLOT, outline=EDGE, width=4)
        cx, cy = left + 100, 385
        pen.rectangle((cx - 20, cy - 7, cx + 20, cy + 7), fill=GREEN)
        pen.rectangle((cx - 7, cy - 20, cx + 7, cy + 20), fill=GREEN)
        if n == 1:
            pen.rectangle((left + 50, 480, left + 150, 490), fill=(30, 100, 110))
    sharp = slot_icons.icons_in(card, (60, 300, 260, 470))[0].shape
    measures = ", ".join(f"{m}: {getattr(sharp, m):.3f}" for m in shapes.MEASURES)
    crosses = (
        "provenance: test\ntokens:\n"
        f"  civilian: {{colour: '#28a03c', shape: {{{measures}, holes: 0}}}}\n"
    )
    blurred = card.filter(ImageFilter.GaussianBlur(2))
    found = slots.read_placement(blurred, _palette(crosses, tmp_path))
    assert found is not None
    assert found.place() == {n: {"civilian": 1} for n in ("left", "villain", "right")}
    # measured as the sharp cross is, within the tolerance a palette allows
    rim = slot_icons.icons_in(blurred, (60, 300, 260, 470))[0]
    assert rim.shape.distance(sharp) <= palette.SHAPE_TOLERANCE


def test_an_outlined_disc_is_a_disc_when_its_outline_is_cut_away() -> None:
    """A red disc with a dark rim two pixels wide and a cream plus inside, on a dark green
    slot: the rim, near the fill's colour, is cut away at the halfway edge, and what is
    left is measured as the disc it is, not a disc with four ears where it came within
    the sealing distance of its box's edge."""
    card = Image.new("RGB", (760, 1060), (22, 66, 46))
    pen = ImageDraw.Draw(card)
    pen.rectangle((100, 300, 300, 500), fill=(34, 90, 64), outline=(242, 234, 212), width=3)
    pen.ellipse((170, 370, 230, 430), fill=(204, 62, 44), outline=(12, 42, 29), width=3)
    pen.rectangle((182, 395, 218, 405), fill=(242, 234, 212))
    pen.rectangle((195, 382, 205, 418), fill=(242, 234, 212))
    icon = slot_icons.icons_in(card, (100, 300, 300, 500))[0]
    assert icon.shape.distance(shapes.named("circle", icon.height)) <= palette.SHAPE_TOLERANCE


def test_a_panel_filling_the_middle_of_a_slot_is_its_icon_not_its_fill(tmp_path: Path) -> None:
    """The middle slot holds a green grate (a square 110 px of 200, pale bars across it):
    the slot's steady band says its fill, so the grate is an icon of no token, the
    Villain's marker; the others hold a triangle each."""
    card = _card([[("triangle", BLUE)], [], [("triangle", BLUE)]])
    pen = ImageDraw.Draw(card)
    pen.rectangle((335, 330, 425, 440), fill=GREEN)
    for k in range(4):
        pen.rectangle((345, 345 + 25 * k, 415, 349 + 25 * k), fill=(200, 230, 210))
    found = slots.read_placement(card, _palette(BOX, tmp_path))
    assert found is not None and found.marked_by == "a mark inside it"
    assert found.place() == {"left": {"civilian": 1}, "right": {"civilian": 1}}


def test_a_placement_named_by_the_systems_own_icons_is_written_doubted() -> None:
    """No box palette: a row of slots whose icons look like cardkit's own (a blue circle,
    a purple square) is written as read, below the threshold, with a gap note saying so;
    with a box palette the same card is written sure."""
    from cardkit.ocr import grammar, grammar_refine

    card = _card([[("circle", (30, 111, 217))], [("square", (142, 36, 170))], []], marked=1)
    kind = next(k for k in grammar.grammars()["marvel-united"] if k.name == "masterplan")
    reading = grammar.read(kind, [], card.height)
    grammar_refine.placement(reading, card)
    assert reading.values["card/place"] == {"left": {"civilian": 1}, "villain": {"thug": 1}}
    assert reading.confidences["card/place"] < 0.9
    assert any("own icons" in g["note"] for g in reading.gaps)
    boxed = grammar.read(kind, [], card.height)
    box = palette.parse(
        "provenance: test\ntokens:\n  civilian: {colour: '#1e6fd9', shape: circle}\n"
        "  thug: {colour: '#8e24aa', shape: square}\n",
        Path("box.yaml"),
    )
    grammar_refine.placement(boxed, card, box)
    assert boxed.confidences["card/place"] >= 0.9 and not boxed.gaps


def test_a_move_badge_beside_the_slots_is_no_slot(tmp_path: Path) -> None:
    """Left of three slots, a navy badge as wide as a slot and 30 px taller (a Move value
    in it): filled unlike the slots and reaching above them, it is no slot; a bar marks
    the middle slot."""
    card = Image.new("RGB", (980, 1060), PAPER)
    pen = ImageDraw.Draw(card)
    pen.rectangle((20, 270, 200, 470), fill=(52, 80, 120))
    pen.text((110, 380), "4", font=dejavu(90), fill=(250, 250, 250), anchor="mm")
    for n, icons in enumerate([[("triangle", BLUE)], [("square", RED)], [("square", RED)]]):
        left = 220 + n * 220
        pen.rounded_rectangle((left, 300, left + 200, 470), 14, fill=SLOT, outline=EDGE, width=4)
        if n == 1:
            pen.rectangle((left + 50, 480, left + 150, 490), fill=(30, 100, 110))
        for shape, colour in icons:
            _icon(pen, shape, left + 100, 385, 22, colour)
    found = slots.read_placement(card, _palette(BOX, tmp_path))
    assert found is not None and len(found.slots) == 3 and found.sure
    assert found.place() == {"left": {"civilian": 1}, "villain": {"thug": 1}, "right": {"thug": 1}}


def test_a_disc_set_apart_from_a_row_of_touching_cells_is_no_slot(tmp_path: Path) -> None:
    """Three square cells 160 px wide, 6 px apart, the middle one filled like the Move disc
    that stands 60 px right of the row, as large as a cell: the row's slots are evenly
    spaced, so the disc is no slot (its fill matches the Villain's, so no colour tells)."""
    card = Image.new("RGB", (980, 1060), PAPER)
    pen = ImageDraw.Draw(card)
    amber = (240, 168, 36)
    for n, icons in enumerate([[("square", RED)], [("triangle", BLUE)], [("square", RED)]]):
        left = 80 + n * 166
        fill = amber if n == 1 else SLOT
        pen.rectangle((left, 300, left + 160, 460), fill=fill, outline=EDGE, width=4)
        for shape, colour in icons:
            _icon(pen, shape, left + 80, 380, 22, colour)
    pen.ellipse((80 + 3 * 166 + 54, 300, 80 + 3 * 166 + 214, 460), fill=amber, outline=EDGE)
    pen.text((80 + 3 * 166 + 134, 380), "2", font=dejavu(90), fill=(20, 20, 20), anchor="mm")
    found = slots.read_placement(card, _palette(BOX, tmp_path))
    assert found is not None and len(found.slots) == 3
    assert found.place() == {"left": {"thug": 1}, "villain": {"civilian": 1}, "right": {"thug": 1}}


def test_a_slot_beyond_one_not_found_leaves_the_row_gapped_not_shortened(tmp_path: Path) -> None:
    """Four slots 150 px wide, 10 px apart, the third's frame not drawn (a photo lost it)
    and its fill the card's ground: the fourth stands a slot's room from the second, so
    it is no badge beside a row of two; the placement is not sure."""
    card = Image.new("RGB", (760, 1060), PAPER)
    pen = ImageDraw.Draw(card)
    for n in (0, 1, 3):
        left = 60 + n * 160
        pen.rounded_rectangle((left, 300, left + 150, 450), 12, fill=SLOT, outline=EDGE, width=4)
        _icon(pen, "square", left + 75, 375, 22, RED)
    pen.rectangle((60 + 160 + 25, 460, 60 + 160 + 125, 470), fill=(30, 100, 110))  # the mark
    found = slots.read_placement(card, _palette(BOX, tmp_path))
    assert found is not None and len(found.slots) == 3
    assert found.gapped and not found.sure


def test_boxes_a_line_of_words_covers_are_letters_run_together_not_slots() -> None:
    """A bold title's letters, run together by the edge finder, make box-like blobs side
    by side; where the page read a line of words over them, they are no slots."""
    card = _card([[("square", RED)], [("triangle", BLUE)], [("square", RED)]], marked=1)
    boxes = slots.find_slots(card)
    assert len(boxes) == 3
    title = page.Line("Symbiote Resistances", 0.92, (30, 280, 720, 200), 60.0)
    assert slots.find_slots(card, slots.words_of([title])) == []
    # a line read unsurely, or of icons read as two letters, is no line of words
    unsure = page.Line("Symbiote Resistances", 0.5, (30, 280, 720, 200), 60.0)
    icons = page.Line("QO", 0.95, (30, 280, 720, 200), 60.0)
    assert len(slots.find_slots(card, slots.words_of([unsure, icons]))) == 3


def test_touching_cells_of_two_fills_are_found_by_each_fill_alone() -> None:
    """Three cells touching, no frames: green, amber (the Villain's), green, on a darker
    green card. Against the ground they are one patch three cells wide (no slot); each
    fill looked at alone gives the cells."""
    from cardkit.ocr import slot_outlines

    card = Image.new("RGB", (740, 1040), (22, 66, 46))
    pen = ImageDraw.Draw(card)
    for n, fill in enumerate([(34, 90, 64), (240, 168, 36), (34, 90, 64)]):
        pen.rectangle((90 + n * 130, 680, 90 + n * 130 + 129, 809), fill=fill)
    # a table's stripes beside a photographed card, slot-sized, run off the image's edge
    for n in range(3):
        pen.rectangle((n * 160, 0, n * 160 + 120, 150), fill=(120, 70, 40))
    found = slot_outlines._filled(np.asarray(card))
    cells = sorted(b for b in found if b[1] > 600)
    assert len(cells) == 3
    assert [round(b[0] / 10) for b in cells] == [9, 22, 35]
    assert not [b for b in found if b[1] < 200]


def test_a_diagram_whose_every_slot_reads_empty_is_written_doubted(tmp_path: Path) -> None:
    """Three framed slots, the middle one marked, no icon found in any (as a phone photo
    can lose them): `none`, but below the threshold, with a gap note."""
    from cardkit.ocr import grammar, grammar_refine

    card = _card([[], [], []], marked=1)
    kind = next(k for k in grammar.grammars()["marvel-united"] if k.name == "masterplan")
    reading = grammar.read(kind, [], card.height)
    grammar_refine.placement(reading, card, _palette(BOX, tmp_path))
    assert reading.values["card/place"] == "none"
    assert reading.confidences["card/place"] < 0.9
    assert any("every one read empty" in g["note"] for g in reading.gaps)


def test_a_column_whose_end_slot_is_the_villains_by_its_fill_keeps_it() -> None:
    """A column of three slots, the top one filled darker (the Villain's, told by its
    fill): stacked one above another, it reaches above the others only along the column,
    so it is no badge beside them."""
    card = Image.new("RGB", (760, 1060), PAPER)
    pen = ImageDraw.Draw(card)
    for n in range(3):
        top = 240 + n * 200
        fill = (150, 140, 120) if n == 0 else SLOT
        pen.rectangle((520, top, 700, top + 170), fill=fill, outline=EDGE, width=4)
    found = slots.read_placement(card, palette.builtin("marvel-united"))
    assert found is not None and len(found.slots) == 3
    assert found.marked_by == "its fill" and found.slots[0].name == "villain"


def test_two_alike_panels_with_no_mark_are_no_diagram_whose_lines_are_kept() -> None:
    """Two alike text panels side by side on a master plan that prints no diagram: found
    as a row of two, no diagram (diagram_found), so no boxes whose lines are kept."""
    card = Image.new("RGB", (760, 1060), PAPER)
    pen = ImageDraw.Draw(card)
    pen.rectangle((60, 300, 340, 560), fill=SLOT, outline=EDGE, width=4)
    pen.rectangle((400, 300, 680, 560), fill=SLOT, outline=EDGE, width=4)
    assert len(slots.find_slots(card)) == 2 and not slots.diagram_found(card)
    assert slots.diagram_boxes(card) == []
    assert len(slots.diagram_boxes(_card([[("square", RED)]] * 3, marked=1))) == 3


def test_a_heart_and_a_heater_shield_drawn_by_hand_are_named_so() -> None:
    # drawn here as a token printer would, not from shapes.OUTLINES: two round lobes and a
    # point; a flat top, straight sides, a point at the foot
    heart = Image.new("L", (90, 90), 0)
    pen = ImageDraw.Draw(heart)
    pen.ellipse((8, 10, 48, 50), fill=255)
    pen.ellipse((42, 10, 82, 50), fill=255)
    pen.polygon([(11, 38), (79, 38), (45, 82)], fill=255)
    shield = Image.new("L", (90, 90), 0)
    ImageDraw.Draw(shield).polygon(
        [(12, 8), (78, 8), (78, 40), (70, 60), (45, 84), (20, 60), (12, 40)], fill=255
    )
    import numpy as np

    for image, name in ((heart, "heart"), (shield, "shield")):
        found = shapes.measure(np.asarray(image) > 127)
        assert found is not None
        assert shapes.nearest(found, 76)[0] == name


def test_slots_read_as_one_tall_line_of_letters_are_no_words_covering_them() -> None:
    from cardkit.ocr import page, slot_rows

    def line(text: str, box: tuple[int, int, int, int], confidence: float = 0.9) -> page.Line:
        return page.Line(text, confidence, box, float(box[3]))

    text = [line("For each Crisis token they have,", (53, 601, 552, 31)) for _ in range(3)]
    diagram = line("ODE", (84, 205, 529, 281), 0.81)  # three ovals read as letters
    title = line("Crossbones 2", (184, 944, 346, 46))  # a bold title: words
    boxes = slot_rows.words_of([diagram, title, *text])
    assert (84, 205, 613, 486) not in boxes
    assert (184, 944, 530, 990) in boxes
