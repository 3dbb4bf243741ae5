"""Threats and Dashboards on any design: headed sections in one or two columns (sections.py),
the player-count table and Health as numbers found by shape (numbers.py). Small cases
written or drawn here, and the real engine on design-b's samples; expectations by hand."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from cardkit.check.validate import check
from cardkit.files import yamlio
from cardkit.ocr import grammar, numbers, page, sections
from cardkit.ocr.engine import Reading, Word
from tests.drawn_fonts import dejavu

NEEDS_TESSERACT = pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract")
DESIGN_B = Path(__file__).resolve().parent.parent / "scans" / "samples" / "marvel-united-design-b"


def line(*parts: tuple[str, int], top: int, height: int = 30) -> page.Line:
    """A line of words, each (text, left); words 16 px a letter wide."""
    words = tuple(Word(t, 0.95, (x, top, 16 * len(t), height), 0) for t, x in parts)
    left = min(w.box[0] for w in words)
    right = max(w.box[0] + w.box[2] for w in words)
    text = " ".join(t for t, _ in parts)
    return page.Line(text, 0.95, (left, top, right - left, height), float(height), words)


def words_at(text: str, left: int) -> list[tuple[str, int]]:
    out, x = [], left
    for word in text.split():
        out.append((word, x))
        x += 16 * len(word) + 10  # a word space: 10 px
    return out


def dashboard() -> grammar.Kind:
    return next(k for k in grammar.grammars()["marvel-united"] if k.name == "dashboard")


def test_a_line_run_across_two_columns_is_cut_at_the_gutter() -> None:
    merged = line(*words_at("she is", 50), *words_at("If 1 or more", 900), top=240)
    cut = sections.segments([merged])
    assert [s.text for s in cut] == ["she is", "If 1 or more"]
    assert cut[1].box[0] == 900
    # a bar read in the gutter is a column's edge, in neither column
    barred = line(*words_at("a Hero", 50), ("|", 300), *words_at("When either", 900), top=280)
    assert [s.text for s in sections.segments([barred])] == ["a Hero", "When either"]
    # ... and one between two words of a column is that column's (a body font's 1)
    one = line(*words_at("Move | Hero", 50), *words_at("bring back | random", 900), top=320)
    assert [s.text for s in sections.segments([one])] == ["Move | Hero", "bring back | random"]


def test_a_heading_opens_a_section_a_sentence_opening_with_its_word_does_not() -> None:
    heads = ["Special Rules", "BAM!", "Villainous Plot", "Heroic Goal"]
    assert sections.heading_of("BAM!", heads) == ("BAM!", "")
    assert sections.heading_of("Villainous Plot - Evolution Track", heads) == (
        "Villainous Plot",
        "Evolution Track",
    )
    assert sections.heading_of("Villainous Plot Heroic Goal", heads) == (
        "Villainous Plot",
        "Heroic Goal",
    )
    assert sections.heading_of("BAM! Instead, the Hero gets a KO token.", heads) is None
    assert sections.heading_of("Deal 1 damage.", heads) is None
    # a diamond before a heading, read as a bullet of its own
    assert sections.heading_of("• Villainous Plot - Evolution Track", heads) == (
        "Villainous Plot",
        "Evolution Track",
    )
    assert sections.heading_of("• Deal 1 damage.", heads) is None
    assert sections.heading_of("Special Rules 2", heads) == ("Special Rules", "")
    # a square ornament read as a short word in lower case
    assert sections.heading_of("mg BAM!", heads) == ("BAM!", "")
    assert sections.heading_of("a BAM! effect.", heads) is None
    # a square ornament read as a lone digit, the heading standing alone after it
    assert sections.heading_of("8 Villainous Plot", heads) == ("Villainous Plot", "")
    assert sections.heading_of("8 Special Rules apply here.", heads) is None
    # a sentence ending on a heading's words, at a line's start, is no heading
    assert sections.heading_of("Villainous Plot.", heads) is None


def test_two_columns_in_any_order_give_each_heading_its_own_text() -> None:
    """Left column: Special Rules, then BAM!; right column (set lower): Overflow, then the
    Villainous Plot. tesseract ran the first body line of both columns into one line."""
    lines = [
        line(*words_at("Titania", 50), top=40, height=50),
        line(*words_at("Special Rules", 50), *words_at("Overflow", 900), top=180),
        line(*words_at("Each time Titania is", 50), *words_at("If 1 or more", 900), top=240),
        line(
            *words_at("reduced to 0 Health.", 50), *words_at("tokens can't be added.", 900), top=290
        ),
        line(*words_at("Villainous Plot", 900), top=370),
        line(*words_at("The Heroes lose when", 900), top=430),
        line(*words_at("BAM!", 50), top=450),
        line(*words_at("they have no cards.", 900), top=480),
        line(*words_at("1 Hero takes 1 damage.", 50), top=510),
    ]
    read = grammar.read(dashboard(), lines, 1181)
    assert read.values["title"] == "Titania"
    assert read.values["dashboard/special_rules"] == "Each time Titania is reduced to 0 Health."
    assert read.values["dashboard/overflow"] == "If 1 or more tokens can't be added."
    assert (
        read.values["dashboard/villainous_plot/text"] == "The Heroes lose when they have no cards."
    )
    assert read.values["dashboard/bam"] == "1 Hero takes 1 damage."
    assert read.kept == []


def test_a_columns_text_starting_left_of_its_headings_ornament_stays_whole() -> None:
    """Headings set after a diamond (not read): the right column's text starts 45 px left
    of its heading (1.5 type heights); every line of it is the Overflow's, none cut."""
    lines = [
        line(*words_at("Special Rules", 50), top=180),
        line(*words_at("Overflow", 930), top=180),
        line(*words_at("Each time Titania is", 50), top=240),
        line(*words_at("If 1 or more", 885), top=240),
        line(*words_at("a Master Plan card.", 885), top=290),
        line(*words_at("reduced to 0 Health.", 50), top=290),
    ]
    # a left column's line ending 2 type heights short of the right column's edge
    lines.append(line(*words_at("Once per turn, be", 628), top=340))  # `be` at 850
    read = grammar.read(dashboard(), lines, 1181)
    assert read.values["dashboard/overflow"] == "If 1 or more a Master Plan card."
    assert read.values["dashboard/special_rules"] == (
        "Each time Titania is reduced to 0 Health. Once per turn, be"
    )
    assert read.kept == []


