"""Geometry: straighten the card (its outline: outline.py), find the text's axis, deskew.

Pure functions over images (OpenCV + numpy); nothing here reads text. Which of the two
directions along the axis is up is decided by the layout step, which reads a title
both ways and keeps the one the engine is surer of.
"""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image

from cardkit.ocr import channels
from cardkit.ocr.card_outline import Outline, find_outline, side_lengths

__all__ = ["Outline", "find_outline", "side_lengths"]  # the outline finder lives in outline.py

# Work on a copy this many pixels on its long side when looking for outlines and skew.
WORK_SIZE = 900
MAX_SKEW = 5.0  # degrees; beyond this a card is not "slightly" skewed


def gray(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("L"))


def _small(array: np.ndarray) -> tuple[np.ndarray, float]:
    scale = WORK_SIZE / max(array.shape[:2])
    if scale >= 1:
        return array, 1.0
    size = (round(array.shape[1] * scale), round(array.shape[0] * scale))
    return cv2.resize(array, size, interpolation=cv2.INTER_AREA), scale


def warp(
    image: Image.Image,
    corners: np.ndarray,
    aspect: float | None = None,
    longest: int | None = None,
) -> Image.Image:
    """The quadrilateral straightened to a rectangle; `aspect` (width/height) if known;
    `longest`: at most this many pixels on the long side (a quick look, bilinear)."""
    width, height = side_lengths(corners)
    if aspect:
        # keep the longer measured side, set the other from the card's true proportions
        if width / aspect >= height:
            height = width / aspect
        else:
            width = height * aspect
    flags = cv2.INTER_CUBIC
    if longest and max(width, height) > longest:
        shrink = longest / max(width, height)
        width, height, flags = width * shrink, height * shrink, cv2.INTER_LINEAR
    w, h = max(1, round(width)), max(1, round(height))
    target = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    out = cv2.warpPerspective(
        np.asarray(image), matrix, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE
    )
    return Image.fromarray(out)


