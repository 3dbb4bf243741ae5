"""Lengths from strings such as `3mm`, `0.125in`, `9pt`, in PostScript points."""

from __future__ import annotations

import re

from cardkit.errors import UsageError

POINTS_PER = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 72.0 / 2.54}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(pt|in|mm|cm)\s*$")


def points(text: str | float | int) -> float:
    """`3mm` -> 8.503...; a bare number is taken as points."""
    if isinstance(text, int | float):
        return float(text)
    match = _LENGTH.match(text)
    if match is None:
        raise UsageError(f"'{text}' is not a length; write it like 3mm, 0.125in or 9pt")
    return float(match[1]) * POINTS_PER[match[2]]


def pair(text: str) -> tuple[float, float]:
    """`0.5mm,-0.2mm` -> (x, y) in points."""
    parts = [p for p in text.split(",") if p.strip()]
    if len(parts) != 2:
        raise UsageError(f"'{text}' is not an offset; write it like 0.5mm,0mm")
    return points(parts[0]), points(parts[1])
