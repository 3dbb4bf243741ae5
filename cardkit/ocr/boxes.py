"""Boxes on a card, as (x, y, width, height) in pixels: how two of them meet."""

from __future__ import annotations

Box = tuple[int, int, int, int]


def shared_area(a: Box, b: Box) -> int:
    """The area two boxes share (0 when they only touch or lie apart)."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0


def overlaps(a: Box, b: Box) -> bool:
    return shared_area(a, b) > 0
