"""Geometry: find the card in a photo, correct perspective, find the text's axis, deskew.

Pure functions over images (OpenCV + numpy); nothing here reads text. Which of the two
directions along the axis is up is decided by the layout step, which reads a title
both ways and keeps the one the engine is surer of.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image

# Work on a copy this many pixels on its long side when looking for outlines and skew.
WORK_SIZE = 900
MAX_SKEW = 5.0  # degrees; beyond this a card is not "slightly" skewed


@dataclass
class Outline:
    corners: np.ndarray  # 4x2 float32, top-left, top-right, bottom-right, bottom-left (pixels)
    area_fraction: float


def gray(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("L"))


def _small(array: np.ndarray) -> tuple[np.ndarray, float]:
    scale = WORK_SIZE / max(array.shape[:2])
    if scale >= 1:
        return array, 1.0
    size = (round(array.shape[1] * scale), round(array.shape[0] * scale))
    return cv2.resize(array, size, interpolation=cv2.INTER_AREA), scale


def _order(points: np.ndarray) -> np.ndarray:
    """Corners in order top-left, top-right, bottom-right, bottom-left."""
    pts = points.reshape(4, 2).astype(np.float32)
    s = pts.sum(axis=1)
    d = np.diff(pts, axis=1).ravel()
    return np.array(
        [pts[np.argmin(s)], pts[np.argmin(d)], pts[np.argmax(s)], pts[np.argmax(d)]],
        dtype=np.float32,
    )


def _border_uniform(small: np.ndarray) -> bool:
    """True when the image's edges look like a background (a table, a scanner lid)."""
    h, w = small.shape[:2]
    band = max(2, min(h, w) // 40)
    edges = np.concatenate(
        [
            small[:band].reshape(-1, small.shape[2]),
            small[-band:].reshape(-1, small.shape[2]),
            small[:, :band].reshape(-1, small.shape[2]),
            small[:, -band:].reshape(-1, small.shape[2]),
        ]
    ).astype(np.float32)
    return float(edges.std(axis=0).mean()) < 40.0


def find_outline(image: Image.Image) -> Outline | None:
    """The card's four corners against its background, or None when the card fills the image.

    Edges (Canny on a blurred copy, closed) give contours; the largest that simplifies to
    four corners and covers 15-85% of the picture, with background on every side, is the card.
    """
    rgb = np.asarray(image)
    small, scale = _small(rgb)
    if not _border_uniform(small):
        return None
    g = cv2.cvtColor(small, cv2.COLOR_RGB2GRAY)
    g = cv2.GaussianBlur(g, (5, 5), 0)
    edges = cv2.Canny(g, 30, 90)
    edges = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8), iterations=2)
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    total = float(small.shape[0] * small.shape[1])
    for contour in sorted(contours, key=cv2.contourArea, reverse=True)[:5]:
        hull = cv2.convexHull(contour)
        area = cv2.contourArea(hull)
        if not 0.15 * total <= area <= 0.85 * total:
            continue
        perimeter = cv2.arcLength(hull, True)
        corners: np.ndarray | None = None
        for eps in (0.02, 0.03, 0.04, 0.06):
            approx = cv2.approxPolyDP(hull, eps * perimeter, True)
            if len(approx) == 4:
                corners = _order(approx)
                break
        if corners is None:
            corners = _order(cv2.boxPoints(cv2.minAreaRect(hull)))
        h, w = small.shape[:2]
        margin = 0.02 * min(h, w)
        inside_frame = (
            corners[:, 0].min() > margin
            and corners[:, 1].min() > margin
            and corners[:, 0].max() < w - margin
            and corners[:, 1].max() < h - margin
        )
        if inside_frame and _plain_outside(small, corners):
            return Outline(corners / scale, area / total)
        return None
    return None


def _plain_outside(small: np.ndarray, corners: np.ndarray) -> bool:
    """The picture outside the quadrilateral is a plain background, not more card."""
    blank = np.zeros(small.shape[:2], np.uint8)
    cv2.fillConvexPoly(blank, corners.astype(np.int32), 255)
    inside: np.ndarray = cv2.dilate(blank, np.ones((9, 9), np.uint8))
    outside = small[inside == 0].astype(np.float32)
    return len(outside) > 0 and float(outside.std(axis=0).mean()) < 32.0


def side_lengths(corners: np.ndarray) -> tuple[float, float]:
    tl, tr, br, bl = corners
    width = (np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)) / 2
    height = (np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2
    return float(width), float(height)


def warp(image: Image.Image, corners: np.ndarray, aspect: float | None = None) -> Image.Image:
    """The quadrilateral straightened to a rectangle; `aspect` (width/height) if known."""
    width, height = side_lengths(corners)
    if aspect:
        # keep the longer measured side, set the other from the card's true proportions
        if width / aspect >= height:
            height = width / aspect
        else:
            width = height * aspect
    w, h = max(1, round(width)), max(1, round(height))
    target = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    out = cv2.warpPerspective(
        np.asarray(image), matrix, (w, h), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE
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


def _profile_sharpness(mask: np.ndarray, axis: int) -> float:
    profile = mask.sum(axis=axis).astype(np.float64) / (mask.shape[axis] * 255.0)
    return float(np.square(np.diff(profile)).sum() / max(1, len(profile)))


def text_axis(image: Image.Image) -> tuple[str, float]:
    """`horizontal` or `vertical`: the way the text lines run, and how clearly (ratio >= 1).

    Lines of text make the ink's profile across them jump from line to gap and back;
    along them it is smooth. The sharper of the row and column profiles wins.
    """
    small, _ = _small(gray(image))
    mask = ink_mask(small)
    rows, cols = _profile_sharpness(mask, 1), _profile_sharpness(mask, 0)
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
    mask = ink_mask(small).astype(np.float32)
    h, w = mask.shape
    centre = (w / 2, h / 2)

    def sharpness(angle: float) -> float:
        matrix = cv2.getRotationMatrix2D(centre, angle, 1.0)
        turned = cv2.warpAffine(mask, matrix, (w, h), flags=cv2.INTER_NEAREST)
        rows = turned.sum(axis=1)
        return float(np.square(np.diff(rows)).sum())

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
    differs = np.abs(array - background).max(axis=2) > tolerance
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
