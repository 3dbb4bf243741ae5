"""Hand-drawn cases for the page-line rules added for unseen designs: icons read as
letters, a sentence ending on a line of its own, names ending with `!`, a title that is a
sentence or a table's row, and a player-count table read from the page's own lines."""

from __future__ import annotations

from cardkit.ocr import effect_names, fields, grammar, grammar_lines, lines_read, numbers, page
from cardkit.ocr.engine import Reading, Word


def _line(text: str, top: int, height: float = 26.0, confidence: float = 0.95) -> page.Line:
    return page.Line(text, confidence, (50, top, 20 * len(text), round(height)), height)


def _kind(name: str) -> grammar.Kind:
    return next(k for k in grammar.grammars()["marvel-united"] if k.name == name)


def test_icons_read_as_letters_have_no_vowel_and_no_digit() -> None:
    assert lines_read.icon_letters("IL.")
    assert lines_read.icon_letters("Vv")
    assert not lines_read.icon_letters("1 damage.")
    assert not lines_read.icon_letters("Location.")
    assert not lines_read.icon_letters("Add")  # three letters with a vowel: a word


def test_a_sentence_ending_on_a_line_of_its_own_holds_the_flag_word() -> None:
    lines = [_line("Each Henchman activates their", 300), _line("BAM!.", 340)]
    assert lines_read.ends_sentence(lines, 1, "BAM!.")
    lines = [_line("Blastaar 1", 20, 40), _line("BAM!", 120)]
    assert not lines_read.ends_sentence(lines, 1, "BAM!")  # a title ends in a digit


def test_bam_ending_a_sentence_is_no_flag_and_stays_in_the_text() -> None:
    lines = [
        _line("Mole Man 2", 20, 40),
        _line("Each Henchman activates their", 300),
        _line("BAM!.", 340),
        _line("MOVE", 900),
    ]
    reading = grammar.read(_kind("masterplan"), lines, 1030)
    assert "card/bam" not in reading.values
    assert reading.values["card/text"] == "Each Henchman activates their BAM!."


def test_a_title_ends_at_a_wide_space_and_what_stands_beyond_it_is_kept() -> None:
    """A Dashboard's name and, 500 px to its right on the same line, its Heroes table."""
    words = (
        Word("High", 0.96, (74, 85, 112, 52), 0),
        Word("Evolutionary", 0.96, (208, 85, 312, 50), 0),
        Word("Heroes", 0.96, (1027, 92, 128, 31), 0),
        Word("2", 0.49, (1176, 80, 40, 65), 0),
    )
    lines = [*page.lines_of(Reading(words)), _line("Special Rules", 300)]
    reading = grammar.read(_kind("dashboard"), lines, 1150)
    assert reading.values["title"] == "High Evolutionary"
    assert "Heroes 2" in reading.kept
    # words a type height apart are one title
    close = (Word("Venom", 0.96, (74, 85, 150, 50), 0), Word("T-Rex", 0.96, (280, 85, 150, 50), 0))
    assert grammar.title_part(page.lines_of(Reading(close))[0], "Venom T-Rex") == (
        "Venom T-Rex",
        "",
    )


def test_a_number_on_a_disc_beside_a_title_is_a_line_of_its_own() -> None:
    """tesseract puts a disc's digit (141 px tall) on the title's line (41 px type)."""
    words = (
        Word("2)", 0.84, (52, 52, 137, 141), 0),
        Word("Knull", 0.92, (212, 95, 117, 41), 0),
        Word("6", 0.97, (348, 95, 28, 41), 0),
        Word("Add", 0.96, (54, 256, 67, 26), 1),
        Word("1", 0.96, (130, 257, 15, 25), 1),
    )
    lines = page.lines_of(Reading(words))
    assert [ln.text for ln in lines] == ["2)", "Knull 6", "Add 1"]
    assert lines[1].box == (212, 95, 164, 41)
    # an inline icon twice the type's height stays in its line
    icon = (Word("Add", 0.96, (54, 256, 67, 26), 0), Word("Thug", 0.9, (130, 246, 60, 52), 0))
    assert [ln.text for ln in page.lines_of(Reading(icon))] == ["Add Thug"]


