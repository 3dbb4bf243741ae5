"""What the reader does for real card sets: a name banner read alone, a line's box without
its inline icon, a body font's 1 read as a bracket, a villain's stage told by its bars,
the template of a known design chosen over the grammar of its kind (the walkthrough's
phone photo of a master plan reads its Move), and Leptonica kept off stderr. Cards drawn
here with PIL, expectations written by hand; the real engine where tesseract is installed."""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from cardkit.files import yamlio
from cardkit.games.marvel_champions import stage_mark
from cardkit.ocr import banner, leptonica, page
from cardkit.ocr.engine import Reading, Word, make_engine
from tests.conftest import ROOT

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract")
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
REAL = ROOT.parent.parent / "shared" / "ocr-real"  # /work/wt/<name> -> /work/shared
if not REAL.is_dir():
    REAL = ROOT.parent / "shared" / "ocr-real"


def banner_card(name: str) -> tuple[Image.Image, tuple[int, int, int, int]]:
    """A 1000 px square card: dotted dark art above, a light-blue name banner at the top
    left with `name` in bold capitals (the drawn text's box returned), art below."""
    card = Image.new("RGB", (1000, 1000), (40, 60, 90))
    draw = ImageDraw.Draw(card)
    for x in range(0, 1000, 14):  # halftone dots over the top edge, as printed cards have
        for y in range(0, 40, 14):
            draw.ellipse((x, y, x + 8, y + 8), fill=(200, 200, 210))
    draw.rectangle((0, 50, 620, 130), fill=(160, 210, 235))
    font = ImageFont.truetype(BOLD, 48)
    draw.text((30, 62), name, font=font, fill=(15, 15, 20))
    box = draw.textbbox((30, 62), name, font=font)
    return card, (int(box[0]), int(box[1]), int(box[2]), int(box[3]))


@pytest.mark.skipif(not Path(BOLD).exists(), reason="needs DejaVu Sans Bold")
def test_the_banner_row_is_the_row_of_capitals_not_the_dots_above_it() -> None:
    card, (left, top, right, bottom) = banner_card("STARK TOWER")
    grey = np.asarray(card.convert("L"))[:200]
    row = banner.glyph_row(np.ascontiguousarray(grey), card.height)
    assert row is not None
    x0, y0, x1, y1 = row
    assert abs(x0 - left) <= 4 and abs(x1 - right) <= 4  # the whole name, first to last letter
    assert top - 4 <= y0 and y1 <= bottom + 4  # the letters' height, not the dots' rows


def test_a_band_without_a_row_of_capitals_has_no_banner() -> None:
    grey = np.full((200, 1000), 230, dtype=np.uint8)
    grey[60:110, 100:140] = 10  # one lone mark: an icon, not a name
    assert banner.glyph_row(grey, 1000) is None


@needs_tesseract
@pytest.mark.skipif(not Path(BOLD).exists(), reason="needs DejaVu Sans Bold")
def test_the_banner_title_is_read_alone() -> None:
    card, _ = banner_card("STARK TOWER")
    title = banner.read_title(card, 0.2, make_engine("tesseract"), "t")
    assert title is not None
    assert title.text == "STARK TOWER"


def test_an_inline_icon_does_not_stretch_its_line_over_the_line_above() -> None:
    words = (
        Word("You", 0.95, (100, 100, 60, 30), 0),
        Word("gain", 0.95, (170, 100, 70, 30), 0),
        Word("2", 0.90, (100, 160, 20, 30), 1),
        Word("@e)", 0.20, (130, 120, 60, 90), 1),  # an icon three lines tall
        Word("tokens.", 0.95, (200, 160, 100, 30), 1),
    )
    lines = page.lines_of(Reading(words))
    assert [ln.text for ln in lines] == ["You gain", "2 @e) tokens."]
    assert lines[1].box[1] == 160 and lines[1].box[3] == 30  # the type's rows only
    assert lines[1].box[0] == 100 and lines[1].box[2] == 200  # still every word's columns


def test_a_lone_bracket_between_words_is_the_bar_a_body_font_reads_for_1() -> None:
    words = (
        Word("discard", 0.95, (0, 0, 80, 30), 0),
        Word("{", 0.62, (90, 0, 10, 30), 0),
        Word("card", 0.95, (110, 0, 50, 30), 0),
        Word("gain", 0.95, (0, 50, 50, 30), 1),
        Word("2", 0.95, (60, 50, 15, 30), 1),
        Word("[", 0.62, (80, 50, 10, 30), 1),  # after a number: an icon's edge, dropped
        Word("tokens", 0.95, (100, 50, 60, 30), 1),
    )
    assert [ln.text for ln in page.lines_of(Reading(words))] == ["discard | card", "gain 2 tokens"]


def bars(*shapes: tuple[int, int]) -> np.ndarray:
    """Black glyphs on white, side by side: (width, height) each."""
    glyphs = np.full((120, 300), 255, dtype=np.uint8)
    x = 40
    for width, height in shapes:
        glyphs[100 - height : 100, x : x + width] = 0
        x += width + 20
    return glyphs


