"""Find a card's outline in a scan or a photo: its four corners, precisely.

1. The background is what the picture's border shows (a scanner lid, a table): its
   colour and how much it varies there (a wood grain varies, a lid does not).
2. Rough outlines: the largest blobs that differ from the background by more than it
   varies, and the largest closed edge contours; each simplified to four corners.
3. Each side is refined on the full-size picture: along the side, the step from
   background to card is found on short profiles across it, and a line is fitted through
   those steps (robustly: points off the line are dropped). The corners are where the
   lines meet, so a card's rounded corners do not pull them inwards.
4. An outline is kept only when every side was found on most of its length, the picture
   outside it is background, and (when known) its proportions are a card's.

Pure functions over numpy arrays (OpenCV); nothing here reads text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image

WORK_SIZE = 700  # at most this many pixels on the long side of the copy for rough outlines
ASPECT_SLACK = 0.12  # a found outline's width/height may differ this much from a card's
MIN_AREA, MAX_AREA = 0.08, 0.97  # share of the picture a card may cover
SIDE_SUPPORT = 0.55  # share of a side's profiles that must find the edge on one line
FRAME_STEP = 1.2  # a side's edge is also sought as a step this many background thresholds high
NEAR_BEST = 0.9  # of a side's edges found about as well as the best, the outermost is kept
FRAME_GAP = 3.0  # pixels: an edge found this much further out is a frame's, not the same edge
MAX_SPREAD = 40.0  # a border varying more than this (Lab distance) is no background (art)


@dataclass
class Outline:
    corners: np.ndarray  # 4x2 float32, top-left, top-right, bottom-right, bottom-left (pixels)
    area_fraction: float


def small_copy(array: np.ndarray) -> tuple[np.ndarray, float]:
    """Every k-th pixel each way (the rough outline needs no more; no filtering cost)."""
    step = max(1, -(-max(array.shape[:2]) // WORK_SIZE))
    return np.ascontiguousarray(array[::step, ::step]), 1.0 / step


def order(points: np.ndarray) -> np.ndarray:
    """Corners in order top-left, top-right, bottom-right, bottom-left."""
    pts = points.reshape(4, 2).astype(np.float32)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on the screen, starting top-left-ish
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0)


@dataclass
class Background:
    colour: np.ndarray  # Lab, float32
    spread: float  # how far the border's pixels stray from that colour (95th percentile)

    @property
    def threshold(self) -> float:
        """A colour this far from the background's is not background."""
        return max(self.spread * 1.3, self.spread + 3.0)


def background(small: np.ndarray) -> Background:
    """The colour the picture's border shows, and how much it varies there."""
    lab = _lab(small)
    h, w = lab.shape[:2]
    band = max(2, min(h, w) // 40)
    border = np.concatenate(
        [
            lab[:band].reshape(-1, 3),
            lab[-band:].reshape(-1, 3),
            lab[:, :band].reshape(-1, 3),
            lab[:, -band:].reshape(-1, 3),
        ]
    )
    colour = np.median(border, axis=0)
    spread = float(np.percentile(np.linalg.norm(border - colour, axis=1), 95))
    return Background(colour.astype(np.float32), spread)


def _lab(rgb: np.ndarray) -> np.ndarray:
    """Lab on the 0-255 scale of 8-bit Lab (OpenCV's 8-bit conversion first builds tables
    for a quarter of a second in every new process: from floats it does not)."""
    lab = np.asarray(cv2.cvtColor(rgb.astype(np.float32) * (1 / 255), cv2.COLOR_RGB2LAB))
    return np.asarray(lab * np.array([2.55, 1.0, 1.0], np.float32), dtype=np.float32)


def difference(rgb: np.ndarray, back: Background) -> np.ndarray:
    """Each pixel's colour distance from the background (float32)."""
    lab = _lab(rgb)
    offset = np.full_like(lab, 0.0)
    offset[...] = back.colour
    squares = cv2.transform(cv2.pow(cv2.subtract(lab, offset), 2.0), np.ones((1, 3), np.float32))
    return np.asarray(cv2.sqrt(squares), dtype=np.float32).reshape(rgb.shape[:2])


def _quad(hull: np.ndarray) -> np.ndarray | None:
    """Four corners for a convex outline: its four longest straight stretches, extended to
    meet (a rounded or clipped corner becomes a short stretch, and is left out)."""
    perimeter = cv2.arcLength(hull, True)
    polygon = cv2.approxPolyDP(hull, 0.004 * perimeter, True).reshape(-1, 2).astype(np.float64)
    if len(polygon) < 4:
        return None
    ends = np.roll(polygon, -1, axis=0)
    longest = sorted(np.argsort(-np.linalg.norm(ends - polygon, axis=1))[:4])
    lines = [(polygon[i], ends[i] - polygon[i]) for i in longest]
    corners = np.array([_intersect(lines[i - 1], lines[i]) for i in range(4)], np.float32)
    return order(corners)


def _rough_quads(small: np.ndarray, distance: np.ndarray, back: Background) -> list[np.ndarray]:
    """Four-cornered outlines of the largest blobs and edge contours, largest first."""
    h, w = distance.shape
    kernel = np.ones((5, 5), np.uint8)
    masks = []
    blob = (cv2.GaussianBlur(distance, (5, 5), 0) > back.threshold).astype(np.uint8) * 255
    masks.append(cv2.morphologyEx(blob, cv2.MORPH_OPEN, kernel))
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_RGB2GRAY), (5, 5), 0)
    edges = cv2.Canny(grey, 30, 90)
    masks.append(cv2.morphologyEx(edges, cv2.MORPH_CLOSE, kernel, iterations=2))
    total = float(h * w)
    quads: list[tuple[float, np.ndarray]] = []
    for mask in masks:
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for contour in sorted(contours, key=cv2.contourArea, reverse=True)[:3]:
            hull = cv2.convexHull(contour)
            area = cv2.contourArea(hull)
            if not MIN_AREA * total <= area <= MAX_AREA * total:
                continue
            corners = _quad(hull)
            if corners is None:
                continue
            if cv2.contourArea(corners) > 0 and area / cv2.contourArea(corners) >= 0.85:
                quads.append((area, corners))
    quads.sort(key=lambda q: -q[0])
    return [q for _, q in quads]