def test_a_numbered_title_or_a_movement_sentence_is_a_master_plans_sign() -> None:
    masterplan = _kind("masterplan")
    assert grammar.evidence(masterplan, [_line("Knull 6", 95, 41), _line("Add 1 Civilian.", 256)])
    moving = [_line("Venom", 95, 41), _line("Move clockwise to the next Location", 256)]
    assert grammar.evidence(masterplan, moving) == ["a movement sentence"]
    threat = [_line("Venom T-Rex", 95, 41), _line("Each Hero in its Location takes 2", 256)]
    assert grammar.evidence(masterplan, threat) == []
    # a number not at the title's end, or one in rules text, is no numbered title
    assert (
        grammar.evidence(masterplan, [_line("Symbiote Dragon", 95), _line("Add 2 Thugs", 300)])
        == []
    )


def test_a_name_run_into_its_text_with_a_dash_gets_its_colon() -> None:
    texts = ["On the Run — If Lizard is NOT Under Pressure, remove 1 token.", "Then BAM!"]
    assert (
        effect_names.named(texts)[0]
        == "On the Run: If Lizard is NOT Under Pressure, remove 1 token."
    )
    assert effect_names.named(["Deal Damage - Each Hero takes 1 damage."])[0] == (
        "Deal Damage: Each Hero takes 1 damage."
    )
    assert effect_names.named(["Defend, My Monsters! — Until the next turn."])[0] == (
        "Defend, My Monsters!: Until the next turn."
    )
    # the dash ending its line, the text on the next
    broken = ["Defend, My Monsters! —", "Until the next Villain turn."]
    assert effect_names.named(broken) == ["Defend, My Monsters!:", "Until the next Villain turn."]
    # a dash inside a sentence of rules text is no name's end: its words are in lower case
    sentence = "Move to a Location with the most Thugs — then draw a card."
    assert effect_names.named([sentence]) == [sentence]


def _words_line(parts: list[tuple[str, int]], top: int, height: int = 40) -> page.Line:
    """A line of words, each (text, left), 20 px a letter wide."""
    words = tuple(Word(t, 0.95, (x, top, 20 * len(t), height), 0) for t, x in parts)
    right = max(w.box[0] + w.box[2] for w in words)
    text = " ".join(t for t, _ in parts)
    return page.Line(text, 0.95, (parts[0][1], top, right - parts[0][1], height), height, words)


def test_icons_read_as_letters_inside_the_placement_slots_are_kept_not_rules_text() -> None:
    lines = [
        _line("Shocker 11", 20, 40),
        _line("If Heroes have Equipment, remove 1.", 150),
        _line("QO", 380, 40, 0.82),  # thug discs in the middle slot, read as letters
        _line("MOVE", 900),
    ]
    slots = [(40, 340, 200, 470), (210, 340, 370, 470), (380, 340, 540, 470)]
    reading = grammar.read(_kind("masterplan"), lines, 1040, slots)
    assert reading.values["card/text"] == "If Heroes have Equipment, remove 1."
    assert "QO" in reading.kept
    # without the diagram the same line is read as text (nothing tells it from a word)
    assert "QO" in grammar.read(_kind("masterplan"), lines, 1040).values["card/text"]


def test_a_flag_word_between_a_tags_edges_is_used_up_not_rules_text() -> None:
    # BAM! on a tag beside the title, its edges read as bars: the flag, no rules text
    lines = [
        _words_line(
            [("Purple", 30), ("Man", 170), ("2", 250), ("|", 450), ("BAM!", 470), ("|", 560)], 20
        ),
        _line("Subjugate Crowd", 150),
        _line("Turn the leftmost Civilian into a Thug.", 200),
        _line("MOVE", 900),
    ]
    reading = grammar.read(_kind("masterplan"), lines, 1040)
    assert reading.values["card/bam"] is True
    assert reading.values["card/text"].startswith("Subjugate Crowd: Turn")


def test_a_sentence_broken_after_a_connector_is_no_effect_name() -> None:
    texts = ["Throwing Knives: Each Hero in", "Crossbones' and both adjacent Locations."]
    assert effect_names.named(texts) == texts
    texts = ["Each Hero in", "Crossbones' Location discards."]
    assert effect_names.named(texts) == texts


def test_a_flag_word_alone_over_the_title_is_no_title() -> None:
    lines = [
        _line("BAM!", 17, 30),
        _line("Crossbones 1", 87, 40),
        _line("Throwing Knives: Each Hero discards.", 206),
        _line("MOVE", 900),
    ]
    reading = grammar.read(_kind("masterplan"), lines, 1040)
    assert reading.values["title"] == "Crossbones 1"
    assert reading.values["card/bam"] is True


