"""Embedded fonts: Bitstream Vera, shipped inside reportlab, registered as TrueType.

A PDF that names Helvetica without embedding it is refused by many print shops;
every font a proof uses is one of these, embedded (subset) in the file.
"""

from __future__ import annotations

from functools import cache

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

REGULAR, BOLD, ITALIC = "CardkitSans", "CardkitSans-Bold", "CardkitSans-Oblique"
_FILES = {REGULAR: "Vera.ttf", BOLD: "VeraBd.ttf", ITALIC: "VeraIt.ttf"}


@cache
def register() -> None:
    """Register the family once per process (reportlab finds Vera on its own font path)."""
    for name, file in _FILES.items():
        pdfmetrics.registerFont(TTFont(name, file))


def missing_glyphs(text: str, font: str = REGULAR) -> str:
    """The characters of `text` the font cannot draw (they would print as boxes)."""
    register()
    face = pdfmetrics.getFont(font).face
    covered = face.charToGlyph
    seen: dict[str, None] = {}
    for char in text:
        if ord(char) not in covered and not char.isspace() and char not in seen:
            seen[char] = None
    return "".join(seen)
