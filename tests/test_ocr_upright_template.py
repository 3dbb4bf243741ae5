"""pipeline.read_frame: once the card's words read across it, a template that fitted only
with the card on its side (its probes read across the lines) gives way to the best
template probed upright (`by_axis`): a master plan is not read as a dashboard. A
scripted engine stands in for tesseract, what it reads written here by hand: the dashboard
template's probes, read with the card turned a quarter, read more surely than the master
plan template's read upright (neither reads a keyword), and no grammar kind's label is
read, so a template reads the card."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from cardkit.ocr import pipeline
from cardkit.ocr.engine import Mode, Reading, Word
from cardkit.ocr.intake import Frame
from tests.drawn_fonts import dejavu

# no label, and no sign of a kind: the title carries no number (a numbered title is a
# master plan's sign, and the grammar would read the card)
TEXT = ["Venom", "Give 1 Crisis token to 1 Hero in", "Venom's Location."]


def _words(*texts: str, confidence: float) -> Reading:
    return Reading(
        tuple(Word(w, confidence, (5 + 50 * n, 5, 45, 20), 0) for n, w in enumerate(texts))
    )


class Probes:
    """The whole-card read, the card as scanned (turn 0), gives TEXT, its words boxed
    across the card, or (`down`) each line running down it; every other way up reads
    nothing whole. Probes: the dashboard's title and heading read with the card turned a
    quarter (90) read at 0.9, no keyword; upright (0) the master plan's title reads at
    0.8 and its Move region `M0V 2` (its pattern, no keyword: `M0V` is no `Move`)."""

    name = "probes"

    def __init__(self, down: bool = False) -> None:
        self.down = down

    def version(self) -> str:
        return "0"

    def read(self, image: Image.Image, mode: Mode, *, key: str, whitelist: str = "") -> Reading:
        parts = key.split("/", 2)  # frame / turn / what (a field may hold a slash)
        if len(parts) < 3 or not parts[1].split("~")[0].isdigit():
            return Reading()  # a reader's own read (the rules box, a mark): nothing
        turn, what = int(parts[1].split("~")[0]), parts[2].split("@")[0]
        if what == "page" and turn == 0:
            words = []
            for number, text in enumerate(TEXT):
                for at, word in enumerate(text.split()):
                    box = (40 + 110 * at, 60 + 120 * number, 100, 34)
                    if self.down:
                        box = (60 + 120 * number, 40 + 110 * at, 34, 100)
                    words.append(Word(word, 0.95, box, number))
            return Reading(tuple(words))
        if turn == 90 and what in ("title", "_heading"):
            return _words("Heroes" if what == "_heading" else "Klaw", confidence=0.9)
        if turn == 0 and what == "title":
            return _words("Venom", "3", confidence=0.8)
        if turn == 0 and what == "card/move":
            return _words("M0V", "2", confidence=0.8)
        return Reading()


def _read(engine: Probes) -> pipeline.CardRead:
    card = Image.new("RGB", (750, 1050), (240, 230, 205))  # a master plan's shape
    pen = ImageDraw.Draw(card)
    for number, text in enumerate(TEXT):  # lines of type across: the text's axis
        pen.text((60, 80 + 90 * number), text, font=dejavu(40), fill=(30, 30, 30))
    frame = Frame("plan", Path("plan.png"), "", card, None)
    return pipeline.read_frame(frame, engine, pipeline.Options(("marvel-united",)))


def test_words_across_the_card_put_the_best_upright_template_in_a_sideways_ones_place() -> None:
    read = _read(Probes())
    assert read.grammar is None  # no label read: a template reads the card
    assert read.template is not None
    assert read.template.ident == "marvel-united/masterplan"
    assert read.rotation == 0


def test_a_template_on_its_side_stands_while_the_words_read_down_the_card() -> None:
    read = _read(Probes(down=True))
    assert read.template is not None
    assert read.template.ident == "marvel-united/dashboard"  # the card is on its side
    assert read.rotation == 90