def test_a_line_read_unsurely_inside_a_paragraph_is_its_text() -> None:
    lines = [
        _line("Crossbones 1", 20, 40),
        _line("Each Hero in", 200, 27),
        _line("Crossbones' and both adjacent", 250, 28, 0.56),  # a curly apostrophe
        _line("Locations must discard 1 card.", 300, 28),
        _line("Le JLe |", 860, 27, 0.5),  # icons: no paragraph round them
        _line("MOVE", 900),
    ]
    text = grammar.read(_kind("masterplan"), lines, 1040).values["card/text"]
    assert text == "Each Hero in Crossbones' and both adjacent Locations must discard 1 card."


def test_a_title_tesseract_split_in_two_overlapping_lines_is_joined_again() -> None:
    split = [
        page.Line("Hobg", 0.93, (234, 60, 108, 60), 60.0),
        page.Line("goblin 7", 0.89, (329, 60, 165, 60), 60.0),  # starts inside `Hobg`
        _line("Criminal Power Rising. If Hobgoblin is NOT Under Pressure,", 169, 30),
        _line("MOVE", 900),
    ]
    reading = grammar.read(_kind("masterplan"), split, 1040)
    assert reading.values["title"] == "Hobgoblin 7"
    # two lines of one row a word space apart are one line; two columns are not
    words = [
        page.Line("Baron", 0.9, (40, 60, 150, 50), 50.0),
        page.Line("Zemo 3", 0.9, (205, 60, 160, 50), 50.0),
    ]
    assert [ln.text for ln in grammar_lines.rejoined(words)] == ["Baron Zemo 3"]
    columns = [
        page.Line("Each Hero", 0.9, (40, 300, 300, 30), 30.0),
        page.Line("For each", 0.9, (600, 300, 250, 30), 30.0),
    ]
    assert len(grammar_lines.rejoined(columns)) == 2


def test_a_title_below_the_band_is_the_first_line_built_as_titles_are() -> None:
    # a phone photo read whole (its card's outline not found): the card lower in the image
    lines = [
        _line("Maximus 5", 246, 30),
        _line("Brain Manipulation", 355, 26),
        _line("Until the next Villain Turn, Heroes draw.", 406, 22),
        _line("MOVE", 1100),
    ]
    reading = grammar.read(_kind("masterplan"), lines, 1400)
    assert reading.values["title"] == "Maximus 5"
    assert reading.values["card/text"].startswith("Brain Manipulation: Until")
    # a rules line ending in a number, no larger than the text, is no title
    rules = [
        _line("Berserkers Invasion", 423, 29),
        _line("All Threats in play move clockwise 1", 480, 28),
        _line("Location and activate their BAM!.", 525, 29),
        _line("MOVE", 985),
    ]
    assert "title" not in grammar.read(_kind("masterplan"), rules, 1400).values


def test_a_numbered_title_sign_is_read_up_to_a_wide_space() -> None:
    # a threat's name and its Health box far right on the same line: no `Lizard 9`
    masterplan = _kind("masterplan")
    far = [_words_line([("Fixer", 40), ("HP", 520), ("3", 590)], 30)]
    assert "a numbered title" not in grammar.evidence(masterplan, far)
    # the box round the Health read as tall marks beside the name: the name's own height
    boxed = page.Line(
        "Goliath }HP 5 |",
        0.7,
        (40, 30, 590, 97),
        97.0,
        (
            Word("Goliath", 0.9, (40, 50, 200, 45), 0),
            Word("}HP", 0.6, (400, 30, 90, 97), 0),
            Word("5", 0.9, (520, 30, 50, 97), 0),
            Word("|", 0.5, (620, 30, 10, 97), 0),
        ),
    )
    assert "a numbered title" not in grammar.evidence(masterplan, [boxed])
    near = [_words_line([("Lizard", 40), ("9", 180)], 30)]
    assert "a numbered title" in grammar.evidence(masterplan, near)


