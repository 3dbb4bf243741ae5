"""A card set in two columns (a Dashboard) read again column by column, when its grammar
reads headed sections (sections.py).

tesseract's layout analysis of a whole card now and then loses most of a column (on a
phone photo of a two-column card it kept the right column's first line only) or runs the
columns' lines together. Once the headings show where the columns stand, each column is
read alone (the strip from its left edge to the next column's, from the headings' top
down), as the page read reads a card (page.py: luminance, dark panels turned over); the
lines above the columns (the title) are kept. The grammar then reads the new lines, and
its reading stands when it holds more sections, or as many with a tenth more text.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from PIL import Image

from cardkit.ocr import page, sections
from cardkit.ocr.engine import OcrEngine

if TYPE_CHECKING:
    from cardkit.ocr.grammar import Reading


def _section_text(reading: Reading) -> tuple[int, int]:
    """How many headed sections the reading holds, and how much text in them."""
    fields = {
        str(target)
        for rule in reading.kind.rules
        if rule.how in sections.RULES
        for target in dict(rule.options.get("headings") or {}).values()
    }
    held = [len(str(v)) for k, v in reading.values.items() if k in fields]
    return len(held), sum(held)


def reread(reading: Reading, card: Image.Image, engine: OcrEngine, key: str) -> Reading:
    """The reading, or a better one from the card read column by column."""
    from cardkit.ocr import grammar

    targets = sections.headings_of(reading.kind)
    if not targets:
        return reading
    heads, columns = sections.layout(reading.lines, targets)
    if len(columns) < 2:
        return reading  # one column: the page read already reads it as one
    height = max(1, round(max(h.height for h in heads)))
    top = max(0, min(h.box[1] for h in heads) - height)
    lines = [ln for ln in reading.lines if ln.box[1] + ln.box[3] <= top]
    edges = [max(0, x - height) for x in columns] + [card.width]
    for number, (left, right) in enumerate(itertools.pairwise(edges)):
        strip = card.crop((left, top, right, card.height))
        read = page.read_page(strip, engine, f"{key}/column{number}")
        lines += [page.moved(line, left, top) for line in read]
    lines = page.reading_order(lines)
    again = grammar.read(reading.kind, lines, card.height)
    # the columns read alone stand when they hold more sections, or as many with a tenth
    # more text: the page read runs the columns' lines together (a heading lost in the
    # junk) or loses a column's lines; a few words more are a column's edge read twice
    (sections_again, text_again), (sections_first, text_first) = (
        _section_text(again),
        _section_text(reading),
    )
    if sections_again > sections_first:
        return again
    if sections_again == sections_first and text_again > 1.1 * text_first:
        return again
    return reading
