"""Shortcuts of the eighth speed session, each checked against the long way it replaced
(written out here as it stood before), on drawn and random images: the same answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from PIL import Image

from cardkit.ocr import (
    banner,
    bars,
    blobs,
    channels,
    geometry,
    glyphs,
    line_finder,
    marks,
    numbers,
    outlines,
    pipeline,
)
from cardkit.ocr.intake import Frame
from cardkit.ocr.pipeline import Options


def _old_patches(hsv: Any) -> list[Any]:
    """marks._patches before the hue histogram: twelve masks made and counted."""
    hue = hsv[:, :, 0].astype(np.int16)
    strong = (hsv[:, :, 1] >= marks.SATURATED) & (hsv[:, :, 2] >= 90)
    out = []
    for centre in range(0, 180, 15):
        near = np.minimum(np.abs(hue - centre), 180 - np.abs(hue - centre)) <= 10
        out.append((strong & near).astype(np.uint8))
    value = hsv[:, :, 2].astype(np.int16)
    if float(np.median(value)) - marks.BLACK >= marks.DARKER:
        out.append(((value <= marks.BLACK) & (hsv[:, :, 1] < marks.SATURATED)).astype(np.uint8))
    return out


def _cards() -> list[Any]:
    rng = np.random.default_rng(8)
    cards = [rng.integers(0, 256, (60, 80, 3), dtype=np.uint8) for _ in range(4)]
    drawn = np.full((200, 140, 3), 230, np.uint8)
    drawn[20:60, 20:80] = (250, 200, 0)  # a yellow burst
    drawn[100:130, 30:120] = (200, 30, 20)  # a red tag
    drawn[150:190, 10:130] = (10, 10, 10)  # a black banner on a light card
    cards.append(drawn)
    dark = np.full((100, 100, 3), 20, np.uint8)  # a dark card: no black mask
    dark[10:40, 10:40] = (0, 120, 255)
    cards.append(dark)
    cards.append(np.full((50, 70, 3), 128, np.uint8))  # nothing strong at all
    return cards


@pytest.mark.parametrize("least", [0.0, 1.0, 50.0, 2000.0])
def test_mark_patches_are_the_masks_made_one_hue_at_a_time(least: float) -> None:
    for rgb in _cards():
        hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)
        want = [m for m in _old_patches(hsv) if m.sum() >= least]
        got = list(marks._patches(hsv, least))
        assert len(got) == len(want)
        for a, b in zip(got, want, strict=True):
            assert a.dtype == np.uint8
            assert np.array_equal(a, b)


def test_the_median_from_a_histogram_is_numpys_median() -> None:
    rng = np.random.default_rng(19)
    for size in (1, 2, 3, 10, 11, 1000, 1001):
        values = rng.integers(0, 256, size, dtype=np.uint8)
        assert marks.median_of(values) == float(np.median(values.astype(np.int16)))
    assert marks.median_of(np.array([[0, 255], [255, 0]], np.uint8)) == 127.5


def _read_frame(sure: dict[int, float]) -> list[str]:
    from tests.test_ocr_speed import Scripted, _banner_card

    engine = Scripted(sure)
    frame = Frame("plan", Path("plan.png"), "", _banner_card(), None)
    pipeline.read_frame(frame, engine, Options(("marvel-united",)))
    return engine.keys


def _probes(keys: list[str], turn: int) -> list[str]:
    return [k for k in keys if "@" in k and k.split("/")[1].split("~")[0] == str(turn)]


def test_a_card_read_surely_upright_first_is_not_probed_the_other_ways_up() -> None:
    keys = _read_frame({0: 0.9, 180: 0.4})
    assert _probes(keys, 0)  # its templates were probed this way up ...
    assert not _probes(keys, 180) and not _probes(keys, 90) and not _probes(keys, 270)
    assert keys.count("plan/0/page") == 1  # ... and its page read once, for both uses
    assert "plan/0/page-inverted" in keys  # the kinds were weighed on it, read in full


def test_a_card_read_unsurely_first_is_probed_every_way_up_as_before() -> None:
    keys = _read_frame({0: 0.6, 180: 0.4})  # across, but not surely upright
    assert _probes(keys, 0) and _probes(keys, 180)
    assert keys.count("plan/0/page") == 1  # read early, handed on to the weighing


def _old_bars(card: Image.Image, dark_level: int) -> list[bars.Bar]:
    """bars.find before its pieces were tested at once: one by one, in Python."""
    rgb = np.asarray(card.convert("RGB"))
    height, width = rgb.shape[:2]
    dark = (channels.brightest(rgb) < dark_level).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=4)
    out = []
    for n in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[n][:5])
        if (
            w >= bars.BAR_WIDTH * width
            and w >= bars.BAR_RATIO * h
            and h <= bars.BAR_HEIGHT * height
            and h >= 8
            and area >= bars.BAR_FILL * w * h
        ):
            out.append(bars.Bar((x, y, w, h), dark_level))
    return sorted(out, key=lambda bar: (bar.box[1], bar.box[0]))


def test_heading_bars_are_the_pieces_tested_one_by_one() -> None:
    rng = np.random.default_rng(5)
    found = 0
    for trial in range(12):
        card = np.full((300, 200, 3), 235, np.uint8)
        noise = rng.random((300, 200)) < 0.12  # specks of dark art: thousands of pieces
        card[noise] = 20
        card[100:120, 20:180] = (30, 30, 90)  # one bar always
        for _ in range(trial % 4):  # bars of every shape, some too short, low or hollow
            top, left = int(rng.integers(0, 270)), int(rng.integers(0, 120))
            h, w = int(rng.integers(4, 30)), int(rng.integers(20, 200 - left))
            card[top : top + h, left : left + w] = (30, 30, 90)
            if trial % 3 == 0:
                card[top + 2 : top + h - 2, left + 2 : left + w - 2] = 235  # an outline
        image = Image.fromarray(card)
        want = _old_bars(image, 110)
        assert bars.find(image, 110) == want
        found += len(want)
    assert found  # some bars were found, not only none both ways


def _masks(seed: int) -> list[Any]:
    """Random ink of every density, with blocks (glyph-sized and larger) and a frame."""
    rng = np.random.default_rng(seed)
    out = []
    for density in (0.02, 0.1, 0.3):
        mask = rng.random((120, 160)) < density
        for _ in range(6):
            top, left = int(rng.integers(0, 100)), int(rng.integers(0, 140))
            mask[top : top + int(rng.integers(3, 20)), left : left + int(rng.integers(2, 15))] = (
                True
            )
        mask[5, :] = True  # a rule across the card
        out.append(mask)
    return out


def _old_number_glyphs(mask: Any, type_height: float, words: list[Any]) -> list[Any]:
    from cardkit.ocr.boxes import overlaps

    count, _labels, stats, _ = cv2.connectedComponentsWithStats(
        mask.astype(np.uint8), connectivity=8
    )
    out = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if not numbers.SHORTEST * type_height <= h <= numbers.TALLEST * type_height:
            continue
        if not 0.25 <= w / h <= 1.0 or area < 0.12 * w * h or area > 0.75 * w * h:
            continue
        if any(overlaps((x, y, w, h), box) for box in words):
            continue
        out.append((x, y, w, h))
    return out


def test_number_glyphs_are_the_pieces_tested_one_by_one() -> None:
    found = 0
    for mask in _masks(3):
        for height in (2.0, 4.5, 9.0):
            for words in ([], [(0, 0, 80, 60)]):
                want = _old_number_glyphs(mask, height, words)
                assert numbers._glyphs(mask, height, words) == want
                found += len(want)
    assert found


def test_line_ink_drops_the_same_wide_pieces_as_one_by_one() -> None:
    rng = np.random.default_rng(4)
    for trial in range(4):
        grey = rng.integers(0, 256, (80, 120), dtype=np.uint8) if trial % 2 else None
        if grey is None:
            grey = np.full((80, 120), 200, np.uint8)
            grey[10:14, :] = 20  # a band across the card: dropped
            grey[30:50, 20:30] = 20  # a glyph: kept
        got = line_finder.ink(grey)
        # the long way: every piece over half the card's width or height dropped
        small = cv2.resize(grey, (120 // 4, 80 // 4), interpolation=cv2.INTER_AREA)
        ground = cv2.medianBlur(small, (max(3, 120 // 48)) | 1)
        ground = cv2.resize(ground, (120, 80), interpolation=cv2.INTER_LINEAR)
        want = np.abs(grey.astype(np.int16) - ground.astype(np.int16)) > line_finder.CONTRAST
        count, labels, stats, _ = cv2.connectedComponentsWithStats(
            want.astype(np.uint8), connectivity=8
        )
        wide = [i for i in range(1, count) if stats[i][2] > 0.5 * 120 or stats[i][3] > 0.5 * 80]
        if wide:
            want[np.isin(labels, wide)] = False
        assert np.array_equal(got, want)


def test_components_listed_in_one_pass_are_those_read_one_by_one() -> None:
    for mask in _masks(6):
        count, _, stats, centroids = cv2.connectedComponentsWithStats(
            mask.astype(np.uint8), connectivity=8
        )
        found, _labels = glyphs._components(mask)
        assert found == [tuple(int(v) for v in stats[i]) for i in range(1, count)]
        assert all(type(v) is int for row in found for v in row)
        assert blobs.components(mask) == [
            blobs.Component(
                int(stats[i][4]),
                int(stats[i][0]),
                int(stats[i][0] + stats[i][2]) - 1,
                int(stats[i][1]),
                int(stats[i][1] + stats[i][3]) - 1,
                float(centroids[i][0]),
            )
            for i in range(1, count)
        ]


def _old_erase(image: Image.Image) -> Image.Image:
    """outlines.erase as it was: each piece tested, and painted, one by one."""
    grey = np.asarray(image.convert("L"))
    paper = int(np.median(grey))
    flag = cv2.THRESH_BINARY if paper < 128 else cv2.THRESH_BINARY_INV
    _, ink = cv2.threshold(grey, 0, 255, flag | cv2.THRESH_OTSU)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    pieces = [stats[n] for n in range(1, count)]
    heights = [int(s[3]) for s in pieces if s[3] >= outlines.SPECK]
    if not heights:
        return Image.fromarray(grey)
    letter = float(np.median(heights))
    out = grey.copy()
    for n, s in enumerate(pieces, 1):
        w, h, area = int(s[2]), int(s[3]), int(s[4])
        if (
            max(w, h) >= outlines.OUTLINE_SIZE * letter
            and area <= outlines.OUTLINE_FILL * w * h
            and w * h <= outlines.OUTLINE_SHARE * grey.size
        ):
            out[labels == n] = paper
    return Image.fromarray(out)


def _words_in_pills(seed: int, dark: bool) -> Image.Image:
    rng = np.random.default_rng(seed)
    paper, ink = (30, 230) if dark else (230, 30)
    grey = np.full((120, 400), paper, np.uint8)
    for n in range(int(rng.integers(0, 4))):  # a thin outline round a word: erased
        left = 10 + 120 * n
        grey[20:90, left : left + 100] = ink
        grey[23:87, left + 3 : left + 97] = paper
    for _ in range(30):  # letters
        x, y = int(rng.integers(0, 390)), int(rng.integers(30, 80))
        grey[y : y + 10, x : x + 4] = ink
    return Image.fromarray(grey)


def test_outlines_erased_at_once_are_those_erased_one_by_one() -> None:
    erased = 0
    for seed in range(8):
        image = _words_in_pills(seed, dark=seed % 2 == 1)
        want = np.asarray(_old_erase(image))
        assert np.array_equal(np.asarray(outlines.erase(image)), want)
        erased += int((want != np.asarray(image)).any())
    assert erased  # outlines were erased, not only left


def _old_glyph_marks(grey: Any, card_height: int, level: float) -> list[Any]:
    otsu, _ = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    _, ink = cv2.threshold(grey, otsu * level, 255, cv2.THRESH_BINARY_INV)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    return [
        (int(x), int(y), int(w), int(h))
        for x, y, w, h, area in stats[1:count]
        if banner.GLYPH[0] * card_height <= h <= banner.GLYPH[1] * card_height
        and w <= 2 * h
        and area >= 0.15 * w * h
    ]


def test_a_banners_glyph_row_is_found_as_with_its_pieces_one_by_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(12)
    rows = []
    seen: list[Any] = []  # the marks each darkness cut gave the row finder
    real = banner._rows

    def rows_of(marks: list[tuple[int, int, int, int]]) -> Any:
        seen.append(marks)
        return real(marks)

    monkeypatch.setattr(banner, "_rows", rows_of)
    for trial in range(6):
        grey = np.full((100, 400), 220, np.uint8)
        grey[rng.random((100, 400)) < 0.05] = 20  # specks of art
        for n in range(3 + trial):  # capitals on one baseline
            grey[40:60, 20 + 30 * n : 34 + 30 * n] = 20
        seen.clear()
        rows.append(banner.glyph_row(grey, 400))
        assert seen == [_old_glyph_marks(grey, 400, level) for level in banner.LEVELS]
    assert all(row is not None for row in rows)


def _old_skew(image: Image.Image) -> float:
    """geometry.skew_angle with numpy's row sums, as it was."""
    small, _ = geometry._small(geometry.gray(image))
    mask = geometry.ink_mask(small).astype(np.uint8)
    h, w = mask.shape
    scores: dict[float, float] = {}

    def sharpness(angle: float) -> float:
        if angle not in scores:
            matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
            turned = cv2.warpAffine(mask, matrix, (w, h), flags=cv2.INTER_NEAREST)
            rows = turned.sum(axis=1, dtype=np.float32)
            scores[angle] = float(np.square(np.diff(rows)).sum())
        return scores[angle]

    best = max(np.arange(-geometry.MAX_SKEW, geometry.MAX_SKEW + 0.01, 0.5), key=sharpness)
    return round(float(max(np.arange(best - 0.5, best + 0.51, 0.1), key=sharpness)), 2)


