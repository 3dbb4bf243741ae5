"""The whole-card read's cheap parts: the channel extremes and the dark box that alone is
turned over (cardkit/ocr/channels.py, page.dark_box), on arrays drawn here."""

from __future__ import annotations

import numpy as np

from cardkit.ocr import channels, page


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
