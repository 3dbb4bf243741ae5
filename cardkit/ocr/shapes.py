"""An icon's shape as a few numbers, and the named shapes a palette may use.

A blob (a token icon segmented from its slot) is described by measures that survive a
scan's size, blur and a little rotation:
- `extent`: its area over its upright bounding box's (a square 1.0, a circle 0.79, a
  hexagon 0.75, a pentagon 0.69, a triangle or a diamond 0.5);
- `solidity`: its area over its convex hull's (a star or a cross is far under 1);
- `roundness`: 4π·area / perimeter² (a circle near 1, a diamond 0.79, a triangle 0.6);
- `aspect`: its width over its height (a triangle pointing up 1.15);
- `holes`: how many gaps it encloses, each at least 4% of its area (a ring has one).

A named shape's measures are taken from the shape drawn at the blob's own size, so the
pixel steps of a small icon are the same on both sides of the comparison.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw

HOLE = 0.04  # a gap this share of the blob's area is a hole (a speck of glare is not)
MEASURES = ("extent", "solidity", "roundness", "aspect")


@dataclass(frozen=True)
class Shape:
    extent: float
    solidity: float
    roundness: float
    aspect: float
    holes: int

    def distance(self, other: Shape) -> float:
        """How unlike two shapes are: the largest difference of a measure (aspect on a log
        scale, halved), and 1 when one has a hole and the other none."""
        gaps = [
            abs(self.extent - other.extent),
            abs(self.solidity - other.solidity),
            abs(self.roundness - other.roundness),
            abs(math.log(max(self.aspect, 0.05) / max(other.aspect, 0.05))) / 2,
        ]
        return max(gaps) + (1.0 if (self.holes > 0) != (other.holes > 0) else 0.0)

    def as_data(self) -> dict[str, float | int]:
        return {
            "extent": round(self.extent, 3),
            "solidity": round(self.solidity, 3),
            "roundness": round(self.roundness, 3),
            "aspect": round(self.aspect, 3),
            "holes": self.holes,
        }


def hollows(contour: Any, depth: float) -> int:
    """How many hollows in an outline reach in deeper than `depth` pixels from its hull
    (the gaps between a starburst's points, an asterisk's spokes); 0 for an outline too
    plain to have any."""
    hull = cv2.convexHull(contour, returnPoints=False)
    if hull is None or len(hull) < 4:
        return 0
    try:
        defects = cv2.convexityDefects(contour, hull)
    except cv2.error:
        return 0
    if defects is None:
        return 0
    depths = np.asarray(defects).reshape(-1, 4)[:, 3] / 256.0
    return int(np.count_nonzero(depths > depth))


def measure(mask: NDArray[Any]) -> Shape | None:
    """The measures of the largest blob in a binary mask (None when it is empty)."""
    grid = np.pad(mask.astype(np.uint8), 1)
    contours, hierarchy = cv2.findContours(grid, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if not contours or hierarchy is None:
        return None
    outer = [i for i in range(len(contours)) if hierarchy[0][i][3] < 0]
    main = max(outer, key=lambda i: cv2.contourArea(contours[i]))
    contour = contours[main]
    area = float(cv2.contourArea(contour))
    if area < 4:
        return None
    _, _, w, h = cv2.boundingRect(contour)
    hull = float(cv2.contourArea(cv2.convexHull(contour)))
    # the perimeter of the outline smoothed by a pixel: a staircase edge is not a long one
    smooth = cv2.approxPolyDP(contour, 1.0, True)
    perimeter = float(cv2.arcLength(smooth, True))
    holes = sum(
        1
        for i in range(len(contours))
        if hierarchy[0][i][3] == main and cv2.contourArea(contours[i]) >= HOLE * area
    )
    return Shape(
        extent=area / max(1, w * h),
        solidity=area / max(hull, 1.0),
        roundness=min(1.0, 4 * math.pi * area / max(perimeter, 1.0) ** 2),
        aspect=w / max(1, h),
        holes=holes,
    )


def _polygon(sides: int, turn: float, inner: float = 0.0) -> list[tuple[float, float]]:
    """A regular polygon (or a star, with `inner` radius) on the unit circle."""
    points = []
    steps = sides * (2 if inner else 1)
    for k in range(steps):
        radius = inner if inner and k % 2 else 1.0
        angle = turn + 2 * math.pi * k / steps
        points.append((radius * math.cos(angle), radius * math.sin(angle)))
    return points


UP = -math.pi / 2
OUTLINES: dict[str, list[tuple[float, float]]] = {
    "triangle": _polygon(3, UP),
    "square": _polygon(4, math.pi / 4),
    "diamond": _polygon(4, UP),
    "pentagon": _polygon(5, UP),
    "hexagon": _polygon(6, 0.0),
    "octagon": _polygon(8, math.pi / 8),
    "star": _polygon(5, UP, 0.45),
    "cross": [  # a plus, arms 0.6 wide
        (0.3, -1),
        (0.3, -0.3),
        (1, -0.3),
        (1, 0.3),
        (0.3, 0.3),
        (0.3, 1),
        (-0.3, 1),
        (-0.3, 0.3),
        (-1, 0.3),
        (-1, -0.3),
        (-0.3, -0.3),
        (-0.3, -1),
    ],
}


def _heart(steps: int = 48) -> list[tuple[float, float]]:
    """The classic heart curve, its point down."""
    points = []
    for k in range(steps):
        t = 2 * math.pi * k / steps
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((x / 16, -y / 16))
    return points


def _shield(steps: int = 24) -> list[tuple[float, float]]:
    """A heater shield: a flat top, straight sides for 0.4 of its height, then sides
    curving in to a point at the foot."""
    right = [(1.0, -1.0), (1.0, -0.2)]
    for k in range(1, steps):
        u = k / steps
        right.append(((1 - u) * (1 + 0.6 * u), -0.2 + 1.2 * u))
    left = [(-x, y) for x, y in reversed(right)]
    return [(-1.0, -1.0), *right[:], (0.0, 1.0), *left[:-1]]


OUTLINES["heart"] = _heart()
OUTLINES["shield"] = _shield()
ROUND = ("circle", "ring")
NAMES = (*ROUND, *OUTLINES)


@cache
def named(name: str, size: int = 48) -> Shape:
    """A named shape's measures when drawn `size` pixels tall (drawn 4 times larger and
    shrunk, as a printed edge is smooth)."""
    if name not in NAMES:
        raise KeyError(name)
    big = 4 * max(8, size)
    image = Image.new("L", (big + 8, big + 8), 0)
    draw = ImageDraw.Draw(image)
    middle, radius = big / 2 + 4, big / 2
    if name in ROUND:
        draw.ellipse((4, 4, big + 4, big + 4), fill=255)
        if name == "ring":
            hole = radius * 0.45
            draw.ellipse((middle - hole, middle - hole, middle + hole, middle + hole), fill=0)
    else:
        points = OUTLINES[name]
        top = min(y for _, y in points)
        tall = max(y for _, y in points) - top
        wide = max(x for x, _ in points) - min(x for x, _ in points)
        scale = big / max(tall, wide)
        draw.polygon(
            [(middle + x * scale, 4 + (y - top) * scale) for x, y in points],
            fill=255,
        )
    small = image.resize((image.width // 4, image.height // 4), Image.Resampling.BOX)
    found = measure(np.asarray(small) > 127)
    assert found is not None
    return found


def nearest(shape: Shape, size: int) -> tuple[str, float]:
    """The named shape nearest a blob's, and how far it is."""
    size = max(8, min(96, size // 4 * 4))  # a few sizes drawn, not one per blob
    return min(((n, shape.distance(named(n, size))) for n in NAMES), key=lambda p: p[1])
