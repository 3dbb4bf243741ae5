"""Where a card's light text on a dark ground stands: the places the whole-card read turns
over and reads again (page.read_more). Turning over every dark place was most of a scan's
time on art-heavy cards (a dark painting read as junk at the cost of a whole read); light
strokes of a letter's size, lined up into words inside the dark places, are what is read.

A dark place with no such strokes is not read turned over; where the strokes are spread
over most of the dark places (dark art full of highlights), the whole dark box is read at
once, as before.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

Box = tuple[int, int, int, int]  # left, top, right, bottom in card pixels

DARK_BACKGROUND = 110  # a local background darker than this is a dark panel: turned over
PANEL_CELL = 1 / 40  # the side of a cell judged dark or light, as a share of the card's side
WORK_SIZE = 900  # the strokes are looked for on a copy this long (a letter stays 5 px or more)
LEAST_HEIGHT = 0.006  # a word's strokes are at least this tall (share of the card's side) ...
MOST_HEIGHT = 0.15  # ... and at most this: a large lone number (a Move) still counts
ONE_READ = 0.6  # places covering this share of the dark box are read as the one box


def dark_cells(grey: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The card in cells of PANEL_CELL of its side, True where the cell's mean luminance is
    dark: thin light letters leave a dark panel's mean dark, dark letters leave paper's
    light; white on red is dark in luminance."""
    h, w = grey.shape
    columns = max(1, round(w / (max(h, w) * PANEL_CELL)))
    rows = max(1, round(h / (max(h, w) * PANEL_CELL)))
    small = cv2.resize(grey, (columns, rows), interpolation=cv2.INTER_AREA)
    return np.asarray(small < DARK_BACKGROUND)


def dark_box(array: np.ndarray[Any, Any]) -> Box | None:
    """The box round every place where the card's background is dark (a panel, a banner,
    dark art), grown by a cell all round; None when there is none."""
    grey = cv2.cvtColor(array, cv2.COLOR_RGB2GRAY)
    dark = dark_cells(grey)
    if not dark.any():
        return None
    return _cells_box(dark, grey.shape, np.ones_like(dark))


def _cells_box(dark: np.ndarray[Any, Any], shape: tuple[int, ...], where: Any) -> Box:
    h, w = shape[:2]
    rows, columns = dark.shape
    ys, xs = np.flatnonzero((dark & where).any(axis=1)), np.flatnonzero((dark & where).any(0))
    return (
        max(0, (int(xs[0]) - 1) * w // columns),
        max(0, (int(ys[0]) - 1) * h // rows),
        min(w, (int(xs[-1]) + 2) * w // columns),
        min(h, (int(ys[-1]) + 2) * h // rows),
    )


def places(array: np.ndarray[Any, Any]) -> list[Box]:
    """The boxes to read turned over: one per group of light words standing on dark cells,
    each grown by a cell; the whole dark box when the groups cover most of it; none on a
    light card or where no dark place holds strokes of a letter's size."""
    grey = cv2.cvtColor(array, cv2.COLOR_RGB2GRAY)
    dark = dark_cells(grey)
    if not dark.any():
        return []
    h, w = grey.shape
    whole = _cells_box(dark, grey.shape, np.ones_like(dark))
    scale = min(1.0, WORK_SIZE / max(h, w))
    small = grey
    if scale < 1.0:
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        small = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    sh, sw = small.shape
    side = max(sh, sw)
    # dark cells and their neighbours (a letter on a panel's edge), at the copy's size
    near_dark = cv2.dilate(dark.astype(np.uint8), np.ones((3, 3), np.uint8))
    near_dark = cv2.resize(near_dark, (sw, sh), interpolation=cv2.INTER_NEAREST)
    block = max(15, (min(sh, sw) // 25) | 1)
    light = cv2.adaptiveThreshold(
        small, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, -15
    )
    light = cv2.bitwise_and(light, near_dark * 255)
    # letters joined along the line into words
    k = max(3, round(side / 150))
    words = cv2.morphologyEx(light, cv2.MORPH_CLOSE, np.ones((1, k), np.uint8))
    _, _, stats, _ = cv2.connectedComponentsWithStats(words, connectivity=8)
    tall = stats[1:, cv2.CC_STAT_HEIGHT]
    wide = stats[1:, cv2.CC_STAT_WIDTH]
    keep = (tall >= LEAST_HEIGHT * side) & (tall <= MOST_HEIGHT * side) & (wide >= tall * 0.4)
    if not keep.any():
        return []
    # words near each other (a line's, a paragraph's) make one place
    groups = np.zeros((sh, sw), np.uint8)
    for index in np.flatnonzero(keep) + 1:
        x, y, bw, bh = (int(v) for v in stats[index, :4])
        groups[max(0, y - bh) : y + 2 * bh, max(0, x - bh) : x + bw + bh] = 255
    _, _, boxes, _ = cv2.connectedComponentsWithStats(groups, connectivity=8)
    cell = max(h, w) * PANEL_CELL
    out = []
    for x, y, bw, bh, _area in boxes[1:]:
        left, top = max(whole[0], int((x / scale) - cell)), max(whole[1], int(y / scale - cell))
        right = min(whole[2], int((x + bw) / scale + cell) + 1)
        bottom = min(whole[3], int((y + bh) / scale + cell) + 1)
        if right > left and bottom > top:
            out.append((left, top, right, bottom))
    out = _merge(out)
    area = sum((r - left) * (b - t) for left, t, r, b in out)
    if area >= ONE_READ * (whole[2] - whole[0]) * (whole[3] - whole[1]):
        return [whole]
    return sorted(out, key=lambda b: (b[1], b[0]))


def _merge(boxes: list[Box]) -> list[Box]:
    """Overlapping boxes joined into the box round both, until none overlap."""
    out = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out
