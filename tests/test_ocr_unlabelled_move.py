"""A Move value printed with no label by it (a number on a disc, no MOVE word): the grammar's
`near` rule has no label to look by, so the largest lone number on the card is taken,
doubted, with a gap note saying how it was found (grammar_refine.unlabelled_numbers). Drawn
with PIL, read by the real tesseract; expectations from the docstring."""

from __future__ import annotations

import math
import shutil

import pytest
from PIL import Image, ImageDraw

from cardkit.ocr import grammar, grammar_refine, page
from cardkit.ocr.engine import make_engine

from .drawn_fonts import dejavu

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract")


def _masterplan() -> grammar.Kind:
    return next(k for k in grammar.grammars()["marvel-united"] if k.name == "masterplan")


def _card(with_value: bool) -> tuple[Image.Image, list[page.Line]]:
    card = Image.new("RGB", (744, 1040), (236, 232, 220))
    draw = ImageDraw.Draw(card)
    draw.text((60, 60), "Venom 3", font=dejavu(44), fill=(20, 20, 20))
    draw.text(
        (60, 300), "Give 1 Crisis token to 1 Hero.", font=dejavu(26, False), fill=(20, 20, 20)
    )
    if with_value:
        draw.ellipse((560, 820, 700, 960), fill=(230, 120, 40))
        draw.text((602, 832), "6", font=dejavu(96), fill=(20, 20, 20))
    lines = [
        page.Line("Venom 3", 0.95, (60, 60, 200, 44), 44.0),
        page.Line("Give 1 Crisis token to 1 Hero.", 0.95, (60, 300, 420, 26), 26.0),
    ]
    return card, lines


def test_a_move_with_no_label_is_the_largest_lone_number_doubted_and_noted() -> None:
    card, lines = _card(with_value=True)
    reading = grammar.read(_masterplan(), lines, card.height)
    assert "card/move" in reading.unread  # no MOVE label: the page read gives no value
    grammar_refine.unlabelled_numbers(reading, card, make_engine("tesseract"), "t")
    assert reading.values["card/move"] == 6
    assert reading.confidences["card/move"] <= grammar_refine.DOUBTED_NUMBER
    assert "card/move" not in reading.unread
    notes = [g["note"] for g in reading.gaps]
    assert any(
        n.startswith("card/move: MOVE not read; 6 is the largest lone number") for n in notes
    )


def test_no_lone_number_leaves_the_move_not_read() -> None:
    card, lines = _card(with_value=False)
    reading = grammar.read(_masterplan(), lines, card.height)
    grammar_refine.unlabelled_numbers(reading, card, make_engine("tesseract"), "t")
    assert "card/move" not in reading.values
    assert "card/move" in reading.unread


def test_an_asterisk_in_a_ring_with_no_label_is_the_move_told_by_its_spokes() -> None:
    """A gold disc with a dark ring inside it and a six-spoked asterisk in the middle (a
    `*` Move), no MOVE word: tesseract reads the asterisk unsurely or not at all; its
    spokes tell it, and the ring round it is no glyph. Doubted, noted."""
    card, lines = _card(with_value=False)
    draw = ImageDraw.Draw(card)
    draw.ellipse((560, 820, 700, 960), fill=(226, 178, 60))
    draw.ellipse((572, 832, 688, 948), outline=(30, 30, 34), width=3)
    for k in range(6):  # spokes 8 px wide, 34 px long, from the middle
        angle = math.pi / 2 + k * math.pi / 3
        tip = (630 + 34 * math.cos(angle), 890 - 34 * math.sin(angle))
        draw.line([(630, 890), tip], fill=(30, 30, 34), width=9)
    reading = grammar.read(_masterplan(), lines, card.height)
    grammar_refine.unlabelled_numbers(reading, card, make_engine("tesseract"), "t")
    assert reading.values["card/move"] == "*"
    assert reading.confidences["card/move"] <= grammar_refine.DOUBTED_NUMBER
    assert any("* is the largest lone glyph" in g["note"] for g in reading.gaps)


def test_no_digit_is_star_shaped_and_an_asterisk_is() -> None:
    import numpy as np

    from cardkit.ocr import glyphs

    font = dejavu(90)
    for char in "0123456789*":
        image = Image.new("L", (90, 110), 255)
        ImageDraw.Draw(image).text((10, 0), char, font=font, fill=0)
        ink = np.asarray(image) < 128
        ys, xs = np.where(ink)
        assert glyphs._star_shaped(ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]) == (
            char == "*"
        )
