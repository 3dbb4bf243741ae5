"""The whole card read once, with layout: every line the engine finds, where it stands
and how sure it is. What no field claims is kept in the draft (`kept_text`), so a draft
never holds less than a plain `tesseract IMG -` of the same card.

The card is read as `tesseract IMG -` would read it, and again where that cannot see:
the places where light words stand on dark panels (light_text.py; on dark art full of
highlights, the box round every dark place) turned over, light text becoming dark ink; a
light card is not turned over. Line by line the surer reading is kept. (Reading only the
dark cells, the rest left white, was tried: tesseract's layout then lost white-on-colour
labels it reads on the whole card.)
A way up whose first read runs down the card is not read again (`first_read` /
`read_more`). cardkit's own proxy marks (the UNCONFIRMED band, a slot's `?` badge, the
sheet legend's words) are dropped: they are cardkit's, not the card's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import numpy as np
from PIL import Image

from cardkit.ocr import channels, fields, light_text, page_text
from cardkit.ocr.boxes import shared_area
from cardkit.ocr.engine import Mode, OcrEngine, Reading, Word

DARK_BACKGROUND = light_text.DARK_BACKGROUND  # a background darker than this is a dark panel
PANEL_CELL = light_text.PANEL_CELL
dark_box = light_text.dark_box  # the box round the card's dark places (light_text.py)
LONGEST_SIDE = 2400  # a larger card is read at this size (tesseract's time grows with area)
SMALL_SIDE, UPSCALE = 800, 2.0  # a card shorter than this (px) is read this much larger
LARGE = 1200  # a card this many pixels long is read once more at half size
FEW_WORDS = 8  # a first read with fewer words than this is read once more, in colour
TURNED_CONFIDENCE = 0.7  # a line read only turned over must read this surely
LEAST_CONFIDENCE = 0.35  # a line read less surely than this, with few letters, is art
BULLET_LIKE = {"•", "¢", "e¢", "«", "»", "·"}  # a line's first mark: a bullet as read
BAR_LIKE = {"|", "{", "}", "[", "]"}  # a lone one between words: the digit 1 of a body font
ICON_HEIGHT = 1.6  # a word this many times the line's median height is an inline icon
APART_HEIGHT = 2.5  # ... and at a line's end one this much taller is no word of the line
NUMBER_APART = 1.5  # a lone number this many heights of the next word before it: its own


@dataclass(frozen=True)
class Line:
    text: str
    confidence: float
    box: tuple[int, int, int, int]  # left, top, width, height on the upright card
    height: float  # median word height in card pixels: the type's size
    # the line's words, boxes in card pixels: a line tesseract ran across two columns is
    # split at its gutter by the readers that need columns (sections.py)
    words: tuple[Word, ...] = field(default=(), compare=False)

    @property
    def centre(self) -> tuple[float, float]:
        return self.box[0] + self.box[2] / 2, self.box[1] + self.box[3] / 2


def _scaled(image: Image.Image, card: Image.Image | None = None) -> tuple[Image.Image, float]:
    """The image at the size it is read at, and the scale: a large card smaller (tesseract's
    time grows with area), a small one (a card scanned at 150 dpi, its type a dozen pixels
    high) twice as large (tesseract misreads small type, and misses short labels)."""
    longest = max((card or image).size)
    scale = min(1.0, LONGEST_SIDE / longest)
    if longest < SMALL_SIDE:
        scale = UPSCALE
    if scale != 1.0:
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        image = image.resize(size, Image.Resampling.LANCZOS)
    return image, scale


def lines_of(reading: Reading, scale: float = 1.0) -> list[Line]:
    """The reading's lines in reading order, noise words dropped, boxes in card pixels."""
    out = []
    for words in reading.lines:
        # a lone `|` between words is a digit 1 in many body fonts: kept as read, not dropped
        # (a 1 with a flag and a foot reads as `{` or `[` too: kept as the `|` it stands for)
        words = [_bar(words, n) for n in range(len(words))]
        if len(words) > 1 and words[0].text in BULLET_LIKE:  # a bullet line's bullet
            words[0] = Word("•", words[0].confidence, words[0].box, words[0].line)
        kept = [
            w
            for w in words
            if not fields.noise(w.text, w.confidence) or (w.text == "|" and len(words) > 2)
        ]
        for part in _apart(kept):
            line = _line_read(part, scale)
            if line is not None:
                out.append(line)
    return out


