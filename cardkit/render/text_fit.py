"""Text that fits its box: wrap (breaking words longer than a line), shrink to a floor.

Past the floor nothing is dropped without a word: `fit` says how many lines did not
fit, and the painter marks the card and reports it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import stringWidth as _string_width

LEADING = 1.18
ICON = re.compile(r"\{([a-z][a-z0-9_-]*)\}")  # `{thug}` in card text prints the Thug icon
ICON_WIDTH = 1.15  # an inline icon is as wide as this many font sizes


def stringWidth(text: str, font: str, size: float) -> float:
    """Width of `text`, counting each `{icon}` as one icon."""
    icons = ICON.findall(text)
    if not icons:
        return float(_string_width(text, font, size))
    rest = ICON.sub("", text)
    return float(_string_width(rest, font, size)) + len(icons) * size * ICON_WIDTH


@dataclass(frozen=True)
class Fitted:
    size: float
    lines: list[str]
    shown: int  # how many of `lines` fit the box at `size`

    @property
    def cut(self) -> int:
        return len(self.lines) - self.shown


def _chop(word: str, font: str, size: float, width: float) -> list[str]:
    """A word wider than the line, in pieces that each fit."""
    pieces, current = [], ""
    for char in word:
        if current and stringWidth(current + char, font, size) > width:
            pieces.append(current)
            current = char
        else:
            current += char
    return [*pieces, current] if current else pieces


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy wrap on spaces (and hard line breaks); over-long words are broken."""
    lines: list[str] = []
    space = stringWidth(" ", font, size)
    for paragraph in text.split("\n"):
        current, used = "", 0.0
        for word in paragraph.split():
            w = stringWidth(word, font, size)
            if w > width:
                if current:
                    lines.append(current)
                *full, current = _chop(word, font, size, width)
                lines += full
                used = stringWidth(current, font, size)
            elif current and used + space + w > width:
                lines.append(current)
                current, used = word, w
            else:
                current, used = (
                    (f"{current} {word}" if current else word),
                    used + (space if current else 0) + w,
                )
        if current:
            lines.append(current)
    return lines


def fit(
    text: str, font: str, width: float, height: float, largest: float = 9.0, smallest: float = 4.5
) -> Fitted:
    """The largest size (0.25 pt steps) at which `text` wraps into the box; else the floor."""
    size = largest
    while True:
        lines = wrap(text, font, size, width)
        room = max(0, int((height + 1e-6) // (size * LEADING)))
        if len(lines) <= room or size <= smallest:
            return Fitted(size, lines, min(room, len(lines)))
        size = max(smallest, size - 0.25)