def test_a_number_by_either_of_its_labels_and_a_short_label_only_as_a_word() -> None:
    threat = _kind("threat")
    lines = [_line("Fixer", 30, 60), _line("HP 3", 40, 60), _line("Discard 1 Civilian.", 200)]
    assert grammar.read(threat, lines, 1040).values["card/health"] == 3
    lines = [_line("Fixer", 30, 60), _line("Health 5", 40, 60), _line("Discard 1.", 200)]
    assert grammar.read(threat, lines, 1040).values["card/health"] == 5
    # a short line holding the letters of a short label inside a word is no label alone
    lines = [
        _line("Fixer", 30, 60),
        _line("HP 3", 40, 60),
        _line("Uhp", 120),
        _line("Discard 1 Civilian.", 200),
    ]
    held = grammar.read(threat, lines, 1040)
    assert "Uhp" in " ".join([*held.kept, str(held.values.get("card/text", ""))])
    # the letters of `each player` run together hold `hp`: no label there
    assert not fields.has_label("each player 3", "HP")
    assert fields.has_label("}HP 3 |", "HP")
    assert fields.label_in({"label": ["Health", "HP"]}, ["HP 4"]) == "HP"
    assert fields.label_in({"label": ["Health", "HP"]}, ["nothing"]) == "Health"


def test_a_name_in_capitals_run_into_its_sentence_is_a_name_written_in_title_case() -> None:
    # small capitals read as capitals, no mark between the name and its sentence
    texts = ["HAMMER OF SKIRN Until the next Villain turn,", "Heroes in her Location."]
    assert effect_names.named(texts)[0] == "Hammer of Skirn: Until the next Villain turn,"
    broken = ["DEFEND, MY MONSTERS! Each Henchman", "activates."]
    assert effect_names.named(broken)[0] == "Defend, My Monsters!: Each Henchman"
    # small capitals read partly in small letters: the name goes on to its `!`
    mixed = ["DEFEND, My Monsters! Until the next", "Villain turn."]
    assert effect_names.named(mixed)[0] == "Defend, My Monsters!: Until the next"
    # a name in capitals on a line of its own is written in title case too
    assert effect_names.named(["UNAWARE PAWNS", "Each Hero draws."])[0] == "Unaware Pawns:"
    # a short word in capitals opening a sentence is no name, nor one inside a paragraph
    for sentence in (["BAM! Each Hero draws."], ["HYDRA Agents move 1."]):
        assert effect_names.named(sentence) == sentence
    inside = ["Each Hero moves to", "SHIELD HEADQUARTERS Each turn."]
    assert effect_names.named(inside) == inside


def test_a_name_of_three_words_or_more_may_end_with_an_exclamation_mark() -> None:
    texts = ["Attack the Surface, My Monsters!", "Each Henchman activates their BAM!."]
    assert effect_names.named(texts)[0] == "Attack the Surface, My Monsters!:"
    assert effect_names.named(["Then BAM!", "Each Hero draws."])[0] == "Then BAM!"


def test_a_title_is_no_sentence_and_no_row_of_numbers() -> None:
    lines = [
        _line("Health | 10 | 12 | 13", 20, 40),
        _line("Sonic Wave Blast. Move each Hero", 60),
        _line("Klaw 1", 100, 40),
        _line("MOVE", 900),
    ]
    reading = grammar.read(_kind("masterplan"), lines, 1030)
    assert reading.values["title"] == "Klaw 1"


def _worded(text: str, top: int) -> page.Line:
    words = tuple(Word(w, 0.93, (50 + 60 * n, top, 40, 30), 0) for n, w in enumerate(text.split()))
    return page.Line(text, 0.93, (50, top, 60 * len(words), 30), 30.0, words)


def test_a_player_count_table_is_read_from_the_pages_rows() -> None:
    lines = [_worded("Heroes 2 3 4", 900), _worded("Health 10 12 13", 940)]
    found = numbers.table_in_lines(lines, [2, 3, 4])
    assert found is not None
    assert found[0] == {"2": 10, "3": 12, "4": 13}
    assert numbers.table_in_lines([_worded("Heroes 2 3 4", 900)], [2, 3, 4]) is None
    far = [_worded("Heroes 2 3 4", 100), _worded("Health 10 12 13", 900)]
    assert numbers.table_in_lines(far, [2, 3, 4]) is None  # a row far below is another's


def test_the_numbers_a_page_read_as_words_count_as_table_cells() -> None:
    lines = [_worded("Heroes 2 3 4", 900), _worded("Health 10 12 13", 940)]
    cells = numbers.read_numbers(lines)
    assert [n.text for n in cells] == ["2", "3", "4", "10", "12", "13"]
    found = numbers.table(cells, [2, 3, 4])
    assert found is not None and found[0] == {"2": 10, "3": 12, "4": 13}


