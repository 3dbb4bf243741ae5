"""What the speed work changed, on cases drawn here: which reads a scan pays for (counted
by a scripted engine, no clock), and shortcuts that must answer as the long way does."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
from PIL import Image

from cardkit.ocr import fields, kind_choice, layout, page
from cardkit.ocr.engine import Mode, Reading, Word
from cardkit.ocr.intake import Frame
from cardkit.ocr.pipeline import Options


class Scripted:
    """Reads a sentence at the confidence its way up is given (`0`, `180` in the key) on
    the whole-card read, nothing elsewhere, and keeps every key it was asked for."""

    name = "scripted"

    def __init__(self, sure: dict[int, float]) -> None:
        self.sure = sure
        self.keys: list[str] = []

    def version(self) -> str:
        return "0"

    def read(self, image: Image.Image, mode: Mode, *, key: str, whitelist: str = "") -> Reading:
        self.keys.append(key)
        turn = int(key.split("/")[1].split("~")[0])
        if not key.endswith("/page"):
            return Reading()
        text = ["Heroes", "gather", "here", "before", "the", "night", "falls", "on", "the", "city"]
        confidence = self.sure.get(turn, 0.2)
        return Reading(
            tuple(Word(w, confidence, (20 + 60 * i, 40, 55, 18), 0) for i, w in enumerate(text))
        )


def _banner_card() -> Image.Image:
    """A master plan's shape (poker card) with a navy banner of white words: a card the
    turned-over read has a place to read."""
    card = np.full((1000, 714, 3), 235, dtype=np.uint8)
    card[80:200, 40:674] = (30, 30, 90)
    for word in range(4):
        for letter in range(5):
            x = 70 + word * 140 + letter * 24
            card[120:150, x : x + 6] = 255
            card[120:126, x : x + 16] = 255
    return Image.fromarray(card)


def _weigh(engine: Scripted) -> list[str]:
    card = _banner_card()
    frame = Frame("plan", Path("plan.png"), "", card, None)
    chosen = [layout.template_sets()["marvel-united"]]
    options = Options(("marvel-united",))
    kind_choice.weigh(frame, engine, options, chosen, card, 0, [0, 180, 270, 90], None)
    return engine.keys


def test_a_way_up_read_less_surely_than_the_first_is_not_read_in_full() -> None:
    keys = _weigh(Scripted({0: 0.7, 180: 0.4}))
    assert "plan/0/page" in keys and "plan/180/page" in keys  # both ways up were looked at
    assert "plan/0/page-inverted" in keys  # the sure one was read in full ...
    assert not any(k.startswith("plan/180/page-") for k in keys)  # ... the other was not


def test_a_card_read_across_surely_is_not_read_the_other_ways_up() -> None:
    keys = _weigh(Scripted({0: 0.9, 180: 0.4}))  # ten words across at 0.9: upright
    assert "plan/0/page" in keys and "plan/0/page-inverted" in keys
    assert not any(k.startswith(("plan/180/", "plan/270/", "plan/90/")) for k in keys)


def test_a_first_read_stands_a_card_upright_only_surely_and_with_letters() -> None:
    def lines(text: str, confidence: float) -> list[page.Line]:
        return [page.Line(text, confidence, (0, 0, 200, 20), 20.0)]

    assert kind_choice.surely_upright(lines("Heroes gather here", 0.8))
    assert not kind_choice.surely_upright(lines("Heroes gather here", 0.6))  # upside down
    assert not kind_choice.surely_upright(lines("Move 3", 0.95))  # too few letters to say


def test_a_way_up_read_more_surely_than_the_first_is_read_in_full_too() -> None:
    keys = _weigh(Scripted({0: 0.4, 180: 0.9}))
    assert "plan/0/page-inverted" in keys and "plan/180/page-inverted" in keys


def _window_search(text: str, keyword: str) -> bool:
    """fields.contains as it was written before its shortcut: every window, one by one."""
    letters = "".join(c for c in text.casefold() if c.isalnum())
    key = "".join(c for c in keyword.casefold() if c.isalnum())
    if not key:
        return False
    if key in letters:
        return True
    limit = max(1, fields.allowed(key)) if len(key) >= 4 else 0
    return bool(limit) and any(
        fields.distance(letters[start : start + size], key, limit) <= limit
        for size in (len(key) - 1, len(key), len(key) + 1)
        for start in range(0, max(0, len(letters) - size) + 1)
    )


def test_keyword_search_answers_as_the_window_by_window_search() -> None:
    rng = random.Random(11)
    found = 0
    for _ in range(3000):
        key = "".join(rng.choice("abcd") for _ in range(rng.randint(1, 12)))
        spoilt = list(key)
        for _ in range(rng.randint(0, 3)):  # up to three edits of the keyword in the text
            at = rng.randrange(len(spoilt) + 1)
            if rng.random() < 0.4:
                spoilt.insert(at, rng.choice("abcd"))
            elif spoilt:
                spoilt[min(at, len(spoilt) - 1)] = rng.choice("abcd")
        text = "".join(rng.choice("abcd ") for _ in range(rng.randint(0, 12))) + "".join(spoilt)
        found += _window_search(text, key)
        assert fields.contains(text, key) == _window_search(text, key), (text, key)
    assert 300 < found < 2700  # both answers were put to the test
    assert fields.contains("sivE'ScHEME", "side scheme")  # two edits in a long keyword
    assert not fields.contains("Place an additional threat here", "scheme")


def _two_panels(scale: int) -> Image.Image:
    """Two dark panels far apart, each with a row of light words, `scale` times 400 x 560."""
    card = np.full((560 * scale, 400 * scale, 3), 235, dtype=np.uint8)
    for top in (40 * scale, 440 * scale):
        card[top : top + 80 * scale, 20 * scale : 380 * scale] = (25, 25, 70)
        for word in range(3):
            for letter in range(4):
                x = (40 + word * 100 + letter * 18) * scale
                y = top + 30 * scale
                card[y : y + 14 * scale, x : x + 3 * scale] = 255
                card[y : y + 3 * scale, x : x + 10 * scale] = 255
    return Image.fromarray(card)


def test_a_small_card_is_turned_over_by_places_a_large_one_in_its_whole_dark_box() -> None:
    from cardkit.ocr import page

    small = Scripted({})
    page.read_more(_two_panels(1), small, "s/0", [])
    assert [k for k in small.keys if "inverted" in k] == [
        "s/0/page-inverted",
        "s/0/page-inverted-1",
    ]
    large = Scripted({})
    page.read_more(_two_panels(3), large, "l/0", [])  # 1,680 px: a large card
    assert [k for k in large.keys if "inverted" in k] == ["l/0/page-inverted"]
    assert "l/0/page-half" in large.keys


def test_a_quarter_turn_from_a_way_up_read_across_is_not_read() -> None:
    # read across at 0.7 (not surely upright): upside down is looked at, on its side not
    keys = _weigh(Scripted({0: 0.7, 180: 0.4}))
    assert "plan/180/page" in keys
    assert not any(k.startswith(("plan/270/", "plan/90/")) for k in keys)


class ReadDown(Scripted):
    """As Scripted, but the way up 270 reads its sentence in a line running down the card."""

    def read(self, image: Image.Image, mode: Mode, *, key: str, whitelist: str = "") -> Reading:
        reading = super().read(image, mode, key=key, whitelist=whitelist)
        if not key.startswith("plan/270/"):
            return reading
        return Reading(
            tuple(Word(w.text, w.confidence, (40, w.box[0], 18, 55), 0) for w in reading.words)
        )


def test_half_a_turn_from_a_way_up_read_surely_down_the_card_is_not_read() -> None:
    engine = ReadDown({270: 0.9, 90: 0.3, 0: 0.7, 180: 0.4})
    card = _banner_card()
    frame = Frame("plan", Path("plan.png"), "", card, None)
    chosen = [layout.template_sets()["marvel-united"]]
    kind_choice.weigh(
        frame, engine, Options(("marvel-united",)), chosen, card, 0, [270, 90, 0, 180], None
    )
    assert "plan/270/page" in engine.keys and "plan/0/page" in engine.keys
    assert not any(k.startswith("plan/90/") for k in engine.keys)