def test_a_roman_numeral_of_bars_is_counted() -> None:
    assert stage_mark.count_bars(bars((14, 60), (14, 60))) == 2
    assert stage_mark.count_bars(bars((14, 60))) == 1
    assert stage_mark.count_bars(bars((14, 60), (40, 60))) == 0  # a wide glyph: not a bar
    assert stage_mark.count_bars(bars((14, 60), (14, 30))) == 0  # a short one: not a numeral
    assert stage_mark.count_bars(bars()) == 0


def test_leptonica_says_nothing_inside_quiet_and_speaks_again_after(capfd) -> None:
    library = leptonica._library()
    if library is None:
        pytest.skip("no Leptonica library found")
    library.boxCreate.restype = ctypes.c_void_p
    library.boxCreate.argtypes = [ctypes.c_int] * 4
    library.boxClipToRectangle.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
    library.boxClipToRectangle.restype = ctypes.c_void_p
    outside = library.boxCreate(500, 500, 10, 10)
    with leptonica.quiet():
        library.boxClipToRectangle(outside, 100, 100)
    assert capfd.readouterr().err == ""
    library.boxClipToRectangle(outside, 100, 100)  # the switch is back on: it speaks
    assert "boxClipToRectangle" in capfd.readouterr().err


def _ocr(scan: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), OMP_THREAD_LIMIT="1")
    command = [sys.executable, "-m", "cardkit", "ocr", str(scan), "--out", str(out), "-j", "1"]
    return subprocess.run([*command, *extra], capture_output=True, text=True, env=env, check=False)


@needs_tesseract
def test_the_walkthrough_phone_master_plan_reads_its_move_and_stderr_stays_empty(tmp_path):
    # docs/walkthrough-promo-box.md's example: a phone photo of Baron Zemo's master plan
    # card 5, which prints Move 0 and BAM! (the data it was drawn from)
    scan = tmp_path / "marvel-united" / "mu-baron-zemo-mp05-phone.jpg"
    scan.parent.mkdir()
    shutil.copy(ROOT / "scans/samples/marvel-united/mu-baron-zemo-mp05-phone.jpg", scan)
    done = _ocr(scan, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    draft = yamlio.load_text((tmp_path / "out" / "mu-baron-zemo-mp05-phone.yaml").read_text())
    assert draft["kind"] == "marvel-united/masterplan-card"
    assert draft["card"]["move"] == 0
    assert draft["card"]["n"] == 5
    assert draft["card"]["bam"] is True
    assert draft["provenance"]["template"] == "marvel-united/masterplan"


@needs_tesseract
@pytest.mark.skipif(
    not (REAL / "marvel-united" / "location-deadpools-apartment.jpg").exists(),
    reason="needs ../shared/ocr-real (not in the repository)",
)
def test_a_real_card_whose_layout_analysis_upsets_leptonica_prints_nothing(tmp_path):
    # tesseract's layout analysis of this card at half size passes Leptonica a box past
    # the image's edge; the scan is read all the same, and stderr must stay empty
    scan = tmp_path / "c11.jpg"
    shutil.copy(REAL / "marvel-united" / "location-deadpools-apartment.jpg", scan)
    done = _ocr(scan, tmp_path / "out", "--system", "marvel-united")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "ocr: 1 drafts from 1 scans" in done.stdout


def at(text: str, left: int, top: int, width: int) -> page.Line:
    return page.Line(text, 0.95, (left, top, width, 34), 30.0)


def test_a_text_box_edge_read_before_a_left_aligned_line_is_dropped() -> None:
    lines = [
        at("Zemo activates against you,", 60, 740, 420),
        at("| either place 2 secret counters on", 27, 780, 528),
        at("I) a BOARD MEMBER card or give Baron", 12, 818, 543),
        at("Zemo an additional boost card for", 59, 852, 516),
        at("this activation.", 59, 897, 217),
    ]
    texts = [ln.text for ln in page._without_frame_marks(lines)]
    assert texts[1] == "either place 2 secret counters on"
    assert texts[2] == "a BOARD MEMBER card or give Baron"
    assert texts[0] == lines[0].text and texts[3:] == [lines[3].text, lines[4].text]


def test_a_1_read_as_a_bar_at_the_start_of_a_centred_line_is_kept() -> None:
    lines = [  # centred text: no two lines start where the line without its `|` would
        at("You may discard 1 card or 1 Action token to place", 100, 700, 800),
        at("| Nova Corps token on any Location without one.", 120, 745, 760),
        at("If an Overflow happens here,", 300, 790, 400),
    ]
    assert [ln.text for ln in page._without_frame_marks(lines)] == [ln.text for ln in lines]


def test_a_bullet_read_as_a_cent_sign_starts_its_line_as_a_bullet() -> None:
    words = (
        Word("¢", 0.79, (10, 0, 12, 30), 0),
        Word("3", 0.95, (30, 0, 15, 30), 0),
        Word("Unus", 0.95, (50, 0, 60, 30), 0),
        Word("gains", 0.95, (0, 50, 60, 30), 1),
        Word("¢", 0.79, (70, 50, 12, 30), 1),  # not first on its line: a speck, dropped
        Word("it", 0.95, (90, 50, 20, 30), 1),
    )
    assert [ln.text for ln in page.lines_of(Reading(words))] == ["• 3 Unus", "gains it"]
