"""Words read from a raised small-caps line given back their printed case: a full capital
is an upper-case letter, a small capital a lower-case one (`THE BREAK-IN!` printed
T+HE B+REAK-I+N! is `The Break-In!`). See cardkit/ocr/smallcaps.py for the raising."""

from __future__ import annotations

import re
from dataclasses import replace

from cardkit.ocr.engine import Reading
from cardkit.ocr.smallcaps import Glyph


def recase(reading: Reading, glyphs: tuple[Glyph, ...], offset: int = 0) -> Reading:
    """Each word's letters in the case they were printed in. A word's glyphs are those
    centred in its box (the narrowest box when boxes overlap; `offset` is the margin added
    round the image). Where they are one per character and give each run of letters a
    plausible case (`Word`, `WORD`, `word`), letter by letter; otherwise the word as a
    whole: its first letter as its first glyph, the rest as most of its other glyphs."""
    if not glyphs:
        return reading
    owner: dict[int, list[Glyph]] = {}
    for glyph in glyphs:
        x = (glyph.left + glyph.right) / 2 + offset
        y = (glyph.top + glyph.bottom) / 2 + offset
        holding = [
            (word.box[2], n)
            for n, word in enumerate(reading.words)
            if 0 <= x - word.box[0] <= word.box[2] and 0 <= y - word.box[1] <= word.box[3]
        ]
        if holding:
            owner.setdefault(min(holding)[1], []).append(glyph)
    words = []
    for n, word in enumerate(reading.words):
        small = _characters(owner.get(n, []))
        text = word.text
        if small and any(c.isalpha() for c in text):
            text = _by_letter(text, small) or _by_word(text, small)
        words.append(replace(word, text=text))
    return Reading(tuple(words))


def _by_letter(text: str, small: list[bool]) -> str | None:
    if len(small) != len(text):
        return None
    cased = "".join(c.lower() if s else c.upper() for c, s in zip(text, small, strict=True))
    runs = re.findall(r"[^\W\d_]+", cased)
    if all(r.isupper() or r.islower() or (r[0].isupper() and r[1:].islower()) for r in runs):
        return cased
    return None


def _by_word(text: str, small: list[bool]) -> str:
    first = text[0].lower() if small[0] else text[0].upper()
    rest = small[1:]
    lower = sum(rest) * 2 > len(rest) if rest else small[0]
    return first + (text[1:].lower() if lower else text[1:].upper())


def _characters(glyphs: list[Glyph]) -> list[bool]:
    """Glyphs standing over each other (the dot over `!`) joined into one character; for
    each character, whether it was a small capital."""
    joined: list[list[Glyph]] = []
    for glyph in sorted(glyphs, key=lambda g: g.left):
        if joined:
            last = joined[-1]
            start, end = min(g.left for g in last), max(g.right for g in last)
            overlap = min(end, glyph.right) - max(start, glyph.left)
            if overlap > 0.5 * min(end - start, glyph.right - glyph.left):
                last.append(glyph)
                continue
        joined.append([glyph])
    return [all(g.small for g in group) for group in joined]