def test_the_skew_found_with_opencvs_row_sums_is_numpys() -> None:
    angles = set()
    for turn in (-3.2, -1.0, 0.0, 0.7, 2.4):
        card = np.full((700, 500), 235, np.uint8)
        for row in range(12):  # lines of words
            for word in range(6):
                card[60 + 50 * row : 72 + 50 * row, 30 + 75 * word : 90 + 75 * word] = 30
        image = Image.fromarray(card).rotate(turn, fillcolor=235)
        got = geometry.skew_angle(image)
        assert got == _old_skew(image)
        angles.add(got)
    assert len(angles) >= 3  # the skews differ: the test saw more than one answer


def test_a_shape_that_fits_only_on_its_side_is_not_probed_when_it_reads_upright(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the templates fit this shape only a quarter turn round (a squared-up outline of
    # another card's proportions): probed so, every region would be read across its lines
    monkeypatch.setattr(pipeline, "_turns", lambda *_: [270, 90])
    keys = _read_frame({0: 0.9, 270: 0.4, 90: 0.4})
    assert not [k for k in keys if "@" in k]  # no region probed at all ...
    assert keys.count("plan/0/page") == 1 and "plan/0/page-inverted" in keys  # ... weighed
    keys = _read_frame({0: 0.6, 270: 0.4, 90: 0.4})  # not surely upright: probed as before
    assert _probes(keys, 270) and _probes(keys, 90)
    assert keys.count("plan/0/page") == 1
