"""OCR steps one at a time: intake, geometry, fields. No OCR engine runs here."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from cardkit.ocr import fields, geometry, intake, scanfiles
from cardkit.ocr.engine import Reading, Word
from tests.ocr_cards import CardText, on_table, villainous_card

CARD = CardText("SILVER KEY", "Unlock a location. Gain 2 Power.", "Item", strength=1)


def _save(image: Image.Image, path: Path, fmt: str, **kw) -> Path:
    image.save(path, fmt, **kw)
    return path


# -- intake ----------------------------------------------------------------------------


def test_format_comes_from_the_bytes_not_the_suffix(tmp_path):
    path = _save(villainous_card(CARD, width=200), tmp_path / "card.png", "WEBP")
    (frame,) = intake.load(path)
    assert frame.format == "WEBP"
    assert frame.name == "card"
    assert frame.image.mode == "RGB"


def test_every_frame_of_an_animated_image_is_a_card(tmp_path):
    frames = [villainous_card(CARD, width=120, seed=s) for s in (1, 2, 3)]
    path = tmp_path / "deck.gif"
    frames[0].save(path, "WEBP", save_all=True, append_images=frames[1:], duration=500)
    loaded = intake.load(path)
    assert [f.name for f in loaded] == ["deck#1", "deck#2", "deck#3"]
    assert [f.index for f in loaded] == [1, 2, 3]
    assert len({f.sha256 for f in loaded}) == 1  # one file


def test_alpha_is_flattened_onto_white(tmp_path):
    image = Image.new("RGBA", (120, 120), (255, 0, 0, 255))
    image.putpixel((0, 0), (0, 0, 0, 0))  # a transparent corner
    (frame,) = intake.load(_save(image, tmp_path / "a.png", "PNG"))
    assert frame.image.getpixel((0, 0)) == (255, 255, 255)
    assert frame.image.getpixel((60, 60)) == (255, 0, 0)


@pytest.mark.parametrize("mode", ["CMYK", "P", "L", "I;16"])
def test_other_modes_become_8_bit_rgb(tmp_path, mode):
    if mode == "I;16":
        image = Image.fromarray(np.full((120, 120), 65535, dtype=np.uint16))
        fmt, name = "PNG", "deep.png"
    else:
        image = Image.new("RGB", (120, 120), (250, 250, 250)).convert(mode)
        fmt, name = ("JPEG" if mode == "CMYK" else "PNG"), f"{mode}.img"
    (frame,) = intake.load(_save(image, tmp_path / name, fmt))
    assert frame.image.mode == "RGB"
    assert min(frame.image.getpixel((60, 60))) >= 240


def test_exif_orientation_is_applied(tmp_path):
    image = Image.new("RGB", (240, 120), "white")
    exif = Image.Exif()
    exif[0x0112] = 6  # stored turned: display rotated 90 degrees clockwise
    path = tmp_path / "phone.jpg"
    image.save(path, "JPEG", exif=exif)
    (frame,) = intake.load(path)
    assert frame.image.size == (120, 240)


def test_pdf_pages_are_cards(tmp_path):
    from reportlab.pdfgen import canvas

    path = tmp_path / "scans.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(180, 252))
    for text in ("ONE", "TWO"):
        pdf.drawString(40, 120, text)
        pdf.showPage()
    pdf.save()
    frames = intake.load(path)
    assert [f.name for f in frames] == ["scans#1", "scans#2"]
    assert frames[0].image.size == (750, 1050)  # 300 dpi
    assert frames[0].format == "PDF"


def test_implausible_dpi_is_ignored(tmp_path):
    good = _save(Image.new("RGB", (120, 120)), tmp_path / "g.png", "PNG", dpi=(300, 300))
    bad = _save(Image.new("RGB", (120, 120)), tmp_path / "b.png", "PNG", dpi=(72, 72))
    assert intake.load(good)[0].dpi == pytest.approx(300, abs=1)
    assert intake.load(bad)[0].dpi is None


def _truncated(tmp_path: Path) -> Path:
    buffer = io.BytesIO()
    villainous_card(CARD, width=200).save(buffer, "PNG")
    path = tmp_path / "cut.png"
    path.write_bytes(buffer.getvalue()[: len(buffer.getvalue()) // 2])
    return path


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (
            lambda p: (p / "empty.png").write_bytes(b"") * 0 or p / "empty.png",
            "empty file",
        ),
        (lambda p: (p / "notes.png").write_text("hello") and p / "notes.png", "not an image"),
        (_truncated, "truncated"),
        (lambda p: (p / "bad.pdf").write_bytes(b"%PDF-1.4 nonsense") and p / "bad.pdf", "PDF"),
        (
            lambda p: _save(Image.new("RGB", (1, 1)), p / "dot.png", "PNG"),
            "1x1 pixels is too small",
        ),
    ],
)
def test_bad_files_fail_with_one_line_naming_them(tmp_path, make, says):
    path = make(tmp_path)
    with pytest.raises(intake.IntakeError) as err:
        intake.load(path)
    message = str(err.value)
    assert str(path) in message and says in message
    assert "\n" not in message


def test_the_decompression_bomb_limit_is_an_error(tmp_path, monkeypatch):
    path = _save(Image.new("RGB", (400, 400)), tmp_path / "big.png", "PNG")
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 100_000)
    with pytest.raises(intake.IntakeError, match="pixel limit"):
        intake.load(path)


def test_scan_paths_walk_folders_and_skip_hidden_and_other_files(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.png").write_bytes(b"1")
    (tmp_path / "a" / "notes.txt").write_text("no")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "y.png").write_bytes(b"1")
    assert scanfiles.scan_paths([tmp_path]) == [tmp_path / "a" / "x.png"]


# -- geometry --------------------------------------------------------------------------


def test_the_card_is_found_on_a_table_and_straightened():
    card = villainous_card(CARD, width=400)
    outline = geometry.find_outline(on_table(card))
    assert outline is not None
    width, height = geometry.side_lengths(outline.corners)
    assert width / height == pytest.approx(400 / card.height, rel=0.06)
    straight = geometry.warp(on_table(card), outline.corners, 63.5 / 88.9)
    assert straight.width / straight.height == pytest.approx(63.5 / 88.9, rel=0.01)


def test_a_scan_that_is_all_card_has_no_outline():
    assert geometry.find_outline(villainous_card(CARD, width=400)) is None


def test_text_axis_follows_a_quarter_turn():
    card = villainous_card(CARD, width=400)
    assert geometry.text_axis(card)[0] == "horizontal"
    assert geometry.text_axis(geometry.rotate(card, 90))[0] == "vertical"


def test_skew_angle_finds_a_small_turn():
    card = villainous_card(CARD, width=500)
    turned = card.rotate(2.0, resample=Image.Resampling.BICUBIC, fillcolor=(245, 240, 226))
    lower = turned.crop((0, turned.height // 2, turned.width, turned.height))
    assert geometry.skew_angle(lower) == pytest.approx(-2.0, abs=0.4)


# -- fields ----------------------------------------------------------------------------


def _reading(*lines: list[tuple[str, float]]) -> Reading:
    words = []
    for n, line in enumerate(lines):
        x = 0
        for text, conf in line:
            words.append(Word(text, conf, (x, n * 40, 10 * len(text), 30), n))
            x += 10 * len(text) + 10
    return Reading(tuple(words))


def test_numbers_map_lookalike_letters():
    assert fields.number("O") == 0
    assert fields.number("l2") == 12
    assert fields.number("-1", signed=True) == -1
    assert fields.number("+2", signed=True) == 2
    assert fields.number("none") is None


def test_unsure_words_snap_to_vocabulary_within_the_strict_distance():
    reading = _reading([("Gain", 0.95), ("1", 0.9), ("Powr", 0.55), ("Pawer", 0.95)])
    text, fixes = fields.correct_words(reading, ["Power"], "ability")
    assert text == "Gain 1 Power Pawer"  # the sure word is left as read
    assert fixes == [
        {"field": "ability", "read": "Powr", "corrected": "Power", "why": "vocabulary"}
    ]


def test_words_too_far_from_the_vocabulary_are_left_alone():
    reading = _reading([("Pwr", 0.3), ("Flower", 0.3)])
    text, fixes = fields.correct_words(reading, ["Power"], "ability")
    assert text == "Pwr Flower" and fixes == []


def test_a_whole_field_snaps_to_one_entry_and_ornaments_are_dropped():
    assert fields.snap("» Hero .", ["Hero", "Item"]) == ("Hero", [])
    assert fields.snap("Iten", ["Hero", "Item"])[0] == "Item"
    assert fields.snap("Itern", ["Hero", "Item"])[0] == "Itern"  # two edits: too far
    assert fields.snap("Something", ["Hero", "Item"])[0] == "Something"


def test_keywords_are_found_in_small_caps_misreads():
    assert fields.contains("F sivE'ScHEME", "SIDE")
    assert not fields.contains("MAIN SCHEME", "SIDE")


def test_paragraphs_split_at_a_wider_gap():
    words = [
        Word("Flavour", 0.9, (0, 0, 50, 20), 0),
        Word("line", 0.9, (0, 26, 50, 20), 1),
        Word("Rules", 0.9, (0, 80, 50, 20), 2),
        Word("here", 0.9, (0, 106, 50, 20), 3),
    ]
    parts = fields.paragraphs(Reading(tuple(words)))
    assert [p.text for p in parts] == ["Flavour\nline", "Rules\nhere"]


def test_specks_are_noise_but_punctuation_words_are_not():
    assert fields.noise("‘", 0.3)
    assert fields.noise("~", 0.9)
    assert not fields.noise("a", 0.3)
    assert not fields.noise(":", 0.9)
    assert not fields.noise("Hero", 0.2)


def test_slant_tells_italic_from_roman():
    from PIL import ImageDraw, ImageFont

    from tests.ocr_cards import FONTS

    def word(face: str) -> np.ndarray:
        image = Image.new("L", (420, 70), 255)
        ImageDraw.Draw(image).text(
            (10, 5), "Klaw minions", font=ImageFont.truetype(f"{FONTS}/{face}", 48), fill=0
        )
        return np.asarray(image)

    assert geometry.slant(word("VeraIt.ttf")) >= 0.15
    assert abs(geometry.slant(word("Vera.ttf"))) < 0.1


@pytest.mark.parametrize("size", [12, 16, 24])
def test_the_italic_cut_parts_light_italics_from_roman_left_slightly_sheared(size):
    from PIL import ImageDraw, ImageFont

    from cardkit.ocr.pipeline import ITALIC
    from tests.ocr_cards import FONTS

    def line(face: str, shear: float = 0.0) -> np.ndarray:
        image = Image.new("L", (size * 14, size * 2), 255)
        font = ImageFont.truetype(f"{FONTS}/{face}", size)
        ImageDraw.Draw(image).text((size, size // 3), "standard encounter", font=font, fill=0)
        # as a region is read: scaled up to an x-height of about 18 px (here 25 px type)
        image = image.resize((image.width * 25 // size, image.height * 25 // size))
        if shear:  # what a deskew may leave: a roman line leaning a degree or two
            image = image.transform(image.size, Image.AFFINE, (1, shear, 0, 0, 1, 0), fillcolor=255)
        return np.asarray(image)

    assert geometry.slant(line("VeraIt.ttf")) >= ITALIC
    for shear in (-0.035, 0.035):  # two degrees
        assert abs(geometry.slant(line("Vera.ttf", shear))) < ITALIC
