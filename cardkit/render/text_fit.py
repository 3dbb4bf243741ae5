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


# Bold and italic spans inside card text: these marks (from `<b>`, `<i>` in the data, see
# `styled`) switch the font; they take no room and wrap with the word they touch.
BOLD_ON, BOLD_OFF, ITALIC_ON, ITALIC_OFF = "\x02", "\x03", "\x04", "\x05"
STYLE = re.compile("([\x02-\x05])")
_HTML = {"<b>": BOLD_ON, "</b>": BOLD_OFF, "<i>": ITALIC_ON, "</i>": ITALIC_OFF}


def styled(text: str) -> str:
    """`<b>`/`<i>` spans as the painter's style marks; any other tag is dropped."""
    return re.sub(r"</?[a-z]+>", lambda m: _HTML.get(m[0].lower(), ""), text)


def plain(text: str) -> str:
    return STYLE.sub("", text)


def font_for(base: str, bold: bool, italic: bool) -> str:
    """The embedded face for a style: bold wins over italic (Vera has no bold italic here)."""
    from cardkit.render import fonts

    if bold:
        return fonts.BOLD
    if italic:
        return fonts.ITALIC
    return base


def spans(text: str, base: str, state: tuple[bool, bool] = (False, False)) -> list[tuple[str, str]]:
    """(chunk, font) pieces of `text`, from the style `state` (bold, italic) it starts in."""
    bold, italic = state
    found: list[tuple[str, str]] = []
    for part in STYLE.split(text):
        if part in (BOLD_ON, BOLD_OFF):
            bold = part == BOLD_ON
        elif part in (ITALIC_ON, ITALIC_OFF):
            italic = part == ITALIC_ON
        elif part:
            found.append((part, font_for(base, bold, italic)))
    return found


def end_state(text: str, state: tuple[bool, bool] = (False, False)) -> tuple[bool, bool]:
    bold, italic = state
    for mark in STYLE.findall(text):
        if mark in (BOLD_ON, BOLD_OFF):
            bold = mark == BOLD_ON
        else:
            italic = mark == ITALIC_ON
    return bold, italic


def _plain_width(text: str, font: str, size: float) -> float:
    icons = ICON.findall(text)
    if not icons:
        return float(_string_width(text, font, size))
    rest = ICON.sub("", text)
    return float(_string_width(rest, font, size)) + len(icons) * size * ICON_WIDTH


def stringWidth(text: str, font: str, size: float) -> float:
    """Width of `text`, counting each `{icon}` as one icon and bold/italic spans in
    their own font (a span's style is read from the marks inside `text`)."""
    if not STYLE.search(text):
        return _plain_width(text, font, size)
    return sum(_plain_width(chunk, face, size) for chunk, face in spans(text, font))


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
    state = (False, False)  # inside a bold or italic span, a word is as wide as it prints
    marked = STYLE.search(text) is not None
    for paragraph in text.split("\n"):
        current, used = "", 0.0
        for word in paragraph.split():
            if marked:
                w = sum(_plain_width(part, face, size) for part, face in spans(word, font, state))
                state = end_state(word, state)
            else:
                w = _plain_width(word, font, size)
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
