"""A lone glyph (a Move value) and what stands beside it (glyphs.py, BESIDE): a component
of about the glyph's own size beside it (up to BESIDE times its height) is a letter of
its word, so the glyph is no lone value; a panel far taller beside a value is no letter.
Drawn here with PIL; expectations written by hand from glyphs.py's docstring."""

from __future__ import annotations

import shutil
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageDraw

from cardkit.ocr import glyphs
from cardkit.ocr.engine import TesseractEngine
from tests.drawn_fonts import dejavu

CREAM, INK, TEAL = (244, 236, 216), (34, 30, 26), (22, 92, 96)
LABEL = 24.0  # the label's type, in pixels: a glyph stands 1.6 to 7 times as tall


def _digit(pen: ImageDraw.ImageDraw, at: tuple[int, int]) -> tuple[int, int, int, int]:
    """A large bold 4 drawn at `at`; its ink box (x, y, w, h)."""
    pen.text(at, "4", font=dejavu(96), fill=INK)
    return _ink(at, "4")


def _ink(at: tuple[int, int], text: str) -> tuple[int, int, int, int]:
    """The ink box (x, y, w, h) of `text` drawn at `at` (textbbox adds the side bearings)."""
    mask = Image.new("L", (640, 840), 0)
    ImageDraw.Draw(mask).text(at, text, font=dejavu(96), fill=255)
    box = mask.getbbox()
    assert box is not None
    return box[0], box[1], box[2] - box[0], box[3] - box[1]


def _window() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    window = Image.new("RGB", (640, 400), CREAM)
    return window, ImageDraw.Draw(window)


def _found(window: Image.Image) -> list[tuple[int, int, int, int]]:
    grey: np.ndarray[Any, Any] = np.asarray(window.convert("L"))
    return [box for box, _mask in glyphs.candidates(grey, LABEL, [])]


def _near(box: tuple[int, int, int, int], digit: tuple[int, int, int, int]) -> bool:
    return all(abs(a - b) <= 3 for a, b in zip(box, digit, strict=True))


def test_a_large_digit_alone_is_a_lone_glyph() -> None:
    window, pen = _window()
    digit = _digit(pen, (200, 120))
    found = _found(window)
    assert found, "the digit alone was not found"
    assert all(_near(box, digit) for box in found), (found, digit)


def test_a_digit_with_letters_of_its_size_beside_it_is_a_letter_of_a_word() -> None:
    window, pen = _window()
    digit = _digit(pen, (200, 120))
    # "AB" set in the same type just right of the 4: a title set large, not a value
    pen.text((digit[0] + digit[2] + 10, 120), "AB", font=dejavu(96), fill=INK)
    assert _found(window) == []


def test_a_digit_beside_a_bar_a_little_taller_than_it_is_still_a_letter() -> None:
    window, pen = _window()
    x, y, w, h = _digit(pen, (200, 120))
    tall = round(1.3 * h)  # within BESIDE (1.5) times the digit's height
    top = y + h // 2 - tall // 2
    pen.rectangle((x + w + 12, top, x + w + 12 + 18, top + tall), fill=INK)
    assert _found(window) == []


def test_a_digit_beside_a_panel_far_taller_than_it_is_a_lone_glyph() -> None:
    window, pen = _window()
    digit = _digit(pen, (200, 120))
    x, y, w, h = digit
    tall = round(2.5 * h)  # a dark panel (art, a text box) beside the value: no letter
    top = y + h // 2 - tall // 2
    pen.rectangle((x + w + 12, top, x + w + 12 + 150, top + tall), fill=INK)
    found = _found(window)
    assert found, "the digit beside a panel was taken for a letter of a word"
    assert all(_near(box, digit) for box in found), (found, digit)


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract")
def test_a_move_value_beside_a_dark_panel_is_read_by_its_label() -> None:
    """End to end with the real engine: a 7 over its MOVE label, the card's dark art panel
    just right of the 7 (far taller than it)."""
    card = Image.new("RGB", (600, 840), CREAM)
    pen = ImageDraw.Draw(card)
    pen.text((60, 90), "7", font=dejavu(96), fill=INK)
    left, top, w, h = _ink((60, 90), "7")
    right, bottom = left + w, top + h
    middle = (top + bottom) // 2  # the art panel, 2.2 times the 7's height, level with it
    pen.rectangle((right + 14, middle - 77, right + 300, middle + 77), fill=INK)
    pen.text((44, 236), "MOVE", font=dejavu(28), fill=TEAL)
    lx, ly, lr, lb = (round(v) for v in pen.textbbox((44, 236), "MOVE", font=dejavu(28)))
    found = glyphs.lone_glyph(card, (lx, ly, lr - lx, lb - ly), [], TesseractEngine(), "t")
    assert found is not None and found.text == "7"
    x, y, w, h = found.box
    assert left - 3 <= x and x + w <= right + 3 and top - 3 <= y and y + h <= bottom + 3
