"""A villain's stage mark (I, II, III, IV, A, B, B1...): white italic glyphs in a dark box.

Cut out of the box's fill and sheared upright (`ocr._mark_glyphs`), a letter-and-digit
stage (`B2`) reads well; a Roman numeral does not: its I's are plain bars, which tesseract
reads as one `I` or nothing at all. Bars are counted then: a numeral of bars only (I, II,
III) is as many I's as there are tall narrow glyphs. A count is not a read, so it is
trusted at COUNTED: the stage stays unconfirmed, with its gap note.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from PIL import Image

from cardkit.ocr import fields, layout

STAGE = re.compile(r"I{1,3}|IV|V|[AB][1-4]?|[1-4][AB]?")  # what a villain's stage box prints
READ_SURE = 0.5  # a read of the glyphs at least this sure is taken as read
COUNTED = 0.6  # the trust of a numeral told by counting its bars (under any threshold)
BAR = 0.45  # a bar is at most this wide for its height (a V or a digit is wider)


def read_stage(crop: Image.Image, region: layout.Region, context: layout.ReadContext) -> Any:
    from cardkit.games.marvel_champions import ocr

    least = float(region.options.get("least", 0.75))
    best = fields.FieldRead(region.field, None, 0.0)
    for height in ocr.MARK_HEIGHTS:  # the surer of two sizes (as the scheme's marks are read)
        glyphs = ocr._mark_glyphs(crop, least, height)
        key = f"{context.key}@stage{height}"
        reading = context.engine.read(
            Image.fromarray(glyphs), "line", key=key, whitelist="IVAB1234"
        )
        text = re.sub(r"[^IVAB1-4]", "", reading.text)
        if STAGE.fullmatch(text) and reading.confidence > max(best.confidence, READ_SURE):
            best = fields.FieldRead(region.field, text, reading.confidence, reading.text)
    if best.value is not None:
        return best
    glyphs = ocr._mark_glyphs(crop, least, ocr.MARK_HEIGHTS[0])
    bars = count_bars(glyphs)
    if 1 <= bars <= 3:
        return fields.FieldRead(region.field, "I" * bars, COUNTED, f"{bars} bars")
    return best


def count_bars(glyphs: np.ndarray[Any, Any]) -> int:
    """How many glyphs (black on white) are upright bars; 0 when any glyph is not one."""
    import cv2

    ink = (glyphs < 128).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    parts = [s for s in stats[1:count] if s[4] > 0.002 * ink.size]  # specks left out
    if not parts:
        return 0
    tallest = max(int(s[3]) for s in parts)
    if any(s[3] < 0.75 * tallest or s[2] > BAR * s[3] for s in parts):
        return 0
    return len(parts)