def test_a_section_ends_at_a_wide_gap_and_what_follows_is_kept() -> None:
    lines = [
        line(*words_at("BAM!", 50), top=180),
        line(*words_at("Deal 1 damage.", 50), top=240),
        line(*words_at("Printed far below.", 50), top=700),
    ]
    read = grammar.read(dashboard(), lines, 1181)
    assert read.values["dashboard/bam"] == "Deal 1 damage."
    assert read.kept == ["Printed far below."]


def n(text: str, x: int, y: int, sure: float = 0.95, h: int = 40) -> numbers.Number:
    return numbers.Number((x, y, 24 * len(text), h), text, sure)


def test_the_player_count_table_is_read_in_a_row_or_a_column() -> None:
    row = [n("2", 1400, 960), n("3", 1510, 960), n("4", 1620, 960)]
    under = [n("5", 1400, 1050), n("7", 1510, 1050), n("10", 1610, 1050, 0.7)]
    assert numbers.table(row + under, [2, 3, 4]) == ({"2": 5, "3": 7, "4": 10}, 0.7)
    column = [n("2", 1530, 50), n("3", 1530, 120), n("4", 1530, 190)]
    beside = [n("5", 1630, 50), n("8", 1630, 120), n("11", 1625, 190)]
    assert numbers.table(column + beside, [2, 3, 4]) == ({"2": 5, "3": 8, "4": 11}, 0.95)
    # a value printed blank is None; a table without its heads is no table
    assert numbers.table(row + under[:2], [2, 3, 4]) == ({"2": 5, "3": 7, "4": None}, 0.95)
    assert numbers.table(under, [2, 3, 4]) is None


def _read(tmp_path: Path, scan: Path) -> dict[str, object]:
    from cardkit.ocr import batch
    from cardkit.ocr.pipeline import Options

    out = tmp_path / "out"
    settings = batch.Settings(out, options=Options(("marvel-united",), 0.9))
    [result] = batch.run([scan], settings, jobs=1)
    assert result.ok, result.message
    document: dict[str, object] = yamlio.load_text((out / f"{scan.stem}.yaml").read_text())
    report, _ = check([out / f"{scan.stem}.yaml"])
    assert report.errors == 0, [d.message for d in report.diagnostics]
    return document


