"""The whole-card read's cheap parts: the channel extremes, the dark box and the places in
it where light words stand, which alone are turned over (cardkit/ocr/channels.py,
light_text.py), on arrays drawn here."""

from __future__ import annotations

from typing import Any

import numpy as np
from PIL import Image

from cardkit.ocr import channels, light_text, page
from cardkit.ocr.engine import Mode, Reading, Word


def test_channel_extremes_are_numpys_max_and_min_over_the_channels() -> None:
    rng = np.random.default_rng(7)
    rgb = rng.integers(0, 256, size=(31, 17, 3), dtype=np.uint8)
    signed = rng.integers(-300, 300, size=(5, 9, 4)).astype(np.int16)
    assert np.array_equal(channels.brightest(rgb), rgb.max(axis=2))
    assert np.array_equal(channels.darkest(rgb), rgb.min(axis=2))
    assert np.array_equal(channels.brightest(signed), signed.max(axis=2))
    assert channels.darkest(rgb).flags["C_CONTIGUOUS"]


def test_a_light_card_has_no_dark_box() -> None:
    card = np.full((600, 400, 3), 235, dtype=np.uint8)
    card[100:110, 50:350] = 20  # a line of black type is not a panel
    assert page.dark_box(card) is None


def test_the_dark_box_holds_a_dark_panel_and_a_cell_round_it() -> None:
    card = np.full((600, 400, 3), 235, dtype=np.uint8)
    card[400:500, 100:300] = (30, 30, 90)  # a navy panel
    card[440:450, 120:280] = 255  # its white words
    left, top, right, bottom = page.dark_box(card) or (0, 0, 0, 0)
    cell = 600 * page.PANEL_CELL
    assert left <= 100 and top <= 400 and right >= 300 and bottom >= 500
    assert left >= 100 - 2 * cell and top >= 400 - 2 * cell  # not the whole card
    assert right <= 300 + 2 * cell and bottom <= 500 + 2 * cell


def test_white_on_red_counts_as_dark_though_its_red_is_bright() -> None:
    card = np.full((600, 400, 3), 235, dtype=np.uint8)
    card[20:80, :] = (200, 20, 20)  # a red banner: its brightest channel is 200
    box = page.dark_box(card)
    assert box is not None and box[1] <= 20 and 80 <= box[3] < 200


def _words(card: np.ndarray, left: int, top: int, count: int, colour: int = 255) -> None:
    """`count` word-like bars of light strokes: letters 14 px tall, 8 px wide, 4 px apart."""
    for word in range(count):
        x = left + word * 70
        for letter in range(5):
            card[top : top + 14, x + letter * 12 : x + letter * 12 + 3] = colour
            card[top : top + 3, x + letter * 12 : x + letter * 12 + 8] = colour


def test_light_words_on_a_navy_panel_are_read_there_not_over_the_whole_dark_card() -> None:
    card = np.full((800, 600, 3), 235, dtype=np.uint8)
    card[100:200, 50:550] = (30, 30, 90)  # a navy title banner with white words
    _words(card, 80, 140, 3)
    card[500:700, 50:550] = (25, 25, 25)  # a black panel with none: nothing to turn over
    places = light_text.places(card)
    assert len(places) == 1
    left, top, right, bottom = places[0]
    assert left <= 80 and top <= 140 and right >= 80 + 2 * 70 + 56 and bottom >= 154
    assert top >= 100 - 2 * 800 * light_text.PANEL_CELL and bottom <= 200 + 40
    assert page.dark_box(card) is not None and page.dark_box(card)[3] >= 700  # type: ignore[index]


def test_two_panels_far_apart_are_two_places_and_a_light_card_none() -> None:
    card = np.full((800, 600, 3), 235, dtype=np.uint8)
    card[60:140, 40:560] = (120, 20, 20)  # white on dark red (dark in luminance)
    _words(card, 60, 90, 2)
    card[600:720, 40:560] = (20, 40, 20)
    _words(card, 60, 640, 3)
    places = light_text.places(card)
    assert len(places) == 2
    assert places[0][3] < 300 and places[1][1] > 450  # top to bottom, each round its panel
    light = np.full((800, 600, 3), 235, dtype=np.uint8)
    _words(light, 60, 90, 3, colour=10)  # dark words on paper are the first read's
    assert light_text.places(light) == []


def test_a_dark_card_with_words_all_over_is_turned_over_as_one_box() -> None:
    card = np.full((600, 600, 3), 20, dtype=np.uint8)
    for top in range(40, 560, 40):
        _words(card, 20, top, 8)
    assert light_text.places(card) == [page.dark_box(card)]


class _LayoutFindsNothing:
    """tesseract on a card of next to no words: its layout analysis (`auto`) finds no
    block, in luminance or in colour; sparse text finds the title and the MOVE label."""

    name = "sparse-only"

    def __init__(self) -> None:
        self.modes: list[str] = []

    def version(self) -> str:
        return "0"

    def read(self, image: Any, mode: Mode, *, key: str, whitelist: str = "") -> Reading:
        self.modes.append(mode)
        if mode != "sparse":
            return Reading()
        words = [Word("Lizard", 0.96, (40, 40, 150, 40), 0), Word("4", 0.95, (200, 40, 24, 40), 0)]
        return Reading((*words, Word("MOVE", 0.97, (600, 50, 76, 20), 1)))


def test_a_card_whose_layout_analysis_finds_no_block_is_read_as_sparse_text() -> None:
    engine = _LayoutFindsNothing()
    lines = page.first_read(Image.new("RGB", (750, 1050), "white"), engine, "k")
    assert [line.text for line in lines] == ["Lizard 4", "MOVE"]
    assert engine.modes == ["auto", "auto", "sparse"]


def test_a_card_read_with_words_enough_is_not_read_again_as_sparse_text() -> None:
    class Wordy(_LayoutFindsNothing):
        def read(self, image: Any, mode: Mode, *, key: str, whitelist: str = "") -> Reading:
            self.modes.append(mode)
            text = [
                "Each",
                "Hero",
                "in",
                "this",
                "Location",
                "takes",
                "1",
                "damage",
                "and",
                "discards",
                "1",
                "card",
            ]
            return Reading(
                tuple(Word(t, 0.95, (40 + 60 * k, 300, 50, 30), 0) for k, t in enumerate(text))
            )

    engine = Wordy()
    page.first_read(Image.new("RGB", (750, 1050), "white"), engine, "k")
    assert engine.modes == ["auto"]
