"""Boxes on a card, as (x, y, width, height) in pixels: how two of them meet; and the runs
of a row of flags (the spans a mask's row or column is set along)."""

from __future__ import annotations

from typing import Any

import numpy as np

Box = tuple[int, int, int, int]


def shared_area(a: Box, b: Box) -> int:
    """The area two boxes share (0 when they only touch or lie apart)."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0


def overlaps(a: Box, b: Box) -> bool:
    return shared_area(a, b) > 0


def runs(flags: Any) -> list[tuple[int, int]]:
    """(start, stop) of each run of True in a 1-D array of flags."""
    padded = np.concatenate([[False], flags, [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True)]