@NEEDS_TESSERACT
def test_a_drawn_two_column_dashboard_reads_its_sections_and_table(tmp_path: Path) -> None:
    """A dashboard no template describes: grey card, two columns, BAM! first, the table in
    a column at the top right (Hero counts in white on black, values beside them)."""
    card = Image.new("RGB", (1800, 1200), (235, 235, 230))
    pen = ImageDraw.Draw(card)
    pen.text((60, 40), "Mandarin", font=dejavu(64), fill=(20, 20, 20))
    body, head = dejavu(34, bold=False), dejavu(38)
    pen.text((60, 200), "BAM!", font=head, fill=(150, 20, 20))
    pen.text((60, 260), "Deal 1 damage to each Hero", font=body, fill=(20, 20, 20))
    pen.text((60, 310), "in the Villain's Location.", font=body, fill=(20, 20, 20))
    pen.text((60, 420), "Overflow", font=head, fill=(150, 20, 20))
    pen.text((60, 480), "Each Hero discards 1 card.", font=body, fill=(20, 20, 20))
    pen.text((960, 420), "Villainous Plot", font=head, fill=(150, 20, 20))
    pen.text((960, 480), "The Heroes lose when the", font=body, fill=(20, 20, 20))
    pen.text((960, 530), "Crisis track is full.", font=body, fill=(20, 20, 20))
    for row, (heroes, value) in enumerate([(2, 6), (3, 9), (4, 12)]):
        y = 40 + row * 100
        pen.rectangle((1500, y, 1590, y + 90), fill=(20, 20, 20))
        pen.text((1545, y + 45), str(heroes), font=dejavu(60), fill=(255, 255, 255), anchor="mm")
        pen.text((1670, y + 45), str(value), font=dejavu(60), fill=(20, 20, 20), anchor="mm")
    from cardkit.ocr.engine import make_engine

    engine = make_engine("tesseract")
    lines = page.read_page(card, engine, "mandarin")  # the real engine's whole-card read
    read = grammar.read(dashboard(), lines, card.height)
    numbers.refine(read, card, engine, "mandarin")
    assert read.values["title"] == "Mandarin"
    assert read.values["dashboard/bam"] == "Deal 1 damage to each Hero in the Villain's Location."
    assert read.values["dashboard/overflow"] == "Each Hero discards 1 card."
    plot = read.values["dashboard/villainous_plot/text"]
    assert plot == "The Heroes lose when the Crisis track is full."
    assert read.values["dashboard/player_count"] == {"heroes": {"2": 6, "3": 9, "4": 12}}


@NEEDS_TESSERACT
def test_a_design_b_threat_reads_by_grammar_end_to_end(tmp_path: Path) -> None:
    """design-b (benchmarks/paint_designs.py): a threat with its Health in a red badge,
    white on red, through the whole pipeline (a template decides the kind)."""
    threat = _read(tmp_path, DESIGN_B / "design-b-mole-man-threat-dromedan-skew2.jpg")
    assert threat["kind"] == "marvel-united/threat-card"
    card = threat["card"]
    assert isinstance(card, dict)
    assert card["name"] == "Dromedan"
    assert str(card["text"]).startswith("BAM!: 1 Hero anywhere takes 1 damage")
    assert str(card["text"]).endswith("discard 1 Crisis token from any Location.")
    assert card["health"] == 5


@NEEDS_TESSERACT
def test_a_heading_on_a_coloured_tag_the_page_read_lost_is_added() -> None:
    """A lime tag with `Overflow` in dark type; the page read gave only the text under it
    (as a phone photo's often does). The tag is read alone and heads its section; a tag
    reading a heading a line already holds adds nothing."""
    from cardkit.ocr import tag_headings
    from cardkit.ocr.engine import TesseractEngine

    card = Image.new("RGB", (1181, 787), (236, 240, 232))
    pen = ImageDraw.Draw(card)
    pen.rounded_rectangle((40, 120, 210, 170), 8, fill=(196, 226, 60))
    pen.text((125, 145), "Overflow", font=dejavu(30), fill=(30, 40, 20), anchor="mm")
    text = [line(*words_at("If 1 or more tokens", 40), top=190)]
    lines = tag_headings.added(dashboard(), text, card, TesseractEngine(), "tag")
    assert [ln.text for ln in lines] == ["Overflow", "If 1 or more tokens"]
    read = grammar.read(dashboard(), lines, 787)
    assert read.values["dashboard/overflow"] == "If 1 or more tokens"
    held = [line(*words_at("Overflow", 40), top=130), *text]
    assert tag_headings.added(dashboard(), held, card, TesseractEngine(), "tag2") == held


def test_one_column_lines_are_not_cut_at_a_photos_wide_word_spaces() -> None:
    """Every heading at one left edge: a line whose word spaces run wide (2 type heights,
    as a phone photo's do) is one line of its section, in its order (its second part,
    holding a taller `/`, does not go first), and nothing is kept."""
    wide = line(("If", 50), ("1", 130), ("or", 200), ("more", 300), ("/", 390), top=240)
    slash = Word("/", 0.95, (390, 230, 16, 50), 0)  # taller than the line's type
    wide = page.Line(wide.text, 0.95, wide.box, 30.0, (*wide.words[:4], slash))
    lines = [
        line(*words_at("Special Rules", 50), top=180),
        wide,
        line(*words_at("Overflow", 50), top=320),
        line(*words_at("Deal 1 damage.", 50), top=380),
    ]
    read = grammar.read(dashboard(), lines, 1181)
    assert read.values["dashboard/special_rules"] == "If 1 or more /"
    assert read.values["dashboard/overflow"] == "Deal 1 damage."
    assert read.kept == []


