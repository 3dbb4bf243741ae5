"""Hand-drawn cases from design-i. An effect's name printed as a tag (light words on a
saturated bar) run into the sentence on its row (`[Stolen Goods] If Heroes in ...`): the
bar is found by its luminance (and by its rims when a photo bloomed its words), the words
beside it are read again alone when the whole-row read garbled them, and the tag comes
first on its row. A threat's Health on a badge left of its name is a line of its own, and
no longer kept text once it is the value."""

from __future__ import annotations

from PIL import Image, ImageDraw

from cardkit.ocr import (
    bar_lines,
    bars,
    grammar,
    grammar_labels,
    grammar_lines,
    lines_read,
    numbers,
    page,
)
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


def test_a_tag_its_words_bloomed_over_half_of_it_is_still_a_bar_by_its_rims() -> None:
    # a phone photo: the white words cut 55% of the tag; its rims over and under them stay
    card = Image.new("RGB", (700, 500), LAVENDER)
    draw = ImageDraw.Draw(card)
    draw.rectangle((40, 120, 390, 159), fill=MAGENTA)
    for left in range(48, 380, 24):  # letters 18 px wide, 6 px apart, rows 126-152
        draw.rectangle((left, 126, left + 17, 152), fill=WHITE)
    found = bars.find(card, page.DARK_BACKGROUND)
    assert [bar.box for bar in found] == [(40, 120, 351, 40)]


def test_a_line_of_heavy_dark_letters_touching_is_no_bar() -> None:
    card = Image.new("RGB", (700, 500), LAVENDER)
    draw = ImageDraw.Draw(card)
    # heavy capitals run together on their joined feet (slab serifs): ink fills 45% of
    # the line's box and its bottom rows are dark all across, its top rows are not
    draw.rectangle((40, 140, 390, 146), fill=(52, 22, 64))
    for left in range(40, 380, 24):
        draw.rectangle((left, 110, left + 9, 146), fill=(52, 22, 64))
    assert bars.find(card, page.DARK_BACKGROUND) == []


def _words(*words: tuple[str, int, int, int]) -> Reading:
    """One line of words, each (text, left, width, height), on a common baseline at 160."""
    return Reading(tuple(Word(t, 0.96, (x, 160 - h, w, h), 0) for t, x, w, h in words))


def test_a_lone_number_well_before_a_name_is_a_line_of_its_own() -> None:
    # a threat's Health on a badge left of its name: 103 px apart, 2.7 of the name's heights
    lines = page.lines_of(_words(("5", 115, 34, 49), ("Moonstone", 252, 274, 38)))
    assert [line.text for line in lines] == ["5", "Moonstone"]


def test_a_number_at_a_sentences_start_stays_in_it() -> None:
    lines = page.lines_of(_words(("2", 100, 16, 30), ("damage", 128, 110, 30), ("to", 248, 30, 30)))
    assert [line.text for line in lines] == ["2 damage to"]
    # a table's row of numbers is no name: its numbers stay together however far apart
    lines = page.lines_of(_words(("2", 100, 16, 30), ("3", 200, 16, 30), ("4", 300, 16, 30)))
    assert [line.text for line in lines] == ["2 3 4"]


def test_a_line_the_health_value_was_taken_from_is_no_longer_kept_text() -> None:
    kind = next(k for k in grammar.grammars()["marvel-united"] if k.name == "threat")
    five, name = _line("5", (115, 113, 34, 49)), _line("Moonstone", (252, 119, 274, 38))
    reading = grammar.read(kind, [five, name, _line("Health", (89, 245, 88, 23))], 1040)
    assert reading.kept == ["5"]  # the grammar leaves the lone number to numbers.py
    numbers._used_up(reading, reading.lines, numbers.Number((115, 113, 33, 49), "5", 0.94))
    assert reading.kept == []
    # a number found elsewhere leaves the line kept
    reading = grammar.read(kind, [five, name, _line("Health", (89, 245, 88, 23))], 1040)
    numbers._used_up(reading, reading.lines, numbers.Number((600, 800, 33, 49), "5", 0.94))
    assert reading.kept == ["5"]


def test_a_rule_down_the_cards_side_read_as_bars_opening_lines_is_dropped() -> None:
    # a frame's thin line at x=27, read as `|` before each line; the lines after it start
    # at a tag (indented) and the text, not at one edge, so no two lines line up after it
    lines = [
        _line("Underestimated Thief", (68, 630, 306, 25)),
        _line("| Shocker's Location have any", (27, 676, 467, 29)),
        _line("| Equipment cards, remove 1 of these", (27, 727, 590, 29)),
        _line("| cards from the game.", (27, 777, 356, 29)),
    ]
    out = page._without_frame_marks(lines)
    assert [line.text for line in out] == [
        "Underestimated Thief",
        "Shocker's Location have any",
        "Equipment cards, remove 1 of these",
        "cards from the game.",
    ]


