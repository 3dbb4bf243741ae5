"""Headings printed on coloured tags or bands (a dark word on a lime tag, a white one on a
dark red band across the card), which tesseract's
layout analysis of a photo often loses whole: each tag is found as a mark (marks.py: a
patch of one strong colour with letters cut out of it) and read alone; a tag that reads
one of the kind's section headings, where no line read that heading, is added to the
lines as a line of its own, so the sections under it are found (sections.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import Image

from cardkit.ocr import marks, sections
from cardkit.ocr.boxes import overlaps
from cardkit.ocr.engine import OcrEngine, Word
from cardkit.ocr.page import Line

if TYPE_CHECKING:
    from cardkit.ocr.grammar import Kind

TAG_CONFIDENCE = 0.9  # a heading read alone on its tag, spelt as the grammar names it
TYPE_SHARE = 0.6  # a tag's word stands this share of the tag's height
TAG_AREA = 0.0007  # a heading's tag covers this share of the card at least (a BAM! ribbon)


def added(
    kind: Kind, lines: list[Line], card: Image.Image, engine: OcrEngine, key: str
) -> list[Line]:
    """The lines, with a line for each tag that reads a heading no line read (in reading
    order: by the tag's top); the lines as they are for a kind with no sections."""
    headings = sections.headings_of(kind)
    if not headings:
        return lines
    read = {found[0] for ln in lines if (found := sections.heading_of(ln.text, headings))}
    if read >= set(headings):
        return lines
    out = list(lines)
    # a heading's tag may be small and its word's letters run together on a photo
    tags = marks.find(card, engine, f"{key}/tags", widest=1.0, smallest=TAG_AREA, letters=2)
    for mark in tags:
        found = sections.heading_of(mark.text, headings)
        if found is None or found[1] or found[0] in read:
            continue
        letters = sum(c.isalpha() for c in mark.text)
        if letters < max(3, sum(c.isalpha() for c in found[0]) - 1):
            continue  # a piece of a word (`AM`) is no heading, however surely read
        if any(overlaps(mark.box, ln.box) for ln in lines):
            continue  # a line stands there already: its reading stands
        y, h = mark.box[1], mark.box[3]
        word = Word(found[0], TAG_CONFIDENCE, mark.box, 0)
        line = Line(found[0], TAG_CONFIDENCE, mark.box, TYPE_SHARE * h, (word,))
        at = next((n for n, ln in enumerate(out) if ln.box[1] > y), len(out))
        out.insert(at, line)
        read.add(found[0])
    return out
