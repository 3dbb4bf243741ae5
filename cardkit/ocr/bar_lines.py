"""The words of each heading bar or tag (bars.py) read into the whole-card read's lines: the
bar turned over and read as one line, a line run from its words into what stands beside
it cut in two, and the words beside it on its row read again alone when the whole-row read
garbled them (docs/ocr.md, "Heading bars")."""

from __future__ import annotations

from typing import Any

from PIL import Image

from cardkit.ocr import bars, page_text
from cardkit.ocr.boxes import shared_area
from cardkit.ocr.engine import OcrEngine, Word
from cardkit.ocr.page import (
    DARK_BACKGROUND,
    TURNED_CONFIDENCE,
    Line,
    lines_of,
    moved,
    words_confidence,
    worth,
)


def with_bars(
    card: Image.Image, array: Any, engine: OcrEngine, key: str, lines: list[Line]
) -> list[Line]:
    """`lines` with the words of each heading bar (bars.py), the bar turned over and read
    as one line: it replaces the lines read wholly inside the bar when it reads as much,
    more surely."""

    def inside(line: Line, box: tuple[int, int, int, int], share: float = 0.9) -> bool:
        return shared_area(line.box, box) >= share * max(1, line.box[2] * line.box[3])

    def touches(line: Line, box: tuple[int, int, int, int]) -> bool:
        return inside(line, box, 0.3)

    for index, bar in enumerate(bars.find(card, DARK_BACKGROUND)):
        # a line run from the bar's words into what stands beside it (a large Move value)
        # is two lines: the bar's words, and the rest
        split = [part for ln in lines for part in _split_at(ln, bar.box)]
        if split != lines:
            split = [beside(card, engine, f"{key}/beside-{index}", ln, bar.box) for ln in split]
        lines = split
        image, (left, top) = bar.turned_over(array)
        reading = engine.read(image, "line", key=f"{key}/bar-{index}")
        for line in lines_of(reading, bar.scale()):
            if not _wordlike(line):
                continue
            if any(
                page_text.words_of(ln.text) == page_text.words_of(line.text)
                for ln in lines
                if touches(ln, bar.box)
            ):
                continue  # read already, where the bar stands (a tilted photo's box is loose)
            within = [ln for ln in lines if inside(ln, bar.box)]
            surest = max((ln.confidence for ln in within), default=0.0)
            if within and (line.confidence <= surest + 0.05 or worth(within) > worth([line])):
                continue  # the page read read the bar's words as well or better
            lines = [ln for ln in lines if ln not in within]
            lines.append(moved(line, left, top))
    return lines


def beside(
    card: Image.Image, engine: OcrEngine, key: str, line: Line, bar: tuple[int, int, int, int]
) -> Line:
    """`line`, or its words read again alone when it stands beside the bar on its row and
    was read unsurely: tesseract binarises a row as one, and a saturated tag (white words
    on magenta) run into a sentence garbles the sentence's first words."""
    x, y, w, h = line.box
    row = min(y + h, bar[1] + bar[3]) - max(y, bar[1]) >= 0.5 * min(h, bar[3])
    if line.confidence >= TURNED_CONFIDENCE or not row or shared_area(line.box, bar):
        return line
    pad = max(2, h // 3)
    left, top = max(0, x - pad), max(0, y - pad)
    crop = card.convert("L").crop((left, top, min(card.width, x + w + pad), y + h + pad))
    for again in lines_of(engine.read(crop, "line", key=key)):
        if again.confidence > line.confidence and _wordlike(again):
            return moved(again, left, top)
    return line


def _split_at(line: Line, box: tuple[int, int, int, int]) -> list[Line]:
    """The line cut into its words whose middles stand inside `box`, those before it and
    those after it, when it has more than one of these (else the line itself). A part
    beside the bar with no letter or digit (`|`: the card's frame line) is dropped."""
    x, y, w, h = box

    def within(word: Word) -> bool:
        cx, cy = word.box[0] + word.box[2] / 2, word.box[1] + word.box[3] / 2
        return x <= cx <= x + w and y <= cy <= y + h

    _, ly, _, lh = line.box
    if min(ly + lh, y + h) - max(ly, y) < 0.5 * min(lh, h):
        return [line]  # not on the bar's row
    inside = [wd for wd in line.words if within(wd)]
    before = [wd for wd in line.words if not within(wd) and wd.box[0] + wd.box[2] / 2 < x]
    after = [wd for wd in line.words if not within(wd) and wd not in before]
    parts = [part for part in (before, inside, after) if part]
    if len(parts) < 2:
        return [line]
    return [
        _line_of(part)
        for part in parts
        if part is inside or any(c.isalnum() for wd in part for c in wd.text)
    ]


def _line_of(words: list[Word]) -> Line:
    """A line made of these words (their boxes on the card)."""
    left, top = min(w.box[0] for w in words), min(w.box[1] for w in words)
    right = max(w.box[0] + w.box[2] for w in words)
    bottom = max(w.box[1] + w.box[3] for w in words)
    heights = sorted(w.box[3] for w in words)
    text = " ".join(w.text for w in words)
    box = (left, top, right - left, bottom - top)
    return Line(text, words_confidence(words), box, float(heights[len(heights) // 2]), tuple(words))


def _wordlike(line: Line) -> bool:
    """A bar's line read surely, or made of letters (a bar holds a heading, not art:
    tesseract reads `Overflow` right at 0.18 on its ligature)."""
    letters = sum(c.isalpha() for c in line.text)
    shown = sum(not c.isspace() for c in line.text)
    if line.confidence >= TURNED_CONFIDENCE:
        return letters >= 2
    return letters >= 3 and letters >= 0.8 * shown