def _intersect(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    (p, d), (q, e) = a, b
    matrix = np.array([[d[0], -e[0]], [d[1], -e[1]]], dtype=np.float64)
    if abs(np.linalg.det(matrix)) < 1e-6:
        return np.asarray(p, dtype=np.float64)
    t = np.linalg.solve(matrix, np.asarray(q - p, dtype=np.float64))[0]
    return np.asarray(p + t * d, dtype=np.float64)


def _fit_line(points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """A line through the points, refitted without the ones far off it; (point, direction,
    which points it kept)."""
    keep = np.ones(len(points), bool)
    for tolerance in (6.0, 2.5, 1.5):
        if keep.sum() < 4:
            return None
        vx, vy, x0, y0 = cv2.fitLine(points[keep].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01)
        origin, direction = np.array([x0[0], y0[0]]), np.array([vx[0], vy[0]])
        normal = np.array([-direction[1], direction[0]])
        keep = np.abs((points - origin) @ normal) <= tolerance
    return origin, direction, keep


def _edges(
    profiles: np.ndarray, steps: np.ndarray, cap: float | None = None, share: float = 0.5
) -> tuple[np.ndarray, np.ndarray]:
    """Where each profile (inside to outside) last rises clearly above the background seen at
    its outer end: the card's edge, or the outer side of a line drawn along it. Sub-pixel.
    `cap`: the step counted at most this high, so a frame darker than the card's inside
    (dark frame, light paper, on a dark table) is the edge, not the paper inside it.
    `share`: how far up the step the edge is (higher: a soft shadow outside does not move it)."""
    quarter = max(3, profiles.shape[1] // 6)
    outer = np.median(profiles[:, -quarter:], axis=1)
    wobble = np.median(np.abs(profiles[:, -quarter:] - outer[:, None]), axis=1)
    inner = np.percentile(profiles[:, : profiles.shape[1] - quarter], 90, axis=1)
    if cap is not None:
        inner = np.minimum(inner, outer + cap)
    threshold = outer + np.maximum(3.0 + 3.0 * wobble, share * (inner - outer))
    above = profiles > threshold[:, None]
    found = above.any(axis=1) & (inner - outer > 3.0 + 3.0 * wobble)
    # the last index above the threshold, then the crossing between it and the next
    last = profiles.shape[1] - 1 - np.argmax(above[:, ::-1], axis=1)
    last = np.minimum(last, profiles.shape[1] - 2)
    rows = np.arange(len(profiles))
    high, low = profiles[rows, last], profiles[rows, last + 1]
    fraction = np.clip((high - threshold) / np.maximum(1e-6, high - low), 0.0, 1.0)
    found &= last < profiles.shape[1] - quarter  # the edge is not in the outer quarter
    return steps[last] + fraction, found


def _side_line(
    profiles: np.ndarray, steps: np.ndarray, base: np.ndarray, normal: np.ndarray, frame: float
) -> tuple[np.ndarray, np.ndarray] | None:
    """The side's edge line: of the steps sought (the whole step; one capped at a frame's
    height, halfway and three quarters up) those found on most of the side, the outermost
    (a dark frame round light paper is the card's edge, the paper's is not)."""
    found_lines: list[tuple[int, float, tuple[np.ndarray, np.ndarray]]] = []
    for cap, share in ((None, 0.5), (frame, 0.5), (frame, 0.75)):
        offsets, found = _edges(profiles, steps, cap, share)
        points = base + offsets[:, None] * normal[None, :]
        line = _fit_line(points[found])
        if line is None or line[2].sum() < SIDE_SUPPORT * len(points):
            continue
        outward = float(np.mean(offsets[found][line[2]]))
        found_lines.append((int(line[2].sum()), outward, (line[0], line[1])))
    if not found_lines:
        return None
    best = max(found_lines, key=lambda f: f[0])
    outer = [f for f in found_lines if f[0] >= NEAR_BEST * best[0] and f[1] > best[1] + FRAME_GAP]
    return max(outer, key=lambda f: f[1])[2] if outer else best[2]


def refine(
    rgb: np.ndarray, back: Background, corners: np.ndarray, reach: float
) -> np.ndarray | None:
    """The corners moved to where the four sides' edges meet on the full-size picture (the
    step in the difference from the background, across each side); None when a side
    shows no edge along most of its length."""
    centre = corners.mean(axis=0)
    lines = []
    steps = np.arange(-reach, reach + 1, 1.0, dtype=np.float32)
    where = np.linspace(0.1, 0.9, 48, dtype=np.float32)
    for index in range(4):
        a, b = corners[index], corners[(index + 1) % 4]
        along = (b - a) / max(1e-6, float(np.linalg.norm(b - a)))
        normal = np.array([-along[1], along[0]], dtype=np.float32)
        if float((a + b) / 2 @ normal - centre @ normal) < 0:
            normal = -normal  # pointing away from the card
        base = a[None, :] + where[:, None] * (b - a)[None, :]
        xs = (base[:, None, 0] + steps[None, :] * normal[0]).astype(np.float32)
        ys = (base[:, None, 1] + steps[None, :] * normal[1]).astype(np.float32)
        samples = cv2.remap(rgb, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        profiles = cv2.GaussianBlur(difference(samples, back), (5, 1), 1.0)
        fitted = _side_line(profiles, steps, base, normal, FRAME_STEP * back.threshold)
        if fitted is None:
            return None
        lines.append(fitted)
    out = np.array([_intersect(lines[(i - 1) % 4], lines[i]) for i in range(4)], np.float32)
    return order(out)


def _outside_is_background(distance: np.ndarray, corners: np.ndarray, back: Background) -> bool:
    """Most of the picture outside the quadrilateral looks like the border did."""
    blank = np.zeros(distance.shape, np.uint8)
    cv2.fillConvexPoly(blank, corners.astype(np.int32), 255)
    inside = np.asarray(cv2.dilate(blank, np.ones((9, 9), np.uint8)))
    outside = distance[inside == 0]
    if outside.size == 0:
        return False
    return float((outside <= back.threshold).mean()) >= 0.9


def side_lengths(corners: np.ndarray) -> tuple[float, float]:
    tl, tr, br, bl = corners
    width = (np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)) / 2
    height = (np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2
    return float(width), float(height)


def _shaped(corners: np.ndarray, aspects: Sequence[float]) -> bool:
    if not aspects:
        return True
    width, height = side_lengths(corners)
    measured = width / max(1e-6, height)
    return any(
        abs(measured - a) / a <= ASPECT_SLACK or abs(measured - 1 / a) * a <= ASPECT_SLACK
        for a in aspects
    )


def _reach(corners: np.ndarray, scale: float) -> float:
    """How far from a rough side its edge may be: the rough outline cuts a rounded corner
    short and was found on a smaller copy."""
    return max(8.0 / scale, 0.03 * max(side_lengths(corners)))


def find_outline(image: Image.Image, aspects: Sequence[float] = ()) -> Outline | None:
    """The card's four corners against its background, or None when the card fills the
    picture (or no outline stands out on every side). `aspects`: the width/height of the
    cards that may be in it (either way up); an outline of other proportions is not one."""
    rgb = np.asarray(image.convert("RGB"))
    small, scale = small_copy(rgb)
    back = background(small)
    if back.spread > MAX_SPREAD:
        return None  # the picture's border is not one background: the card fills it
    near = difference(small, back)
    h, w = near.shape
    margin = 0.01 * min(h, w)
    for rough in _rough_quads(small, near, back):
        if not _shaped(rough, aspects):
            continue
        corners = refine(rgb, back, rough / scale, _reach(rough / scale, scale))
        if corners is None:
            continue
        on_small = corners * scale
        inside_frame = (
            on_small[:, 0].min() > margin
            and on_small[:, 1].min() > margin
            and on_small[:, 0].max() < w - margin
            and on_small[:, 1].max() < h - margin
        )
        if (
            inside_frame
            and _shaped(corners, aspects)
            and _outside_is_background(near, on_small, back)
        ):
            area = float(cv2.contourArea(on_small)) / float(h * w)
            if MIN_AREA <= area <= MAX_AREA:
                return Outline(corners, area)
    return None
