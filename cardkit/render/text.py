"""Text that fits its box: shrink the font until the wrapped lines fit width and height."""

from __future__ import annotations

from reportlab.lib.utils import simpleSplit


def fit(
    text: str, font: str, width: float, height: float, largest: float = 9.0, smallest: float = 4.5
) -> tuple[float, list[str]]:
    """The largest size (0.25 pt steps) at which `text` wraps into the box; else the smallest."""
    size = largest
    while True:
        lines = simpleSplit(text, font, size, width)
        if len(lines) * size * 1.18 <= height or size <= smallest:
            return size, lines
        size -= 0.25
