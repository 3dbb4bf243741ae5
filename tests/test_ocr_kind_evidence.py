"""The kind chosen on evidence (kind_choice.py): which way the words run (`upright`), a
template probed with the card on its side that no longer counts once words read across
the card (`weigh`'s `sideways` rule), and a placement diagram found in the image as
evidence for a master plan (`_structures`). A scripted engine stands in for tesseract
(what it reads is written here by hand); cards are drawn with PIL. Expectations come
from kind_choice.py's and decide.py's docstrings."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from cardkit.ocr import decide, grammar, kind_choice, layout, page
from cardkit.ocr.engine import Mode, Reading, Word
from cardkit.ocr.intake import Frame
from cardkit.ocr.pipeline import Options

CREAM, FRAME, FILL = (240, 230, 205), (90, 70, 40), (225, 212, 180)


def _line(text: str, box: tuple[int, int, int, int]) -> page.Line:
    return page.Line(text, 0.95, box, float(min(box[2], box[3])))


def test_lines_of_words_wider_than_tall_stand_upright() -> None:
    lines = [
        _line("Venom 3", (40, 30, 220, 40)),
        _line("Give 1 Crisis token to 1 Hero.", (40, 300, 560, 30)),
        _line("MOVE", (40, 900, 90, 26)),
    ]
    assert kind_choice.upright(lines)
    # the same card read on its side: each line stands taller than wide
    down = [_line(ln.text, (ln.box[1], ln.box[0], ln.box[3], ln.box[2])) for ln in lines]
    assert not kind_choice.upright(down)


def test_icons_read_as_letters_say_nothing_of_the_way_up() -> None:
    words = [
        _line("Venom 3", (40, 30, 220, 40)),
        _line("Give 1 Crisis token to 1 Hero.", (40, 300, 560, 30)),
    ]
    # a placement diagram's icons read as lone letters: as tall as wide, or taller
    icons = [_line(t, (60 + 80 * n, 600, 40, 56)) for n, t in enumerate(["A", "O", "|", "A", "8"])]
    assert kind_choice.upright(words + icons)  # 2 of 7 lines run across: the words decide
    assert not kind_choice.upright(icons)  # no words at all: the lines as they are


class Scripted:
    """The whole-card read (`.../page`) gives the lines written here, each word boxed
    across the card or (`down`) turned a quarter, as a card read on its side reads;
    every other read gives nothing."""

    name = "scripted"

    def __init__(self, lines: list[str], down: bool = False) -> None:
        self.lines, self.down = lines, down

    def version(self) -> str:
        return "0"

    def read(self, image: Image.Image, mode: Mode, *, key: str, whitelist: str = "") -> Reading:
        if not key.endswith("/page"):
            return Reading()
        words = []
        for number, text in enumerate(self.lines):
            for at, word in enumerate(text.split()):
                box = (40 + 90 * at, 40 + 120 * number, 80, 30)
                if self.down:
                    box = (40 + 120 * number, 40 + 90 * at, 30, 80)
                words.append(Word(word, 0.95, box, number))
        return Reading(tuple(words))


PLAN = ["Venom 3", "Give 1 Crisis token to 1 Hero in Venom's Location.", "MOVE"]
PLAIN = ["Venom", "Give 1 Crisis token to 1 Hero in Venom's Location."]  # no label, no sign


def _template(ident: str) -> layout.Template:
    return next(t for t in layout.template_sets()["marvel-united"].templates if t.ident == ident)


def _weigh(
    engine: Scripted,
    card: Image.Image,
    best_turn: int | None = None,
    probed: dict[str, tuple[float, bool, str, str, int]] | None = None,
) -> tuple[decide.Decision | None, grammar.Kind | None]:
    """The card weighed stood as scanned (turn 0); `best_turn`: the dashboard template's
    probe, its keyword read (the best score there is), with the card turned so."""
    frame = Frame("plan", Path("plan.png"), "", card, None)
    chosen = [layout.template_sets()["marvel-united"]]
    best = None
    if best_turn is not None:
        best = (1.3, _template("marvel-united/dashboard"), best_turn, card, "")
    decision, won, *_ = kind_choice.weigh(
        frame, engine, Options(("marvel-united",)), chosen, card, 0, [0], best, probed=probed
    )
    return decision, won


def _card() -> Image.Image:
    return Image.new("RGB", (750, 1050), CREAM)  # a master plan's shape (0.714)


def _kinds(decision: decide.Decision | None) -> list[str]:
    assert decision is not None
    return [c.kind for c in (decision.best, decision.runner_up) if c is not None]


def test_a_template_probed_on_its_side_counts_not_once_words_read_across() -> None:
    decision, won = _weigh(Scripted(PLAN), _card(), best_turn=90)
    assert decision is not None
    assert decision.best.ident == "grammar marvel-united/masterplan"
    assert "marvel-united/dashboard" not in _kinds(decision)  # it is no candidate at all
    assert won is not None and won.name == "masterplan"


def test_a_template_probed_upside_down_still_counts_and_wins_a_tie() -> None:
    # turned half round, its regions read along the lines: a candidate, and "a tie goes
    # to it" (its keyword read: 1 + the hint, as the master plan grammar's MOVE scores)
    decision, won = _weigh(Scripted(PLAN), _card(), best_turn=180)
    assert decision is not None
    assert decision.best.kind == "marvel-united/dashboard"
    assert won is None  # a template decided the kind


def test_a_template_probed_on_its_side_counts_while_the_words_read_down_the_card() -> None:
    decision, won = _weigh(Scripted(PLAN, down=True), _card(), best_turn=90)
    assert decision is not None
    assert decision.best.kind == "marvel-united/dashboard"
    assert won is None  # read down the card, MOVE says nothing


def test_another_kinds_probe_on_its_side_is_no_candidate_once_words_read_across() -> None:
    dashboard = ("marvel-united/dashboard", "marvel-united")
    side = {"marvel-united/dashboard": (1.3, True, *dashboard, 270)}
    decision, won = _weigh(Scripted(PLAN), _card(), probed=side)
    assert "marvel-united/dashboard" not in _kinds(decision)
    assert won is not None and won.name == "masterplan"
    upright = {"marvel-united/dashboard": (1.3, True, *dashboard, 0)}
    decision, _ = _weigh(Scripted(PLAN), _card(), probed=upright)
    assert "marvel-united/dashboard" in _kinds(decision)


def _slots(count: int, marked: int | None = None) -> Image.Image:
    """A cream portrait card with a row of `count` alike framed slots, a mark over slot
    `marked` (the Villain's Location)."""
    card = _card()
    pen = ImageDraw.Draw(card)
    for n in range(count):
        left = 40 + n * 230
        pen.rectangle((left, 300, left + 200, 480), fill=FILL, outline=FRAME, width=4)
        if n == marked:
            pen.polygon([(left + 100, 240), (left + 115, 285), (left + 85, 285)], fill=FRAME)
    return card


def _masterplan() -> grammar.Kind:
    return next(k for k in grammar.grammars()["marvel-united"] if k.name == "masterplan")


def _threat() -> grammar.Kind:
    return next(k for k in grammar.grammars()["marvel-united"] if k.name == "threat")


def test_a_row_of_three_alike_slots_is_a_placement_diagram() -> None:
    assert kind_choice._structures(_slots(3), [_masterplan()]) == {"placement"}


def test_two_alike_slots_with_the_villains_marked_are_a_placement_diagram() -> None:
    assert kind_choice._structures(_slots(2, marked=0), [_masterplan()]) == {"placement"}


def test_two_plain_alike_panels_are_no_placement_diagram() -> None:
    assert kind_choice._structures(_slots(2), [_masterplan()]) == set()
    assert kind_choice._structures(_card(), [_masterplan()]) == set()


def test_a_structure_no_kind_asks_for_is_not_looked_for() -> None:
    assert kind_choice._structures(_slots(3), [_threat()]) == set()


def test_a_placement_diagram_is_evidence_for_a_master_plan_without_its_move_label() -> None:
    decision, won = _weigh(Scripted(PLAIN), _slots(3))
    assert decision is not None
    assert decision.best.ident == "grammar marvel-united/masterplan"
    assert decision.best.evidence == "read a placement diagram"
    assert decision.sure  # 1 + the hint against the threat grammar's hint alone
    assert won is not None and won.name == "masterplan"


def test_without_a_diagram_or_a_label_no_master_plan_is_read_by_grammar() -> None:
    decision, won = _weigh(Scripted(PLAIN), _slots(2))
    assert decision is not None and not decision.best.evidenced
    assert won is None


def test_a_numbered_title_is_a_master_plans_sign_without_label_or_diagram() -> None:
    numbered = ["Venom 3", "Give 1 Crisis token to 1 Hero in Venom's Location."]
    decision, won = _weigh(Scripted(numbered), _slots(2))
    assert decision is not None and decision.best.ident == "grammar marvel-united/masterplan"
    assert decision.best.evidence == "read a numbered title"
    assert won is not None and won.name == "masterplan"


def test_a_placement_diagram_says_nothing_while_the_words_read_down_the_card() -> None:
    decision, won = _weigh(Scripted(PLAIN, down=True), _slots(3))
    assert decision is not None and decision.best.evidence != "read a placement diagram"
    assert won is None


def _threat_best(score: float) -> tuple[float, layout.Template, int, Image.Image, str]:
    return (score, _template("marvel-united/threat"), 0, _card(), "")


def test_a_probe_scoring_high_without_its_keyword_is_no_keyword_read() -> None:
    """A threat template whose probe regions read surely (0.69) but found no `Threat`:
    its score is as high as an unsure keyword's, yet nothing of its own was read, so it
    decides no kind surely (decide.py: a candidate that read nothing of its own)."""
    frame = Frame("plan", Path("plan.png"), "", _card(), None)
    chosen = [layout.template_sets()["marvel-united"]]
    threat = ("marvel-united/threat", "marvel-united")
    for said in (False, True):
        probed = {"marvel-united/threat-card": (0.69, said, *threat, 0)}
        decision, *_ = kind_choice.weigh(
            frame,
            Scripted(PLAIN),
            Options(("marvel-united",)),
            chosen,
            _card(),
            0,
            [0],
            _threat_best(0.69),
            probed=probed,
        )
        assert decision is not None and decision.best.kind == "marvel-united/threat-card"
        assert decision.best.evidenced is said
        assert ("a keyword of Threat read" in decision.best.evidence) is said
        if not said:
            assert not decision.sure


def test_a_kind_whose_shape_does_not_fit_is_read_by_its_labels_but_never_surely() -> None:
    """A location printed as a strip (1614 x 617: no kind's shape), its END OF TURN heading
    read across it: the location grammar reads it, its kind unconfirmed."""
    strip = Image.new("RGB", (1614, 617), CREAM)
    lines = ["ALTERNATIVE END OF TURN", "Gain 1 Training card.", "THE DANGER ROOM"]
    decision, won = _weigh(Scripted(lines), strip)
    assert decision is not None and decision.best.kind == "marvel-united/location"
    assert "its shape does not fit (width/height 2.62" in decision.best.evidence
    assert not decision.sure
    assert won is not None and won.name == "location"
    # the heading is neither the name nor rules text: kept
    line_of = [page.Line(t, 0.95, (40, 40 + 120 * n, 600, 30), 30.0) for n, t in enumerate(lines)]
    reading = grammar.read(won, line_of, 617)
    assert reading.values.get("name") != "ALTERNATIVE END OF TURN"
    assert "ALTERNATIVE END OF TURN" in reading.kept
    assert reading.values["text"].startswith("Gain 1 Training card.")
