"""What a line of the page read is, for the grammar's rules: rules text, icons or a
diagram read as letters, a sentence's end on a line of its own, a sentence at all."""

from __future__ import annotations

import re

from cardkit.ocr.page import Line

PICTURE, PICTURE_SURE = 2.5, 0.85  # a line this much taller than the text, this unsure, is art
GLYPH_TALLER, GLYPH_LETTERS = 1.5, 3  # ... and a lone word this short, this much taller
SENTENCE = re.compile(r"[a-z]{3}\.\s+\S")  # "Blast. Move ...": a full stop, then more words


def icon_letters(text: str) -> bool:
    """A few letters with no vowel and no digit (`IL.`, `Vv`): icons read as letters, not
    a word of rules text (`1 damage.` and `Location.` are)."""
    letters = [c for c in text if c.isalpha()]
    if letters == ["I"]:
        return False  # the word I
    return (
        len(letters) <= 3
        and not any(c.isdigit() for c in text)
        and not any(c in "aeiouyAEOUY" for c in letters)  # a capital I beside an L is a bar
    )


def ends_sentence(lines: list[Line], i: int, text: str) -> bool:
    """The line ends a sentence the line before it left open (`activates their`, then
    `BAM!.`): its words are that sentence's."""
    before = lines[i - 1].text.rstrip() if i > 0 else ""
    return text.rstrip().endswith(".") and before[-1:].isalpha() and before[-1:].islower()


def inside(line: Line, boxes: list[tuple[int, ...]]) -> bool:
    """The line's middle lies inside one of the boxes (left, top, right, bottom): a slot
    of the placement diagram, whose icons tesseract reads as letters (`QO`)."""
    x, y = line.box[0] + line.box[2] / 2, line.box[1] + line.box[3] / 2
    return any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes)


def pictured(line: Line, usual: float) -> bool:
    """A line of type far taller than the text's, read unsurely: icons or a diagram read
    as letters (`| a lleall a |`), kept as read, not made rules text."""
    if line.height > PICTURE * usual and line.confidence < PICTURE_SURE:
        return True
    # a lone short word well taller than the text, read unsurely: a large glyph read as
    # letters (a Move's `*` on its pennant read `bad`), no word of the rules text
    if (
        len(line.text.split()) == 1
        and sum(c.isalnum() for c in line.text) <= GLYPH_LETTERS
        and line.height > GLYPH_TALLER * usual
        and line.confidence < PICTURE_SURE
    ):
        return True
    # a row of icons read as lone letters (`A A A`, `N 2`): no line of words is made so
    words = line.text.split()
    lone = sum(1 for w in words if len(re.sub(r"[^A-Za-z0-9]", "", w)) <= 1)
    if len(words) == 1 and lone == 1:
        return True  # one mark alone on a line (`O`, `|`, `1`): an icon, not rules text
    return len(words) >= 2 and lone >= max(2, 0.6 * len(words))
