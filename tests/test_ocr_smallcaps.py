"""Small capitals raised to the capitals' height (cardkit/ocr/smallcaps.py), on lines drawn
here in small caps the way card titles print them: a capital, then capitals a size smaller."""

from __future__ import annotations

import os
import shutil

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFont

from cardkit.ocr import layout
from cardkit.ocr.casing import recase
from cardkit.ocr.engine import Reading, Word, make_engine
from cardkit.ocr.smallcaps import Glyph, even_caps
from tests.ocr_cards import FONTS

BOLD = os.path.join(FONTS, "VeraBd.ttf")


def small_caps(text: str, cap: int, small: int) -> Image.Image:
    """`text` with each word's first letter at `cap` px type and the rest at `small` px."""
    big_font, small_font = ImageFont.truetype(BOLD, cap), ImageFont.truetype(BOLD, small)
    image = Image.new("L", (40 + cap * len(text), cap * 2), 255)
    draw = ImageDraw.Draw(image)
    x = 20.0
    for word in text.split(" "):
        for index, char in enumerate(word):
            font = big_font if index == 0 or not char.isalpha() else small_font
            draw.text((x, cap * 1.5), char.upper(), font=font, fill=0, anchor="ls")
            x += draw.textlength(char.upper(), font=font)
        x += draw.textlength(" ", font=small_font)
    return image


def two_lines(first: str, second: str) -> Image.Image:
    """A title wrapped onto two lines, both in small caps."""
    top, bottom = small_caps(first, 48, 36), small_caps(second, 48, 36)
    both = Image.new("L", (max(top.width, bottom.width), top.height + bottom.height), 255)
    both.paste(top, (0, 0))
    both.paste(bottom, (0, top.height))
    return both


def letter_heights(image: Image.Image) -> list[int]:
    ink = (np.asarray(image.convert("L")) < 128).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    return sorted(int(stats[i, 3]) for i in range(1, count) if stats[i, 4] > 20)


def test_small_capitals_are_raised_to_the_capitals_height():
    line = small_caps("Crowd Control", 48, 36)
    before, after = letter_heights(line), letter_heights(even_caps(line))
    assert max(before) - min(before) >= 8  # two sizes drawn
    assert len(after) == len(before)  # every letter kept, none merged
    assert max(after) - min(after) <= 2
    assert even_caps(line).width > line.width  # the raised letters are wider too


def test_a_line_in_one_size_and_its_punctuation_are_left_as_they_are():
    plain = small_caps("CROWD CONTROL", 48, 48)
    assert np.array_equal(np.asarray(even_caps(plain)), np.asarray(plain))
    marks = letter_heights(even_caps(small_caps("Break-In!", 48, 36)))
    assert min(marks) <= 8  # the hyphen is moved, not raised


def test_a_wrapped_title_is_raised_line_by_line():
    title = two_lines("Crowd", "Control Room")
    before, after = letter_heights(title), letter_heights(even_caps(title))
    assert len(after) == len(before)
    assert max(after) - min(after) <= 2  # both lines' small capitals raised


@given(
    st.lists(
        st.tuples(st.integers(0, 150), st.integers(0, 50), st.integers(1, 40), st.integers(1, 40)),
        max_size=12,
    )
)
def test_any_ink_comes_back_without_an_error(boxes):
    # stray marks, rules, blobs on several rows: the step may leave them, never fail
    image = Image.new("L", (200, 100), 255)
    draw = ImageDraw.Draw(image)
    for x, y, w, h in boxes:
        draw.rectangle((x, y, x + w, y + h), fill=0)
    raised = even_caps(image)  # never an error
    assert raised.width >= image.width and raised.height >= image.height
    ink = np.count_nonzero(np.asarray(image) < 128)
    assert np.count_nonzero(np.asarray(raised) < 128) >= ink // 2  # moved or raised, not lost


def _line(*words: tuple[str, str]) -> tuple[Reading, tuple[Glyph, ...]]:
    """Words read from a raised line, and its glyphs: for each word its text and one letter
    per glyph, `C` for a full capital and `s` for a small one, 10 px each, 10 px between."""
    read, glyphs, x = [], [], 0
    for text, sizes in words:
        read.append(Word(text, 0.9, (x, 0, 10 * len(sizes), 30), 0))
        for size in sizes:
            glyphs.append(Glyph(x, x + 10, 0, 30, size == "s"))
            x += 10
        x += 10
    return Reading(tuple(read)), tuple(glyphs)


def test_read_words_get_back_the_case_their_glyphs_were_printed_in():
    # one glyph per character: letter by letter (the `!` is one character of two glyphs)
    reading, glyphs = _line(("THE", "Css"), ("BREAK-IN!", "CssssCCsC"))
    glyphs = (*glyphs[:-1], Glyph(glyphs[-1].left, glyphs[-1].right - 4, 0, 5, False), glyphs[-1])
    assert [w.text for w in recase(reading, glyphs).words] == ["The", "Break-In!"]
    # a letter taken for a full capital inside a word (`CrowD`) is no case a word has: the word
    # is cased as a whole, and so is one whose glyphs are not one per character
    reading, glyphs = _line(("CROWD", "CsssC"), ("MASTERS", "CssssssC"), ("OF", "CC"))
    assert [w.text for w in recase(reading, glyphs).words] == ["Crowd", "Masters", "OF"]
    assert recase(reading, ()) == reading  # a line in one size: as read


def test_a_glyph_under_two_word_boxes_belongs_to_the_narrower():
    _, glyphs = _line(("KLAW", "Csss"))
    wide = Word("KLAW", 0.9, (0, 0, 60, 30), 0)  # the engine's box runs over the `|` after it
    bar = Word("|", 0.5, (48, 0, 8, 30), 0)
    cased = recase(Reading((wide, bar)), (*glyphs, Glyph(50, 54, 0, 30, False)))
    assert [w.text for w in cased.words] == ["Klaw", "|"]


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract")
def test_a_small_caps_title_at_scan_size_reads_as_capitals():
    # drawn large, then shrunk to a publisher image's size (small capitals 9 px tall)
    line = small_caps("Bold Defended Field", 60, 44)
    shrink = 9 / min(letter_heights(line))
    scan = line.resize((round(line.width * shrink), round(line.height * shrink)), Image.LANCZOS)
    region = layout.Region("name", (0, 0, 1, 1), x_height=9 / scan.height, prep=("small-caps",))
    prepared = layout.prepare(scan.convert("RGB"), region, scan.height)
    read = make_engine("tesseract").read(prepared, "line", key="t")
    assert read.text.strip() == "BOLD DEFENDED FIELD"
    cased = recase(read, prepared.info["small_caps"], layout.MARGIN)
    assert cased.text.strip() == "Bold Defended Field"
