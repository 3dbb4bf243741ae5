"""The lone glyph by its label (a Move value), marks with a word inside (BAM!), lines found
by shape, and the kind decision's doubt, on cards drawn here with PIL; expectations written
by hand from what was drawn. The readers run the real tesseract."""

from __future__ import annotations

import math
import shutil
from typing import Any

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

from cardkit.ocr import coloured_words, decide, fields, glyphs, grammar, line_finder, marks, page
from cardkit.ocr.engine import TesseractEngine
from tests.drawn_fonts import dejavu

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract")

CREAM, INK, ORANGE = (244, 236, 216), (34, 30, 26), (232, 120, 40)
NAVY, YELLOW, LIGHT = (26, 32, 52), (246, 196, 40), (236, 236, 242)


def _box(
    pen: ImageDraw.ImageDraw, at: tuple[int, int], text: str, size: int
) -> tuple[int, int, int, int]:
    """Draws `text` at `at` (top left) and gives its ink box as (x, y, w, h)."""
    left, top, right, bottom = pen.textbbox(at, text, font=dejavu(size))
    return left, top, right - left, bottom - top


def _engine() -> TesseractEngine:
    return TesseractEngine()


@needs_tesseract
def test_a_digit_in_a_disc_over_its_label_is_read_alone_and_surely() -> None:
    card = Image.new("RGB", (600, 840), CREAM)
    pen = ImageDraw.Draw(card)
    pen.ellipse((400, 60, 540, 200), fill=ORANGE, outline=(255, 255, 255), width=6)
    pen.text((470, 130), "4", font=dejavu(96), fill=INK, anchor="mm")
    label = _box(pen, (430, 220), "MOVE", 28)
    pen.text((430, 220), "MOVE", font=dejavu(28), fill=(22, 92, 96))
    words = [_box(pen, (40, 500), "Each Hero takes 1 damage.", 30)]
    pen.text((40, 500), "Each Hero takes 1 damage.", font=dejavu(30, False), fill=INK)
    found = glyphs.lone_glyph(card, label, words, _engine(), "t")
    assert found is not None
    assert found.text == "4" and found.agreed
    x, y, w, h = found.box
    assert 420 < x + w / 2 < 520 and 80 < y + h / 2 < 180  # the digit, not the disc


@needs_tesseract
def test_a_light_digit_in_a_hexagon_beside_its_label_is_found_on_a_dark_card() -> None:
    card = Image.new("RGB", (600, 840), NAVY)
    pen = ImageDraw.Draw(card)
    points = [
        (130 + 78 * math.cos(a * math.pi / 3), 700 + 78 * math.sin(a * math.pi / 3))
        for a in range(6)
    ]
    pen.polygon(points, outline=YELLOW, width=8)
    pen.text((130, 702), "7", font=dejavu(100), fill=LIGHT, anchor="mm")
    label = _box(pen, (224, 684), "MOVE", 34)
    pen.text((224, 684), "MOVE", font=dejavu(34), fill=YELLOW)
    found = glyphs.lone_glyph(card, label, [], _engine(), "t")
    assert found is not None and found.text == "7"


@needs_tesseract
def test_no_lone_glyph_by_a_label_among_rules_text_is_none() -> None:
    card = Image.new("RGB", (600, 840), CREAM)
    pen = ImageDraw.Draw(card)
    label = _box(pen, (40, 300), "MOVE", 28)
    pen.text((40, 300), "MOVE", font=dejavu(28), fill=INK)
    line = _box(pen, (40, 350), "Move to the next Location.", 30)
    pen.text((40, 350), "Move to the next Location.", font=dejavu(30, False), fill=INK)
    assert glyphs.lone_glyph(card, label, [line], _engine(), "t") is None


def _star(
    cx: float, cy: float, outer: float, inner: float, points: int
) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = math.pi * i / points - math.pi / 2
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