def _apart(words: list[Word]) -> list[list[Word]]:
    """A line's words, with a word at its start or end that stands far taller than the
    rest (APART_HEIGHT: an inline icon stands less tall) and clear of them as a line of
    its own: a number on a disc beside a title (`2) Knull 6` is `2)`, then `Knull 6`);
    and a lone number at its start standing further than NUMBER_APART heights of the
    next word from it (a Health on a badge left of a threat's name: `5`, then
    `Moonstone`; words of a name or a sentence stand a third of a height apart)."""
    if len(words) < 2:
        return [words] if words else []
    for at, rest, gap in ((0, words[1:], 0), (-1, words[:-1], -1)):
        heights = sorted(w.box[3] for w in rest)
        typed = heights[len(heights) // 2]
        lone, near = words[at], rest[gap]
        apart = (
            near.box[0] - (lone.box[0] + lone.box[2])
            if at == 0
            else lone.box[0] - (near.box[0] + near.box[2])
        )
        if lone.box[3] > APART_HEIGHT * typed and apart > 0:
            return [[lone], rest] if at == 0 else [rest, [lone]]
    first, second = words[0], words[1]
    if (
        re.fullmatch(r"\d{1,2}", first.text)
        and sum(c.isalpha() for c in second.text) >= 3
        and second.box[0] - (first.box[0] + first.box[2]) > NUMBER_APART * second.box[3]
    ):
        return [[first], words[1:]]
    return [words]


def _line_read(kept: list[Word], scale: float) -> Line | None:
    """One line of the engine's words (scaled back to the card), or None: a mark of
    cardkit's own, or a few unsure marks (art, an icon)."""
    text = " ".join(w.text for w in kept).strip()
    if not text or page_text.is_proxy_mark(text):
        return None
    letters = sum(c.isalnum() for c in text)
    confidence = words_confidence(kept)
    if confidence < LEAST_CONFIDENCE and letters < 8:
        return None
    heights = sorted(w.box[3] for w in kept)
    # the box round the line's type: an inline icon read as a word stands taller, and
    # would make the line seem to cover the line above it (a later read then drops it)
    typed = [w for w in kept if w.box[3] <= ICON_HEIGHT * heights[len(heights) // 2]]
    left = min(w.box[0] for w in kept)
    top = min(w.box[1] for w in typed)
    right = max(w.box[0] + w.box[2] for w in kept)
    bottom = max(w.box[1] + w.box[3] for w in typed)
    box = (
        round(left / scale),
        round(top / scale),
        round((right - left) / scale),
        round((bottom - top) / scale),
    )
    placed = tuple(replace(w, box=_in_card(w.box, scale)) for w in kept)
    return Line(text, confidence, box, heights[len(heights) // 2] / scale, placed)


def moved(line: Line, dx: int, dy: int) -> Line:
    """`line` and its words moved by (dx, dy): read in a crop, placed on the card."""
    x, y, w, h = line.box
    words = tuple(replace(word, box=_in_card(word.box, 1.0, (dx, dy))) for word in line.words)
    return Line(line.text, line.confidence, (x + dx, y + dy, w, h), line.height, words)


def _in_card(
    box: tuple[int, int, int, int], scale: float, offset: tuple[int, int] = (0, 0)
) -> tuple[int, int, int, int]:
    x, y, w, h = box
    return (
        round(x / scale) + offset[0],
        round(y / scale) + offset[1],
        round(w / scale),
        round(h / scale),
    )


def _bar(words: tuple[Word, ...] | list[Word], n: int) -> Word:
    """Word `n`, a lone bracket between two words (not after a number: `1 [icon]`) read as
    the `|` a body font's digit 1 is read as."""
    word = words[n]
    if word.text not in BAR_LIKE or n == 0 or n == len(words) - 1:
        return word
    before, after = words[n - 1].text, words[n + 1].text
    if not before[-1:].isalpha() or not after[:1].isalpha():
        return word
    return Word("|", word.confidence, word.box, word.line)


def words_confidence(words: list[Word]) -> float:
    total = sum(len(w.text) for w in words)
    return sum(w.confidence * len(w.text) for w in words) / total if total else 0.0


def worth(lines: list[Line]) -> float:
    return sum(line.confidence * sum(c.isalnum() for c in line.text) for line in lines)


def read_page(card: Image.Image, engine: OcrEngine, key: str) -> list[Line]:
    """Every line on the card, read with the engine's own layout analysis as `tesseract
    IMG -` reads it (in luminance), and again where a first read cannot see: light text
    on dark panels turned over (dark ink on paper), in colour when the first read finds
    next to nothing (tesseract's layout analysis sometimes takes a whole card for a
    picture), and a large card at half size, where display type (a name banner) reads
    better. Lines in reading order (top to bottom)."""
    return read_more(card, engine, key, first_read(card, engine, key))


def first_read(card: Image.Image, engine: OcrEngine, key: str) -> list[Line]:
    """The card read in luminance, and in colour when that finds next to nothing: enough
    to tell which way up a card stands (`read_more` adds what only other reads see)."""
    rgb = card.convert("RGB")
    image, scale = _scaled(rgb.convert("L"))  # luminance, as the tesseract command greys it
    lines = lines_of(engine.read(image, "auto", key=f"{key}/page"), scale)
    if _words(lines) < FEW_WORDS:
        lines = _merged(lines, engine, _scaled(rgb)[0], f"{key}/page-colour", scale)
    if _words(lines) < FEW_WORDS:
        # a card of next to no words (a title, a Move and a diagram): tesseract's layout
        # analysis may find no block of text on it at all; sparse text finds each word
        lines = _merged(lines, engine, image, f"{key}/page-sparse", scale, mode="sparse")
    return lines


def _words(lines: list[Line]) -> int:
    return sum(len(line.text.split()) for line in lines)


def read_more(card: Image.Image, engine: OcrEngine, key: str, lines: list[Line]) -> list[Line]:
    """`lines` (a first read) with what the other reads see: light text on dark panels
    turned over, where the card has any, and a large card at half size. A line from a later
    read joins where no line stands, or replaces the lines it covers when it reads surer."""
    rgb = card.convert("RGB")
    array = np.asarray(rgb)
    # turned over where light words stand on dark places (light_text.py), at full size:
    # at half size a large card's turned-over read cost half as much, but lost titles
    # in banners that the full-size read gives (real Marvel United locations)
    # a large card (a real location, 1,600 px of dark art) is turned over in its whole dark
    # box as before: read by places, one lost its rules text box (not found out why in time)
    if max(card.size) >= LARGE:
        whole = light_text.dark_box(array)
        places = [whole] if whole is not None else []
    else:
        places = light_text.places(array)
    for index, (left, top, right, bottom) in enumerate(places):
        turned = Image.fromarray(255 - channels.brightest(array[top:bottom, left:right]))
        turned, scale = _scaled(turned, card)
        name = f"{key}/page-inverted" + (f"-{index}" if index else "")
        lines = _merged(lines, engine, turned, name, scale, (left, top))
    from cardkit.ocr import bar_lines  # it reads lines as this module does

    lines = bar_lines.with_bars(card, array, engine, key, lines)
    if max(card.size) >= LARGE:  # display type (a name banner) reads better at half size
        half = Image.fromarray(channels.darkest(array))
        half = half.resize((max(1, half.width // 2), max(1, half.height // 2)))
        lines = _merged(lines, engine, half, f"{key}/page-half", 0.5)
    return reading_order(_without_frame_marks(lines))


def reading_order(lines: list[Line]) -> list[Line]:
    """Top to bottom, and left to right along a row: a line is on the row of the row's
    first line when each one's middle stands inside the other's height (a tag read apart
    from the words after it may sit a pixel lower than they do; a tall mark read down the
    card's edge holds the middles of lines of a paragraph, not they its)."""

    def within(line: Line, other: Line) -> bool:
        return other.box[1] <= line.centre[1] <= other.box[1] + other.box[3]

    out: list[Line] = []
    row: list[Line] = []
    for line in sorted(lines, key=lambda ln: (ln.centre[1], ln.box[0])):
        if row and not (within(line, row[0]) and within(row[0], line)):
            out += sorted(row, key=lambda ln: ln.box[0])
            row = []
        row.append(line)
    return out + sorted(row, key=lambda ln: ln.box[0])


FRAME_MARK = re.compile(r"[|Il1\[\](){}!]{1,2}")  # a text box's edge read as a first word


def _without_frame_marks(lines: list[Line]) -> list[Line]:
    """Lines without a first word that is a text box's edge: a bar or bracket (`|`,
    `I)`) standing left of a left-aligned block, so that the line without it starts where
    two or more lines round it start (within half a letter's height), or one of a column
    of such marks (`_stacked`). In centred text, or at the block's margin (an `I`, a
    `1 card`), a first word is the line's own."""
    out = []
    for line in lines:
        first, _, rest = line.text.partition(" ")
        if not rest or not FRAME_MARK.fullmatch(first):
            out.append(line)
            continue
        x, y, w, h = line.box
        cut = round(w * (len(first) + 1) / len(line.text))
        slack = 0.5 * line.height
        aligned = [
            other
            for other in lines
            if other is not line
            and abs(other.centre[1] - line.centre[1]) <= 4 * line.height
            and abs(other.box[0] - (x + cut)) <= slack
        ]
        framed = len(aligned) >= 2 and x < min(o.box[0] for o in aligned) - slack
        if not framed and not _stacked(line, first, lines):
            out.append(line)
            continue
        out.append(Line(rest, line.confidence, (x + cut, y, w - cut, h), line.height))
    return out


def _stacked(line: Line, first: str, lines: list[Line]) -> bool:
    """The line's first mark (no letter or digit: `|`, `[`) stands in a column of such
    marks opening two lines or more round it, at its left edge: a rule down the card's
    side read line by line, whatever the lines after it start with (a tag, indented)."""
    if any(c.isalnum() for c in first):
        return False
    column = [
        other
        for other in lines
        if other is not line
        and other.text.partition(" ")[0] == first
        and abs(other.box[0] - line.box[0]) <= 0.5 * line.height
        and abs(other.centre[1] - line.centre[1]) <= 4 * line.height
    ]
    return len(column) >= 2


def _merged(
    lines: list[Line],
    engine: OcrEngine,
    image: Image.Image,
    key: str,
    at: float,
    offset: tuple[int, int] = (0, 0),
    mode: Mode = "auto",
) -> list[Line]:
    for line in lines_of(engine.read(image, mode, key=key), at):
        if offset != (0, 0):
            line = moved(line, *offset)
        covered = [old for old in lines if _overlap(line.box, old.box) > 0.5]
        if covered and worth([line]) <= worth(covered) * 1.1:
            continue
        if not covered and line.confidence < TURNED_CONFIDENCE:
            continue  # dark art turned over reads as junk
        lines = [old for old in lines if old not in covered] + [line]
    return lines


def stands_upright(lines: list[Line]) -> bool:
    """Most lines run across the card (wider than tall): the card is read upright."""
    if not lines:
        return False
    across = sum(line.box[2] > line.box[3] for line in lines)
    return across >= 0.7 * len(lines)


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    """The shared area as a share of the smaller box."""
    return shared_area(a, b) / max(1, min(a[2] * a[3], b[2] * b[3]))