class _Columns:
    """Reads each column strip (`.../column<n>/page`) as the lines written for it; every
    other read gives nothing."""

    name = "columns"

    def __init__(self, columns: list[list[str]]) -> None:
        self.columns = columns

    def version(self) -> str:
        return "0"

    def read(self, image: Image.Image, mode: str, *, key: str, whitelist: str = "") -> Reading:
        for number, texts in enumerate(self.columns):
            if key.endswith(f"column{number}/page"):
                words = [
                    Word(
                        t, 0.95, (x - (0 if number == 0 else 850), 60 + 50 * n, 16 * len(t), 30), n
                    )
                    for n, text in enumerate(texts)
                    for t, x in words_at(text, 50 if number == 0 else 900)
                ]
                return Reading(tuple(words))
        return Reading()


def test_a_card_read_again_by_columns_wins_only_with_more_sections_or_more_text() -> None:
    from cardkit.ocr import columns

    lines = [
        line(*words_at("Special Rules", 50), *words_at("Overflow", 900), top=180),
        line(*words_at("Each time Titania is", 50), *words_at("If 1 or more", 900), top=240),
        line(
            *words_at("reduced to 0 Health.", 50), *words_at("tokens can't be added.", 900), top=290
        ),
    ]
    first = grammar.read(dashboard(), lines, 787)
    card = Image.new("RGB", (1181, 787), (240, 240, 240))
    left = ["Special Rules", "Each time Titania is", "reduced to 0 Health."]
    # the same text and one stray word more: the first reading stands
    right = ["Overflow", "If 1 or more", "tokens can't be added. |x"]
    kept = columns.reread(first, card, _Columns([left, right]), "k")
    assert kept is first
    # the first reading lost the right column's text: the columns read alone stand
    lost = grammar.read(dashboard(), [lines[0], line(*words_at("Each time", 50), top=240)], 787)
    again = columns.reread(
        lost, card, _Columns([left, [*right[:2], "tokens can't be added."]]), "k2"
    )
    assert again is not lost
    assert again.values["dashboard/overflow"] == "If 1 or more tokens can't be added."


@NEEDS_TESSERACT
def test_a_heading_in_white_on_a_dark_band_across_the_card_is_added() -> None:
    """`Overflow` in white on a dark red band 1000 px long (wider than any BAM! mark),
    its text under it the only line the page read gave."""
    from cardkit.ocr import tag_headings
    from cardkit.ocr.engine import TesseractEngine

    card = Image.new("RGB", (1181, 787), (246, 244, 240))
    pen = ImageDraw.Draw(card)
    pen.rectangle((40, 124, 1100, 160), fill=(120, 20, 36))
    pen.text((50, 142), "Overflow", font=dejavu(28), fill=(250, 250, 250), anchor="lm")
    text = [line(*words_at("If 1 or more tokens", 40), top=184)]
    lines = tag_headings.added(dashboard(), text, card, TesseractEngine(), "band")
    assert [ln.text for ln in lines] == ["Overflow", "If 1 or more tokens"]


def test_words_beside_a_heading_on_its_line_are_not_its_text() -> None:
    """A table's heads printed at the card's right edge on the headings' line: not the
    Overflow's text, kept."""
    lines = [
        line(*words_at("Special Rules", 50), top=180),
        line(*words_at("Overflow", 760), top=181),
        line(*words_at("Heroes Health", 1400), top=185),
        line(*words_at("Each time Titania is", 50), top=240),
        line(*words_at("If 1 or more", 760), top=240),
    ]
    read = grammar.read(dashboard(), lines, 1181)
    assert read.values["dashboard/overflow"] == "If 1 or more"
    assert read.kept == ["Heroes Health"]


def test_a_tables_lone_numbers_beyond_the_columns_text_are_not_its_text() -> None:
    """An upright Heroes table at the right edge: its counts (`2`, `3`) stand level with
    the Overflow's lines, beyond where they end; a lone number within the text's width
    (a wrapped `1`) is text."""
    lines = [
        line(*words_at("Overflow", 60), top=180),
        line(("2", 1500), top=240),
        line(*words_at("If one or more tokens cannot be added", 60), top=241),
        line(("3", 1500), top=300),
        line(*words_at("to a Location, bring back", 60), top=301),
        line(("1", 60), top=361),
    ]
    read = grammar.read(dashboard(), lines, 1181)
    text = "If one or more tokens cannot be added to a Location, bring back 1"
    assert read.values["dashboard/overflow"] == text
    assert read.kept == ["2", "3"]