def test_a_one_opening_lines_of_a_list_is_the_texts_own() -> None:
    lines = [
        _line("1 Hero takes 1 damage.", (27, 676, 467, 29)),
        _line("1 Hero discards 1 card.", (27, 727, 590, 29)),
        _line("1 Hero loses 1 action.", (27, 777, 356, 29)),
    ]
    assert page._without_frame_marks(lines) == lines
    # a lone bar opening one line, with no column of them, stays (a body font's 1)
    lone = [
        _line("| Hero takes 1 damage.", (27, 676, 467, 29)),
        _line("Each Hero", (27, 727, 300, 29)),
    ]
    assert [line.text for line in page._without_frame_marks(lone)] == [lone[0].text, "Each Hero"]


def test_the_words_beside_a_tag_opening_with_the_label_word_are_no_label() -> None:
    # `Move the Hero ...`, split from its tag `Superhuman Uppercut`, is a sentence
    assert not grammar_labels.labels("Move the Hero", "MOVE")
    assert grammar_labels.labels("MOVE", "MOVE")
    assert grammar_labels.labels("Move 3", "MOVE")
    assert grammar_labels.labels("Health", "Health") and not grammar_labels.labels(
        "Health is lost", "Health"
    )


def test_a_tables_rows_read_as_text_are_no_sections_words() -> None:
    kind = next(k for k in grammar.grammars()["marvel-united"] if k.name == "dashboard")
    lines = [
        _line("Klaw", (60, 60, 200, 50)),
        _line("Overflow", (60, 700, 200, 30)),
        _line("accelerate the next Villain turn by 1 card.", (60, 740, 600, 30)),
        _line("2 3 4 Heroes", (60, 900, 600, 30)),
        _line("5 6 7", (60, 950, 600, 30)),
    ]
    reading = grammar.read(kind, lines, 1050)
    assert reading.values["dashboard/overflow"] == "accelerate the next Villain turn by 1 card."
    # a sentence holding the heads' numbers is rules text
    assert (
        grammar_lines.table_rows(lines, ["Deal 2 3 4 damage to each Hero"], ["2", "3", "4"]) == []
    )


def test_a_lone_short_word_well_taller_than_the_text_read_unsurely_is_a_glyph() -> None:
    # the Move's `*` on its pennant read `bad` at 0.69, 1.6 times the text's height
    assert lines_read.pictured(_line("bad", (540, 188, 95, 47), confidence=0.69), 29.0)
    assert not lines_read.pictured(_line("bad", (540, 188, 95, 47), confidence=0.95), 29.0)
    assert not lines_read.pictured(_line("KO", (60, 188, 60, 30), confidence=0.6), 29.0)
    assert not lines_read.pictured(_line("Entangle", (60, 188, 200, 47), confidence=0.6), 29.0)


def _worded(words: list[tuple[str, int, int]], top: int, height: int = 29) -> page.Line:
    """A line of words, each (text, left, width), its box round them."""
    placed = tuple(Word(t, 0.96, (x, top, w, height), 0) for t, x, w in words)
    right = max(x + w for _, x, w in words)
    box = (words[0][1], top, right - words[0][1], height)
    return page.Line(" ".join(t for t, _, _ in words), 0.96, box, float(height), placed)


def test_a_line_across_a_tag_with_no_word_inside_it_is_cut_at_the_tag() -> None:
    # the frame's `|` left of the tag, the sentence's words right of it; the tag's own
    # words were noise to the whole-card read
    line = _worded([("|", 27, 6), ("Move", 399, 80), ("the", 485, 50), ("Hero", 541, 85)], 614)
    parts = bar_lines._split_at(line, (60, 618, 330, 40))
    assert [p.text for p in parts] == ["Move the Hero"]
    assert parts[0].box[0] == 399
    # a line on another row is not cut, though it runs across the tag's columns
    below = _worded([("who", 57, 60), ("was", 400, 60)], 672)
    assert bar_lines._split_at(below, (60, 618, 330, 40)) == [below]


def test_a_tall_mark_down_the_cards_edge_does_not_make_a_paragraph_one_row() -> None:
    # a real villain card: junk read down the left edge, 145 px tall, beside three lines
    mark = _line("Pet el ell el ee", (0, 686, 22, 145), confidence=0.32)
    first = _line("Forced Response (Hero): After your", (65, 743, 483, 32))
    second = _line("turn ends, discard the top 4 cards of the", (64, 775, 531, 33))
    third = _line("encounter deck. Place 1 threat on your hero", (61, 808, 579, 30))
    order = page.reading_order([third, mark, second, first])
    assert [ln.text for ln in order if ln is not mark] == [first.text, second.text, third.text]
