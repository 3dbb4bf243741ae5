"""Hand-drawn cases from design-j: a name printed on a band at the card's foot, a Health pill
beside it read into its line (the label misspelt by a letter), and a table's row label
alone at the top of a Dashboard, which is no title."""

from __future__ import annotations

from cardkit.ocr import grammar, grammar_labels, page
from cardkit.ocr.engine import Word


def _line(text: str, box: tuple[int, int, int, int], confidence: float = 0.95) -> page.Line:
    return page.Line(text, confidence, box, float(box[3]))


def _kind(name: str) -> grammar.Kind:
    return next(k for k in grammar.grammars()["marvel-united"] if k.name == name)


def _worded(words: list[tuple[str, int, int, int]], top: int) -> page.Line:
    """A line of words (text, left, width, height), their box round them."""
    placed = tuple(Word(t, 0.93, (x, top, w, h), 0) for t, x, w, h in words)
    right = max(x + w for _, x, w, _ in words)
    tall = max(h for *_, h in words)
    box = (words[0][1], top, right - words[0][1], tall)
    return page.Line(" ".join(w[0] for w in words), 0.93, box, float(tall), placed)


def test_a_threats_name_on_a_band_at_its_foot_with_its_health_pill() -> None:
    # nothing at the top; the text in a panel; the name and `Health 5` in the foot band
    lines = [
        _line("BAM!: Deal 2 damage to", (100, 340, 480, 30)),
        _line("each Hero in this", (100, 400, 300, 30)),
        _line("Location.", (100, 460, 160, 30)),
        _worded(
            [
                ("Venom", 68, 180, 42),
                ("T-Rex", 264, 149, 42),
                ("(Heath", 481, 117, 82),
                ("5", 617, 15, 82),
            ],
            926,
        ),
    ]
    reading = grammar.read(_kind("threat"), lines, 1050)
    assert reading.values["card/name"] == "Venom T-Rex"
    assert reading.values["card/health"] == 5
    assert reading.values["card/text"] == "BAM!: Deal 2 damage to each Hero in this Location."
    assert reading.kept == []


def test_a_last_line_of_text_at_the_foot_in_the_texts_own_type_is_no_title() -> None:
    lines = [
        _line("Moonstone", (100, 60, 300, 44)),
        _line("Each Hero in this Location", (60, 800, 520, 30)),
        _line("takes 1 damage", (60, 860, 300, 30)),
    ]
    reading = grammar.read(_kind("threat"), lines, 1050)
    assert reading.values["card/name"] == "Moonstone"
    assert reading.values["card/text"] == "Each Hero in this Location takes 1 damage"


def test_a_name_is_cut_before_a_label_of_its_card() -> None:
    kind = _kind("threat")
    assert grammar_labels.before_label(kind, "Venom T-Rex (Heath 5", "") == (
        "Venom T-Rex",
        "(Heath 5",
    )
    assert grammar_labels.before_label(kind, "Fixer", "HP 3") == ("Fixer", "HP 3")
    # the label word first is the line's own (a table's `Health 10 12 13`)
    assert grammar_labels.before_label(kind, "Health 5", "") == ("Health 5", "")


def test_a_number_beside_its_label_misspelt_by_a_letter_is_read_inline() -> None:
    found = grammar_labels.inline("(Heath 5", "Health")
    assert found is not None and (found.group(1) or found.group(2)) == "5"
    assert grammar_labels.inline("Heal the Hero 2 spaces away", "Health") is None


def test_a_tables_row_label_alone_at_the_top_is_no_dashboards_title() -> None:
    lines = [
        _line("Heroes", (596, 75, 122, 26)),
        _line("Special Rules", (60, 260, 260, 34)),
        _line("When a Hero is KO'd, nothing happens.", (60, 313, 700, 27)),
        _line("Crossbones", (98, 964, 344, 50)),
    ]
    reading = grammar.read(_kind("dashboard"), lines, 1000)
    assert reading.values["title"] == "Crossbones"
    assert "Heroes" not in reading.kept


def test_a_two_word_name_ending_with_a_bang_on_its_own_line_is_an_effects_name() -> None:
    from cardkit.ocr import effect_names

    texts = ["Surprise Attack!", "If Lizard is NOT Under Pressure, accelerate."]
    assert effect_names.named(texts)[0] == "Surprise Attack!:"
    # a flag word ending a sentence's last line is none
    texts = ["Each Hero discards 1 card.", "Then BAM!", "Move 2 spaces."]
    assert effect_names.named(texts) == texts


