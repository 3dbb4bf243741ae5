"""Hand-drawn cases for an effect's name printed as a tag: light words on a saturated bar
run into the sentence on the same row (`[Stolen Goods] If Heroes in ...`). The bar is found
by its luminance, the words beside it are read again alone when the whole-row read garbled
them, and the tag comes first on its row."""

from __future__ import annotations

from PIL import Image, ImageDraw

from cardkit.ocr import bar_lines, bars, page
from cardkit.ocr.engine import Mode, Reading, Word
from tests.drawn_fonts import dejavu

MAGENTA, LAVENDER, WHITE = (158, 28, 112), (232, 224, 240), (255, 255, 255)


def _tag_card() -> Image.Image:
    card = Image.new("RGB", (700, 500), LAVENDER)
    draw = ImageDraw.Draw(card)
    draw.rounded_rectangle((40, 120, 340, 156), 10, fill=MAGENTA)
    draw.text((52, 124), "Stolen Goods", font=dejavu(24), fill=WHITE)
    draw.text((356, 124), "If Heroes in", font=dejavu(24, bold=False), fill=(52, 22, 64))
    return card


def test_white_words_on_a_magenta_tag_make_a_bar_though_magentas_red_is_bright() -> None:
    # magenta's brightest channel is 158, over the dark level; its luminance is 76
    found = bars.find(_tag_card(), page.DARK_BACKGROUND)
    assert [bar.box for bar in found] == [(40, 120, 301, 37)]


def test_a_light_card_with_a_pale_band_has_no_bar() -> None:
    card = Image.new("RGB", (700, 500), LAVENDER)
    ImageDraw.Draw(card).rectangle((40, 120, 400, 156), fill=(200, 190, 230))
    assert bars.find(card, page.DARK_BACKGROUND) == []


def _line(text: str, box: tuple[int, int, int, int], confidence: float = 0.95) -> page.Line:
    return page.Line(text, confidence, box, float(box[3]))


def test_a_tag_a_pixel_lower_than_the_words_after_it_comes_first_on_its_row() -> None:
    tag = _line("Stolen Goods", (40, 126, 300, 26))
    after = _line("If Heroes in", (356, 124, 180, 29))
    below = _line("Shocker's Location has any", (40, 174, 420, 29))
    assert page.reading_order([below, after, tag]) == [tag, after, below]


def test_lines_on_separate_rows_keep_top_to_bottom_order() -> None:
    right_high = _line("MOVE", (600, 20, 70, 19))
    left_low = _line("Shocker 12", (40, 60, 280, 42))
    assert page.reading_order([left_low, right_high]) == [right_high, left_low]


class _Sure:
    """Reads every image as one sure line `If Heroes in`, and counts its reads."""

    name = "sure"

    def __init__(self) -> None:
        self.reads: list[tuple[int, int]] = []

    def version(self) -> str:
        return "0"

    def read(self, image: Image.Image, mode: Mode, *, key: str, whitelist: str = "") -> Reading:
        self.reads.append(image.size)
        words = [("If", 10, 24), ("Heroes", 40, 90), ("in", 140, 24)]
        return Reading(tuple(Word(t, 0.95, (x, 8, w, 26), 0) for t, x, w in words))


def test_words_beside_a_tag_read_unsurely_are_read_again_alone() -> None:
    engine = _Sure()
    garbled = _line("Bim elscuin", (356, 124, 180, 29), confidence=0.06)
    again = bar_lines.beside(_tag_card(), engine, "k", garbled, (40, 120, 301, 37))
    assert again.text == "If Heroes in" and again.confidence == 0.95
    assert again.box[0] > 340  # where the words stand on the card, not in the crop
    assert len(engine.reads) == 1


def test_words_read_surely_or_off_the_tags_row_are_not_read_again() -> None:
    engine = _Sure()
    sure = _line("If Heroes in", (356, 124, 180, 29), confidence=0.9)
    below = _line("Bim elscuin", (356, 200, 180, 29), confidence=0.06)
    bar = (40, 120, 301, 37)
    assert bar_lines.beside(_tag_card(), engine, "k", sure, bar) is sure
    assert bar_lines.beside(_tag_card(), engine, "k", below, bar) is below
    assert engine.reads == []