@needs_tesseract
def test_a_dotted_zero_light_on_a_dark_square_is_read_as_zero() -> None:
    """DejaVu Sans Mono Bold's zero (a dot in its counter), white on a black square on a
    light card, "Move" to its left: the zero is the glyph, not its dark counter (read as
    a 6 when it is taken alone)."""
    card = Image.new("RGB", (744, 1044), (232, 240, 234))
    pen = ImageDraw.Draw(card)
    pen.rectangle((588, 888, 708, 1008), fill=(20, 22, 22))
    pen.text((648, 948), "0", font=dejavu(110, mono=True), fill=(255, 255, 255), anchor="mm")
    label = _box(pen, (492, 932), "Move", 34)
    pen.text((492, 932), "Move", font=dejavu(34, False), fill=(40, 52, 36))
    found = glyphs.lone_glyph(card, label, [], _engine(), "t")
    assert found is not None and found.text == "0"


@needs_tesseract
def test_a_word_in_a_starburst_is_a_mark_and_a_token_is_none() -> None:
    card = Image.new("RGB", (600, 840), CREAM)
    pen = ImageDraw.Draw(card)
    pen.polygon(_star(150, 200, 72, 48, 11), fill=(250, 200, 50), outline=(180, 30, 30))
    pen.text((150, 202), "BAM!", font=dejavu(36), fill=(180, 30, 30), anchor="mm")
    pen.polygon(_star(450, 500, 30, 22, 5), fill=(112, 48, 160))  # a five-pointed token
    found = marks.look_for(card, "BAM!", 8, _engine(), "t")
    assert found is not None and found[0] is True
    plain = Image.new("RGB", (600, 840), CREAM)
    ImageDraw.Draw(plain).polygon(_star(450, 500, 30, 22, 5), fill=(112, 48, 160))
    assert marks.look_for(plain, "BAM!", 8, _engine(), "t") is None


@needs_tesseract
def test_a_word_on_a_coloured_tag_is_a_mark() -> None:
    card = Image.new("RGB", (600, 840), NAVY)
    pen = ImageDraw.Draw(card)
    pen.rectangle((420, 40, 570, 104), fill=YELLOW)
    pen.text((495, 72), "BAM!", font=dejavu(42), fill=NAVY, anchor="mm")
    found = marks.look_for(card, "BAM!", 8, _engine(), "t")
    assert found is not None and found[0] is True and found[1] >= 0.9


@needs_tesseract
def test_a_white_word_on_a_black_banner_on_a_dark_card_is_a_mark() -> None:
    """A black banner with a swallowtail end on a dark green card, BAM! in white on it:
    no colour of its own, but black, darker than the card's ground."""
    card = Image.new("RGB", (740, 1040), (22, 66, 46))
    pen = ImageDraw.Draw(card)
    pen.polygon([(220, 880), (520, 880), (490, 920), (520, 960), (220, 960), (250, 920)], (16,) * 3)
    pen.text((370, 920), "BAM!", font=dejavu(48), fill=(255, 255, 255), anchor="mm")
    pen.text((60, 200), "Each Hero draws.", font=dejavu(30), fill=(242, 234, 212))
    found = marks.look_for(card, "BAM!", 8, _engine(), "t")
    assert found is not None and found[0] is True and found[1] >= 0.9
    # on a card nearly black itself, black is no mark's: the same banner is not looked at
    # (a banner alone on a black card would be too large a patch whatever the rule)
    black = Image.new("RGB", (740, 1040), (45, 45, 45))
    pen = ImageDraw.Draw(black)
    pen.polygon([(220, 880), (520, 880), (490, 920), (520, 960), (220, 960), (250, 920)], (16,) * 3)
    pen.text((370, 920), "BAM!", font=dejavu(48), fill=(255,) * 3, anchor="mm")
    assert marks.look_for(black, "BAM!", 8, _engine(), "u") is None