def test_a_short_label_word_in_small_letters_among_words_is_no_label() -> None:
    # `Double Move`, an effect's name, is no MOVE label; the printed label stays one
    assert not grammar_labels.labels("Double Move", "MOVE")
    assert grammar_labels.labels("MOVE", "MOVE") and grammar_labels.labels("Move", "MOVE")
    assert grammar_labels.labels("Move 3", "MOVE")
    assert grammar_labels.labels("Fixer HP 3", "HP")
    assert grammar_labels.labels("Then BAM!", "BAM!", slack=6)


def test_a_label_beside_a_flag_word_in_capitals_on_its_line_stays_a_label() -> None:
    assert grammar_labels.labels("2 BAM! Move", "MOVE")


def test_a_label_in_capitals_with_a_speck_after_it_is_no_sentence() -> None:
    assert grammar_labels.labels("VILLAIN jz", "VILLAIN")
    assert not grammar_labels.labels("Villain and its minions", "VILLAIN")


def test_a_paragraphs_last_line_set_taller_by_its_icons_is_no_name_at_the_foot() -> None:
    lines = [
        _line("END OF TURN", (631, 1271, 360, 51)),
        _line("You may discard 1 Action token to", (424, 1363, 772, 64)),
        _line("gain 2 Action tokens of your choice", (405, 1429, 811, 65)),
        _line("between op, ax. and AX.", (450, 1476, 720, 114), confidence=0.67),
    ]
    reading = grammar.read(_kind("location"), lines, 1615)
    assert "name" not in reading.values
    assert reading.values["text"].endswith("between op, ax. and AX.")


class _ReadsBam:
    name = "reads-bam"

    def version(self) -> str:
        return "0"

    def read(self, image: object, mode: str, *, key: str, whitelist: str = "") -> object:
        from cardkit.ocr.engine import Reading

        return Reading((Word("BAM!", 0.95, (4, 4, 40, 20), 0),))


def test_a_small_heading_tag_whose_letters_ran_together_on_a_photo_is_found() -> None:
    # design-j's Dashboard photographed: the BAM! ribbon is 78 x 30 px of a 1400 x 1050
    # card (0.15% of it) and its four letters left two holes
    from PIL import Image, ImageDraw

    from cardkit.ocr import tag_headings

    card = Image.new("RGB", (1400, 1050), (236, 186, 66))
    pen = ImageDraw.Draw(card)
    pen.rectangle((285, 488, 363, 518), fill=(26, 65, 144))
    for left in (295, 325):
        pen.rectangle((left, 495, left + 18, 511), fill=(240, 236, 226))
    lines = [
        _line("Special Rules", (46, 157, 147, 32)),
        _line("Give 1 Crisis token.", (47, 540, 385, 16)),
    ]
    out = tag_headings.added(_kind("dashboard"), lines, card, _ReadsBam(), "t")  # type: ignore[arg-type]
    assert [ln.text for ln in out] == ["Special Rules", "BAM!", "Give 1 Crisis token."]


def test_a_piece_of_a_headings_word_read_on_a_tag_is_no_heading() -> None:
    from PIL import Image, ImageDraw

    from cardkit.ocr import tag_headings

    class ReadsAm(_ReadsBam):
        def read(self, image: object, mode: str, *, key: str, whitelist: str = "") -> object:
            from cardkit.ocr.engine import Reading

            return Reading((Word("AM", 0.95, (4, 4, 40, 20), 0),))

    card = Image.new("RGB", (1400, 1050), (236, 186, 66))
    pen = ImageDraw.Draw(card)
    pen.rectangle((285, 488, 363, 518), fill=(26, 65, 144))
    for left in (295, 325):
        pen.rectangle((left, 495, left + 18, 511), fill=(240, 236, 226))
    lines = [_line("Special Rules", (46, 157, 147, 32))]
    out = tag_headings.added(_kind("dashboard"), lines, card, ReadsAm(), "t")  # type: ignore[arg-type]
    assert [ln.text for ln in out] == ["Special Rules"]