def test_a_threats_title_no_taller_than_its_text_is_its_name_when_set_apart() -> None:
    """A narrow display face: the title's line 21 px, the text's 16-20 px, the title 41 px
    above the text; without the gap, a rules line under a title not read is no name."""
    lines = [
        _line("Pumpkin Bomb Trap", 24, 21),
        _line("Heroes taking damage in this", 86, 20),
        _line("Location take 1 additional", 111, 16),
        _line("damage.", 136, 20),
    ]
    reading = grammar.read(_kind("threat"), lines, 522)
    assert reading.values["card/name"] == "Pumpkin Bomb Trap"
    assert reading.values["card/text"].startswith("Heroes taking damage")
    unread = grammar.read(_kind("threat"), lines[1:], 522)
    assert "card/name" not in unread.values


def test_a_line_read_as_junk_is_no_title() -> None:
    """A skewed card's top edge read at 0.24 above the Villain's name."""
    lines = [
        _line("Ae a Te a a a I A Se tl gee", 2, 18, confidence=0.24),
        _line("Venom", 40, 50),
        _line("Special Rules", 170),
    ]
    assert grammar.read(_kind("dashboard"), lines, 1150).values["title"] == "Venom"


def test_a_tall_mark_at_the_cards_edge_does_not_raise_the_titles_bar() -> None:
    """A skewed scan's edge read as a `|` 141 px tall above a threat's 54 px title."""
    lines = [
        _line("|", 28, 141, confidence=0.74),
        _line("Hiding Place", 73, 54),
        _line("If Bullseye is in this Location, he", 213, 41),
        _line("cannot take damage.", 267, 40),
    ]
    reading = grammar.read(_kind("threat"), lines, 1044)
    assert reading.values["card/name"] == "Hiding Place"
    assert reading.values["card/text"] == "If Bullseye is in this Location, he cannot take damage."


def test_a_locations_name_in_capitals_at_the_bottom_of_a_strip_is_its_name() -> None:
    """A strip location (617 px high): its heading and text at the top, its name in
    capitals at the bottom; a square location whose name was not read takes no rules
    line from its bottom band, nor its END OF TURN heading."""
    strip = [
        _line("ALTERNATIVE END OF TURN", 99, 52),
        _line("Gain 1 Training card.", 193, 66),
        _line("THE DANGER ROOM", 452, 78),
    ]
    reading = grammar.read(_kind("location"), strip, 617)
    assert reading.values["name"] == "THE DANGER ROOM"
    assert reading.values["text"] == "Gain 1 Training card."
    square = [
        _line("Each Hero here draws 1 card.", 900, 40),
        _line("END OF TURN", 1300, 40),
        _line("Move each Hero 1 space.", 1450, 40),
    ]
    assert "name" not in grammar.read(_kind("location"), square, 1615).values


def test_a_title_is_not_cut_at_a_dash_whose_own_height_is_small() -> None:
    # a dash 6 px high between words of a 50 px title, at the title's own word spaces
    words = (
        Word("Cloak", 0.96, (74, 85, 150, 50), 0),
        Word("-", 0.9, (244, 108, 16, 6), 0),
        Word("Dagger", 0.96, (280, 85, 170, 50), 0),
    )
    line = page.Line("Cloak - Dagger", 0.95, (74, 85, 376, 50), 50.0, words)
    assert grammar.title_part(line, line.text) == ("Cloak - Dagger", "")


def test_a_name_read_in_small_letters_keeps_its_terms_in_capitals() -> None:
    # `KO`, `HYDRA`: terms printed in capitals inside a name read in mixed case
    assert effect_names.named(["KO Blast. Each Hero discards 1."])[0] == (
        "KO Blast: Each Hero discards 1."
    )
    texts = ["Call the HYDRA Agents — Each Hero", "discards."]
    assert effect_names.named(texts)[0] == "Call the HYDRA Agents: Each Hero"


def test_a_sentence_opening_in_capitals_is_no_name() -> None:
    # a run in capitals longer than a name's NAME_WORDS words: emphasis, no name
    texts = ["IF A HERO IS IN THE VILLAIN'S LOCATION Each Hero discards."]
    assert effect_names.named(texts) == texts


def test_of_two_labels_the_one_the_card_prints_first_not_one_in_its_rules_text() -> None:
    threat = _kind("threat")
    lines = [_line("Fixer", 30, 60), _line("HP 3", 40, 60), _line("Each Hero loses 1 Health.", 200)]
    reading = grammar.read(threat, lines, 1040)
    assert reading.values["card/health"] == 3
    assert reading.values["card/text"] == "Each Hero loses 1 Health."