def ink_mask(array: np.ndarray) -> np.ndarray:
    """Strokes darker or lighter than their surroundings (text either way round), 0/255."""
    block = max(15, (min(array.shape[:2]) // 25) | 1)
    dark = cv2.adaptiveThreshold(
        array, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 15
    )
    light = cv2.adaptiveThreshold(
        array, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, -15
    )
    return np.asarray(cv2.bitwise_or(dark, light))


def text_mask(array: np.ndarray) -> np.ndarray:
    """Strokes darker than their surroundings on a light card, lighter on a dark one, 0/255
    (ink_mask's both ways at once also marks the paper around every letter)."""
    block = max(15, (min(array.shape[:2]) // 25) | 1)
    light_card = float(np.median(array)) >= 128
    kind = cv2.THRESH_BINARY_INV if light_card else cv2.THRESH_BINARY
    return np.asarray(
        cv2.adaptiveThreshold(
            array, 255, cv2.ADAPTIVE_THRESH_MEAN_C, kind, block, 15 if light_card else -15
        )
    )


def _run_length(mask: np.ndarray, across: bool) -> float:
    """Total length of the words and lines the ink forms when joined along rows (or along
    columns, `across`): letters close to each other merge into long thin runs."""
    size = max(mask.shape)
    k = max(3, round(size / 150))
    kernel = np.ones((k, 1) if across else (1, k), np.uint8)
    joined = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    _, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    long = stats[1:, cv2.CC_STAT_HEIGHT if across else cv2.CC_STAT_WIDTH].astype(np.float64)
    thin = stats[1:, cv2.CC_STAT_WIDTH if across else cv2.CC_STAT_HEIGHT].astype(np.float64)
    words = (thin >= 0.004 * size) & (thin <= 0.04 * size) & (long >= 3 * thin)
    return float(long[words & (long <= 0.6 * size)].sum())


def text_axis(image: Image.Image) -> tuple[str, float]:
    """`horizontal` or `vertical`: the way the text lines run, and how clearly (ratio >= 1).

    Letters joined to their neighbours along the lines make long thin runs (words); joined
    across the lines they make few (a letter is not much taller than its gap to the next
    line's). The direction with the greater total run length is the lines'.
    """
    small, _ = _small(gray(image))
    mask = text_mask(small)
    rows, cols = _run_length(mask, False), _run_length(mask, True)
    if rows >= cols:
        return "horizontal", rows / cols if cols else float("inf")
    return "vertical", cols / rows if rows else float("inf")


def rotate(image: Image.Image, degrees: int) -> Image.Image:
    """Turn counter-clockwise by a multiple of 90 degrees."""
    turns = {0: None, 90: Image.Transpose.ROTATE_90, 180: Image.Transpose.ROTATE_180}
    turns[270] = Image.Transpose.ROTATE_270
    method = turns[degrees % 360]
    return image if method is None else image.transpose(method)


def skew_angle(image: Image.Image) -> float:
    """The small angle (degrees, counter-clockwise positive) that makes text lines level.

    The ink's row profile is sharpest when lines are level: try angles, keep the best.
    """
    small, _ = _small(gray(image))
    # 0/1 in bytes: a quarter of float32's memory to warp; the row sums (float32, exact
    # for counts this small) and the score are as before
    mask = ink_mask(small).astype(np.uint8)
    h, w = mask.shape
    centre = (w / 2, h / 2)
    scores: dict[float, float] = {}  # the fine search passes the coarse best again

    def sharpness(angle: float) -> float:
        if angle not in scores:
            matrix = cv2.getRotationMatrix2D(centre, angle, 1.0)
            turned = cv2.warpAffine(mask, matrix, (w, h), flags=cv2.INTER_NEAREST)
            # the row sums in float32 (exact: at most 255 x the width), by OpenCV: numpy's
            # sum along rows took half as long as the warp
            rows = cv2.reduce(turned, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32F).ravel()
            scores[angle] = float(np.square(np.diff(rows)).sum())
        return scores[angle]

    coarse = np.arange(-MAX_SKEW, MAX_SKEW + 0.01, 0.5)
    best = max(coarse, key=sharpness)
    fine = np.arange(best - 0.5, best + 0.51, 0.1)
    return round(float(max(fine, key=sharpness)), 2)


def deskew(image: Image.Image, angle: float) -> Image.Image:
    if abs(angle) < 0.2:
        return image
    return image.rotate(
        angle, resample=Image.Resampling.BICUBIC, expand=False, fillcolor=_edge_colour(image)
    )


def _edge_colour(image: Image.Image) -> tuple[int, int, int]:
    array = np.asarray(image)
    edge = np.concatenate([array[0], array[-1], array[:, 0], array[:, -1]])
    r, g, b = np.median(edge, axis=0)
    return int(r), int(g), int(b)


def trim(image: Image.Image, tolerance: int = 18) -> Image.Image:
    """Cut away a plain margin (scanner bed, fill after a turn) around the card."""
    array = np.asarray(image).astype(np.int16)
    sides = [array[0], array[-1], array[:, 0], array[:, -1]]
    medians = np.array([np.median(side, axis=0) for side in sides])
    if (
        max(float(side.std(axis=0).mean()) for side in sides) > 12
        or np.ptp(medians, axis=0).max() > 24
    ):
        return image  # not one plain colour all round: the edges are the card's own
    background = np.array(_edge_colour(image), dtype=np.int16)
    differs = channels.brightest(np.abs(array - background)) > tolerance
    rows = np.flatnonzero(differs.mean(axis=1) > 0.02)
    cols = np.flatnonzero(differs.mean(axis=0) > 0.02)
    if len(rows) < 2 or len(cols) < 2:
        return image
    top, bottom, left, right = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    if (bottom - top) * (right - left) < 0.6 * array.shape[0] * array.shape[1]:
        return image  # a light card on a light bed: trimming would cut into the card
    return image.crop((int(left), int(top), int(right), int(bottom)))


def slant(gray: np.ndarray) -> float:
    """The horizontal shear that makes a text line's strokes most upright: about 0 for roman
    type, 0.2-0.3 for italic (the columns of ink are sharpest when the slant is undone)."""
    _, ink = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    h, w = ink.shape[:2]
    if h < 6 or w < 6 or float(ink.mean()) < 2:
        return 0.0
    best, best_shear = -1.0, 0.0
    for shear in np.arange(-0.4, 0.41, 0.05):
        matrix = np.array([[1, shear, -shear * h / 2], [0, 1, 0]], dtype=np.float32)
        turned = cv2.warpAffine(ink, matrix, (w, h), flags=cv2.INTER_NEAREST)
        score = float(np.square(turned.sum(axis=0).astype(np.float64)).sum())
        if score > best:
            best, best_shear = score, float(shear)
    return round(best_shear, 2)