@needs_tesseract
def test_a_word_on_a_sash_across_a_corner_is_read_stood_level() -> None:
    """A red band 80 px wide turned 45 degrees across the bottom right corner, BAM! in
    white along it (drawn level, then turned with the band)."""
    card = Image.new("RGB", (600, 840), NAVY)
    band = Image.new("RGB", (420, 80), (196, 36, 48))
    ImageDraw.Draw(band).text((210, 40), "BAM!", font=dejavu(44), fill=LIGHT, anchor="mm")
    turned = band.rotate(45, expand=True, fillcolor=NAVY)
    card.paste(turned, (600 - turned.width // 2 - 60, 840 - turned.height // 2 - 60))
    found = marks.look_for(card, "BAM!", 8, _engine(), "t")
    assert found is not None and found[0] is True and found[1] >= 0.9
    assert marks.look_for(card.rotate(0), "BOOM", 0, _engine(), "u") is None


@needs_tesseract
def test_lines_found_by_shape_read_a_title_on_a_band_and_a_label() -> None:
    card = Image.new("RGB", (730, 1030), CREAM)
    pen = ImageDraw.Draw(card)
    pen.rounded_rectangle((0, 0, 729, 1029), 28, outline=(22, 92, 96), width=10)
    pen.rectangle((20, 24, 710, 130), fill=(22, 92, 96))
    pen.text((44, 50), "Titania 2", font=dejavu(54), fill=(255, 255, 255))
    pen.ellipse((560, 70, 700, 210), fill=ORANGE)
    pen.text((630, 140), "0", font=dejavu(96), fill=INK, anchor="mm")
    pen.text((590, 225), "MOVE", font=dejavu(28), fill=(22, 92, 96))
    texts = [ln.text for ln in line_finder.read_lines(card, _engine(), "t")]
    assert "Titania 2" in texts and "MOVE" in texts, texts


def test_a_kind_won_by_nothing_of_its_own_is_not_sure_and_names_the_runner_up() -> None:
    best = decide.Candidate("mu/threat", "marvel-united/threat-card", 0.6, "no keyword", False)
    other = decide.Candidate("grammar mu/masterplan", "marvel-united/masterplan-card", 0.25, "none")
    decision = decide.decide([best, other])
    assert decision is not None and not decision.sure
    assert "marvel-united/masterplan-card" in decision.note()
    sure = decide.Candidate("grammar mu/masterplan", "marvel-united/masterplan-card", 1.25, "MOVE")
    assert decide.decide([sure, best]).sure  # type: ignore[union-attr]


def _line(text: str, top: int, height: float = 26.0, confidence: float = 0.95) -> page.Line:
    return page.Line(text, confidence, (50, top, 20 * len(text), round(height)), height)


def test_bam_in_a_sentence_is_no_flag_and_icons_read_as_letters_are_kept() -> None:
    masterplan = next(k for k in grammar.grammars()["marvel-united"] if k.name == "masterplan")
    lines = [
        _line("Venom 9", 20, 40),
        _line("| a lleall a |", 160, 70, 0.71),  # a diagram read as letters
        _line("A A A", 240, 40, 0.9),  # a row of triangle tokens read as letters
        _line("Give 1 Crisis token to 1 Hero in Venom's", 300),
        _line("Location. Then BAM!", 340),
        _line("MOVE", 900),
    ]
    reading = grammar.read(masterplan, lines, 1030)
    assert "card/bam" not in reading.values
    assert reading.values["card/text"] == (
        "Give 1 Crisis token to 1 Hero in Venom's Location. Then BAM!"
    )
    assert reading.kept == ["| a lleall a |", "A A A"]
    assert reading.values["title"] == "Venom 9"  # the card number is not a speck


def test_a_title_with_a_mark_after_its_number_keeps_name_and_number() -> None:
    from cardkit.games.marvel_united.ocr import _split_title

    assert _split_title('Blastaar 1 "Oo.') == ("Blastaar", 1, '"Oo.')
    assert _split_title("Absorbing Man 10") == ("Absorbing Man", 10, "")
    assert _split_title("Dormammu") == ("Dormammu", None, "")


def test_an_effect_name_on_a_line_of_its_own_gets_its_colon() -> None:
    masterplan = next(k for k in grammar.grammars()["marvel-united"] if k.name == "masterplan")
    lines = [
        _line("Move clockwise to the next Location with", 160),
        _line("any Heroes.", 200),
        _line("O", 250),  # an icon read as a letter: no effect's name
        _line("Entangle", 280),
        _line("Give 1 Crisis token to 1 Hero in Venom's", 330),
        _line("Location.", 370),
    ]
    reading = grammar.read(masterplan, lines, 1030)
    assert reading.values["card/text"] == (
        "Move clockwise to the next Location with any Heroes. Entangle: "
        "Give 1 Crisis token to 1 Hero in Venom's Location."
    )  # "with" ends no name: the movement line stays as printed


def test_an_effect_name_run_into_its_text_with_a_full_stop_gets_its_colon() -> None:
    masterplan = next(k for k in grammar.grammars()["marvel-united"] if k.name == "masterplan")
    lines = [
        _line("Move clockwise to the next Location. Then", 160),
        _line("Citizen V. Discard all Thugs in Baron", 200),
        _line("Zemo's Location. Each Hero draws.", 240),
    ]
    reading = grammar.read(masterplan, lines, 1030)
    assert reading.values["card/text"] == (
        "Move clockwise to the next Location. Then Citizen V. Discard all Thugs in Baron "
        "Zemo's Location. Each Hero draws."
    )  # after "Then" no paragraph starts: no name; a sentence in lower case is none either
    lines[0] = _line("Move clockwise to the next Location.", 160)
    reading = grammar.read(masterplan, lines, 1030)
    assert reading.values["card/text"] == (
        "Move clockwise to the next Location. Citizen V: Discard all Thugs in Baron "
        "Zemo's Location. Each Hero draws."
    )


def test_a_move_label_is_the_short_line_not_a_movement_sentence() -> None:
    masterplan = next(k for k in grammar.grammars()["marvel-united"] if k.name == "masterplan")
    lines = [
        _line("Venom 9", 20, 40),
        _line("Move clockwise to the next Location with", 160),
        _line("any Heroes.", 200),
        _line("MOVE", 900),
    ]
    reading = grammar.read(masterplan, lines, 1030)
    assert reading.labels["card/move"].box[1] == 900
    assert reading.kept == []  # the label alone on its line is used up, not kept as text


class _ReadsStar:
    """An engine that reads `*` at 0.96, whatever it is shown."""

    def read(self, image: Image.Image, mode: str, key: str = "", whitelist: str = "") -> Any:
        from cardkit.ocr.engine import Reading, Word

        return Reading((Word("*", 0.96, (0, 0, 10, 10), 0),))

    def version(self) -> str:
        return "stub"


def test_an_asterisk_read_surely_stays_as_sure_when_its_shape_tells_it_too() -> None:
    img = Image.new("L", (100, 100), 0)
    pen = ImageDraw.Draw(img)
    for k in range(6):
        a = math.pi * k / 3
        dx, dy = 40 * math.cos(a), 40 * math.sin(a)
        pen.line((50 - dx, 50 - dy, 50 + dx, 50 + dy), fill=255, width=12)
    mask = np.asarray(img) > 0
    assert glyphs._star_shaped(mask)
    assert glyphs._read_mask(mask, _ReadsStar(), "k", 44) == ("*", 0.96)


def _stamp(
    turn: float, word: str = "BAM!", colour: tuple[int, int, int] = (158, 28, 112)
) -> Image.Image:
    """A card with a rubber stamp: a word in the frame's colour inside a double outline,
    the stamp turned `turn` degrees, near the card's foot."""
    card = Image.new("RGB", (750, 1050), (232, 224, 240))
    stamp = Image.new("RGBA", (300, 150), (0, 0, 0, 0))
    pen = ImageDraw.Draw(stamp)
    pen.rounded_rectangle((20, 20, 280, 130), 14, outline=colour, width=6)
    pen.rounded_rectangle((31, 31, 269, 119), 8, outline=colour, width=2)
    pen.text((150, 76), word, font=dejavu(64), fill=colour, anchor="mm")
    stamp = stamp.rotate(turn, expand=True, resample=Image.Resampling.BICUBIC)
    card.paste(stamp, (380, 850), stamp)
    ImageDraw.Draw(card).text(
        (60, 500), "Each Hero discards 1 card.", font=dejavu(30, False), fill=(52, 22, 64)
    )
    return card


@needs_tesseract
def test_a_word_stamped_in_a_turned_double_frame_of_its_colour_is_read_as_a_mark() -> None:
    found = marks.find(_stamp(8), _engine(), "t")
    assert [m.text for m in found] == ["BAM!"]
    x, y, w, h = found[0].box
    assert x >= 380 and y >= 850 and x + w <= 700 and y + h <= 1040


@needs_tesseract
def test_a_frame_round_patches_of_other_colours_holds_no_word() -> None:
    # a slot's magenta rim round two teal tokens: not a word in the frame's colour
    card = Image.new("RGB", (750, 1050), (232, 224, 240))
    pen = ImageDraw.Draw(card)
    pen.rounded_rectangle((300, 300, 460, 460), 30, outline=(158, 28, 112), width=8)
    for left in (330, 390):
        pen.rectangle((left, 360, left + 40, 400), fill=(14, 108, 116))
    assert marks.find(card, _engine(), "t") == []


@needs_tesseract
def test_a_stamped_word_whose_frame_runs_into_the_cards_border_is_read_by_its_letters() -> None:
    # at 150 dpi the stamp's frame touches the card's thin border line: no patch holds
    # the word, but its letters, large and magenta, stand in a row
    card = _stamp(8).resize((375, 525), Image.Resampling.LANCZOS)
    ImageDraw.Draw(card).rectangle((14, 14, 360, 510), outline=(158, 28, 112), width=1)
    ImageDraw.Draw(card).line((190, 495, 360, 495), fill=(158, 28, 112), width=2)
    found = marks.find(card, _engine(), "t")
    assert any(fields.contains(m.text, "BAM!") for m in found)


def test_letters_in_a_row_make_a_word_and_a_dotted_rule_none() -> None:
    mask = np.zeros((1050, 750), np.uint8)
    for left in (100, 160, 220):  # three letters 40 px tall, 10 px apart
        mask[500:540, left : left + 50] = 1
    for left in range(60, 600, 20):  # a dotted rule: dots 6 px high
        mask[200:206, left : left + 6] = 1
    contours, tree = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    found = coloured_words.rows(contours, tree[0], mask, np.full(mask.shape, 90, np.uint8), 1050)
    assert [(box, round(turn)) for box, turn, *_ in found] == [((100, 500, 170, 40), 0)]


class _ReadsInkOnly:
    """Reads an image of two tones (a patch's own pixels as ink) as `BAM!`, surely, and
    one with the patch's greys in it as `Baw`, unsurely: as tesseract read design-j's red
    comic letters with their dark outline and shadow at 150 dpi."""

    name = "ink-only"

    def __init__(self) -> None:
        self.keys: list[str] = []

    def version(self) -> str:
        return "0"

    def read(self, image: Any, mode: Any, *, key: str, whitelist: str = "") -> Any:
        from cardkit.ocr.engine import Reading, Word

        self.keys.append(key)
        tones = len(np.unique(np.asarray(image.convert("L"))))
        text, sure = ("BAM!", 0.95) if tones <= 2 else ("Baw", 0.4)
        return Reading((Word(text, sure, (4, 4, image.width - 8, image.height - 8), 0),))


def test_a_patch_read_unsurely_is_read_again_as_its_own_pixels() -> None:
    card = Image.new("RGB", (750, 1050), (236, 186, 66))
    pen = ImageDraw.Draw(card)
    pen.rectangle((60, 60, 260, 120), fill=(200, 50, 40), outline=(40, 30, 25), width=3)
    for left in (80, 140, 200):  # three letters cut out of it
        pen.rectangle((left, 75, left + 30, 105), fill=(250, 240, 230))
    engine = _ReadsInkOnly()
    found = marks.find(card, engine, "t")
    assert [m.text for m in found] == ["BAM!"]
    assert any(k.endswith("/ink") for k in engine.keys)


class _WordsSurerThanPatches:
    """Reads a coloured word's letters (`/word` keys) as `WE` at 0.63 and a patch as `fe`
    at 0.2: neither is BAM!, as tesseract read design-e's tilted starburst."""

    name = "words-surer"

    def version(self) -> str:
        return "0"

    def read(self, image: Any, mode: Any, *, key: str, whitelist: str = "") -> Any:
        from cardkit.ocr.engine import Reading, Word

        text, sure = ("WE", 0.63) if "/word" in key else ("fe", 0.2)
        return Reading((Word(text, sure, (2, 2, image.width - 4, image.height - 4), 0),))


def test_a_word_read_inside_a_starburst_keeps_the_starbursts_points() -> None:
    card = Image.new("RGB", (750, 1050), (240, 236, 226))
    pen = ImageDraw.Draw(card)
    points = [
        (
            590 + (80 if k % 2 == 0 else 52) * math.cos(math.pi * k / 14),
            95 + (80 if k % 2 == 0 else 52) * math.sin(math.pi * k / 14),
        )
        for k in range(28)
    ]
    pen.polygon(points, fill=(246, 196, 40))
    for left in (545, 580, 615):  # three red letters, 34 px tall, in a row
        pen.rectangle((left, 78, left + 24, 112), fill=(200, 40, 40))
    found = marks.find(card, _WordsSurerThanPatches(), "t")
    assert [m.text for m in found] == ["WE"]
    assert found[0].points >= 8  # still a starburst: BAM! by its shape, doubted


class _TwoUnsureReads:
    """Reads a patch's grey as `grey` and its own pixels as `ink`, both unsurely."""

    name = "two-unsure"

    def __init__(self, grey: tuple[str, float], ink: tuple[str, float]) -> None:
        self.grey, self.ink = grey, ink

    def version(self) -> str:
        return "0"

    def read(self, image: Any, mode: Any, *, key: str, whitelist: str = "") -> Any:
        from cardkit.ocr.engine import Reading, Word

        text, sure = self.ink if key.endswith("/ink") else self.grey
        return Reading((Word(text, sure, (2, 2, image.width - 4, image.height - 4), 0),))


def _tag() -> Image.Image:
    card = Image.new("RGB", (750, 1050), (236, 186, 66))
    pen = ImageDraw.Draw(card)
    pen.rectangle((60, 60, 260, 120), fill=(200, 50, 40))
    for left in (80, 140, 200):  # three letters cut out of it
        pen.rectangle((left, 75, left + 30, 105), fill=(250, 240, 230))
    return card


def test_of_two_unsure_reads_of_a_mark_either_may_hold_the_flag_word() -> None:
    # the grey reads the word, its own pixels a little surer read junk: not by a margin
    engine = _TwoUnsureReads(("BAM!", 0.37), ("aA) |", 0.45))
    assert marks.look_for(_tag(), "BAM!", 0, engine, "t") is not None
    engine = _TwoUnsureReads(("BAB |", 0.30), ("BAM!", 0.40))
    assert marks.look_for(_tag(), "BAM!", 0, engine, "t") is not None
    engine = _TwoUnsureReads(("BAB |", 0.30), ("aA) |", 0.40))
    assert marks.look_for(_tag(), "BAM!", 0, engine, "t") is None


def test_of_nested_marks_the_surest_read_stands_with_all_their_points() -> None:
    outer = marks.Mark((500, 140, 70, 40), 14, "BAM!", 0.9)
    inner = marks.Mark((520, 150, 30, 20), 0, "AM", 0.5)
    assert marks._innermost([outer, inner]) == [outer]
    frame = marks.Mark((400, 880, 240, 120), 0, "_BAM!", 0.6)
    inside = marks.Mark((411, 891, 218, 98), 0, "BAM!", 0.93)
    assert marks._innermost([frame, inside]) == [inside]
    word = marks.Mark((558, 76, 78, 31), 0, "WE", 0.63)
    burst = marks.Mark((513, 16, 157, 158), 14, "fe", 0.2)
    assert [(m.text, m.points) for m in marks._innermost([burst, word])] == [("WE", 14)]
    apart = marks.Mark((60, 60, 100, 40), 0, "Overflow", 0.9)
    assert marks._innermost([apart, inside]) == [apart, inside]
