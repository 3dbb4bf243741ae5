"""Large printed numbers found by shape and read alone: a table of numbers (a Dashboard's
player-count table) and a lone value by its label (a threat's Health), grammar rules read
from the card's image after its lines (`how: table`, `how: number`).

tesseract's layout analysis often takes a ruled or boxed table, or a digit in a coloured
badge, for a picture and reads nothing there. Here the card is cut into ink against its
own surroundings both ways (dark on light and light on dark: a white digit on a teal cell,
a dark one on a yellow cell), and a glyph is a connected part of that ink taller than the
rules text (1.3 to 6 type heights), shaped like a digit, standing clear of every line the
page read. Glyphs side by side at one height are one number (`10`). Each number is read
on its own, black on white, glyph by glyph as one character each (else as one word), at three
sizes: read the same each time, it keeps its confidence; else the reads' majority is
doubted (at most DOUBTED) and stays unconfirmed.

    fields:
      dashboard/player_count: {how: table, heads: [2, 3, 4], key: heroes}
      card/health: {how: number, label: Health}

`table` (number_tables.py): the numbers `heads` (the Hero counts every table prints) in
a row or a column, each with its value below it (a row) or beside it (a column):
`{heroes: {'2': 5, ...}}`.
A head with no value under it is `None` (printed blank); where the page read the table as
text (`Heroes 2 3 4` over `Health 10 12 13`) those rows are read too, and the reading
with more values stands. `number`: the largest number by
the label when the page read it, else the largest lone number on the card (doubted).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from PIL import Image

from cardkit.ocr import fields
from cardkit.ocr.boxes import overlaps
from cardkit.ocr.engine import OcrEngine
from cardkit.ocr.number_tables import Number, better, read_numbers, table, table_in_lines

if TYPE_CHECKING:
    from cardkit.ocr.grammar import Reading
    from cardkit.ocr.page import Line

RULES = ("table", "number")
SHORTEST, TALLEST = 0.9, 6.0  # a glyph's height in the rules text's type heights
DOUBTED = 0.5  # the most a number read two ways, or found without its label, is trusted
READ_HEIGHTS = (32, 44, 56)  # a number is read at these glyph heights
LONE = 0.7  # a number with no label by it is written only when read this surely
CONTRAST = 40  # ink differs from its surroundings by this many grey levels


def _body_height(lines: list[Line]) -> float:
    heights = sorted(ln.height for ln in lines if sum(c.isalpha() for c in ln.text) >= 3)
    return heights[len(heights) // 2] if heights else 20.0


def _wordy(line: Line) -> bool:
    letters = sum(c.isalpha() for c in line.text)
    return letters >= 3 and (line.confidence >= 0.7 or letters >= 8)


def _masks(card: Image.Image, type_height: float) -> list[np.ndarray[Any, Any]]:
    """Ink darker than its surroundings, and ink lighter than them."""
    import cv2

    grey = np.asarray(card.convert("L"), dtype=np.int16)
    size = int(type_height * 4) | 1
    around = cv2.blur(grey.astype(np.uint8), (size, size)).astype(np.int16)
    return [
        _unruled((around - grey) > CONTRAST, type_height),
        _unruled((grey - around) > CONTRAST, type_height),
    ]


def _unruled(mask: np.ndarray[Any, Any], type_height: float) -> np.ndarray[Any, Any]:
    """The mask without its long straight rules (a table's grid): a digit touching a
    rule is a part of its own."""
    import cv2

    ink: Any = mask.astype(np.uint8)
    length = max(8, round(2.5 * type_height))
    across = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    down = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    return np.asarray(mask & ~(across > 0) & ~(down > 0))


def _glyphs(
    mask: np.ndarray[Any, Any], type_height: float, words: list[tuple[int, int, int, int]]
) -> list[tuple[int, int, int, int]]:
    import cv2

    image: Any = mask.astype(np.uint8)
    _, _labels, stats, _ = cv2.connectedComponentsWithStats(image, connectivity=8)
    # the size and fill tests on every piece at once (the ground, label 0, is none)
    x, y, w, h, area = (stats[1:, k].astype(np.int64) for k in range(5))
    aspect = w / h
    sized = (SHORTEST * type_height <= h) & (h <= TALLEST * type_height)
    shaped = (aspect >= 0.25) & (aspect <= 1.0) & (area >= 0.12 * w * h) & (area <= 0.75 * w * h)
    out = []
    for i in np.flatnonzero(sized & shaped):
        box = (int(x[i]), int(y[i]), int(w[i]), int(h[i]))
        if not any(overlaps(box, word) for word in words):
            out.append(box)
    return out


def _grouped(glyphs: list[tuple[int, int, int, int]]) -> list[list[tuple[int, int, int, int]]]:
    """Glyphs side by side at one height (the digits of one number), left to right."""
    groups: list[list[tuple[int, int, int, int]]] = []
    for glyph in sorted(glyphs):
        x, y, _w, h = glyph
        for group in groups:
            last = group[-1]
            near = x - (last[0] + last[2]) < 0.6 * h and x > last[0]
            level = abs(y - last[1]) < 0.3 * h and abs(h - last[3]) < 0.3 * h
            if near and level:
                group.append(glyph)
                break
        else:
            groups.append([glyph])
    return groups


def find(
    card: Image.Image,
    lines: list[Line],
    engine: OcrEngine,
    key: str,
    type_height: float | None = None,
    window: tuple[int, int, int, int] | None = None,
) -> list[Number]:
    """Every large number standing clear of the page's lines, read alone: glyphs taller
    than the rules text's type (or `type_height`), within `window` (left, top, right,
    bottom) when given."""
    type_height = type_height or _body_height(lines)
    # lines of words stand where no number is looked for (specks read as `Ecc` do not)
    words = [ln.box for ln in lines if _wordy(ln)]
    found: list[Number] = []
    for polarity, mask in enumerate(_masks(card, type_height)):
        for index, group in enumerate(_grouped(_glyphs(mask, type_height, words))):
            left = min(g[0] for g in group)
            top = min(g[1] for g in group)
            right = max(g[0] + g[2] for g in group)
            bottom = max(g[1] + g[3] for g in group)
            box = (left, top, right - left, bottom - top)
            if window and not (window[0] <= left and right <= window[2]):
                continue
            if window and not (window[1] <= top and bottom <= window[3]):
                continue
            text, sure = _read_group(mask, group, box, engine, f"{key}/number{polarity}.{index}")
            if text:
                found.append(Number(box, text, sure))
    # where the two ways overlap (the ground inside a white digit is dark ink too), the
    # surer read is the number
    kept: list[Number] = []
    for number in sorted(found, key=lambda n: -n.confidence):
        if not any(overlaps(number.box, k.box) for k in kept):
            kept.append(number)
    return kept


def _read_group(
    mask: np.ndarray[Any, Any],
    group: list[tuple[int, int, int, int]],
    box: tuple[int, int, int, int],
    engine: OcrEngine,
    key: str,
) -> tuple[str, float]:
    """A number read glyph by glyph, each as one character (as one word, `11` reads as
    `1` and a lone bold `4` as nothing), else as one word."""
    reads = [_read(mask, g, engine, f"{key}.{n}", "char") for n, g in enumerate(group)]
    if all(len(text) == 1 for text, _ in reads):
        return "".join(t for t, _ in reads), min(c for _, c in reads)
    return _read(mask, box, engine, key)


def _read(
    mask: np.ndarray[Any, Any],
    box: tuple[int, int, int, int],
    engine: OcrEngine,
    key: str,
    mode: Literal["word", "char"] = "word",
) -> tuple[str, float]:
    """The number's ink alone, black on white, read at each of READ_HEIGHTS."""
    x, y, w, h = box
    ink = mask[y : y + h, x : x + w]
    reads = []
    for size, height in enumerate(READ_HEIGHTS):
        scale = height / h
        glyph = Image.fromarray(np.where(ink, 0, 255).astype(np.uint8))
        glyph = glyph.resize((max(1, round(w * scale)), height), Image.Resampling.LANCZOS)
        margin = height // 2
        page = Image.new("L", (glyph.width + 2 * margin, height + 2 * margin), 255)
        page.paste(glyph, (margin, margin))
        read = engine.read(page, mode, key=f"{key}@{size}", whitelist="0123456789")
        reads.append((read.text.strip(), read.confidence))
    texts = {t for t, _ in reads}
    if len(texts) != 1 or not next(iter(texts)).isdigit():
        digits = [t for t, _ in reads if t.isdigit()]
        if not digits:
            return "", 0.0
        # the reads' majority, doubted; a tie goes to the surest read (not to the order of
        # a set, which changes with Python's string hashing from run to run)
        surest = {t: max(c for r, c in reads if r == t) for t in digits}
        most = max(sorted(surest), key=lambda t: (digits.count(t), surest[t]))
        return most, min(DOUBTED, max(c for t, c in reads if t == most))
    return reads[0][0], min(c for _, c in reads)


def _used_up(reading: Reading, lines: list[Line], number: Number) -> None:
    """A line of its own the page read where the number stands (`5` on a badge beside a
    threat's name) is the value now, no longer kept text."""
    for line in lines:
        if (
            line.text == number.text
            and overlaps(line.box, number.box)
            and line.text in reading.kept
        ):
            reading.kept.remove(line.text)
            return


def refine(reading: Reading, card: Image.Image, engine: OcrEngine, key: str) -> None:
    """The reading's `table` and `number` fields, from the card's image."""
    rules = [
        r
        for r in reading.kind.rules
        if r.how == "table" or (r.how == "number" and r.field not in reading.values)
    ]
    if not rules:
        return
    lines = reading_lines(reading)
    numbers = find(card, lines, engine, f"{key}/numbers")
    for rule in rules:
        if rule.how == "table":
            heads = [int(h) for h in rule.options.get("heads", [])]
            cells = numbers + [n for n in read_numbers(lines) if not _within(n, numbers)]
            found = better(table(cells, heads), table_in_lines(lines, heads))
            if found is None:
                continue
            values, sure = found
            reading.values[rule.field] = {str(rule.options.get("key", "values")): values}
            reading.confidences[rule.field] = sure
        elif rule.field not in reading.values:  # not printed inline (`5 Health`)
            label = fields.label_in(rule.options, [ln.text for ln in reading_lines(reading)])
            small = _near_label(reading, card, engine, key, label)
            value = _by_label(
                reading, numbers + [n for n in small if not _within(n, numbers)], label
            )
            if value is None:
                continue
            _used_up(reading, lines, value[0])
            reading.values[rule.field] = int(value[0].text)
            reading.confidences[rule.field] = value[1]
        if rule.field in reading.unread:
            reading.unread.remove(rule.field)


def _within(number: Number, others: list[Number]) -> bool:
    return any(overlaps(number.box, other.box) for other in others)


def _near_label(
    reading: Reading, card: Image.Image, engine: OcrEngine, key: str, label: str
) -> list[Number]:
    """Numbers by the label's line, as small as the label's own type (a value on a bar)."""
    marks = [ln for ln in reading_lines(reading) if label and fields.has_label(ln.text, label)]
    if not marks:
        return []
    x, y, w, h = marks[0].box
    reach = 6 * h
    window = (x - reach, y - reach, x + w + reach, y + h + reach)
    return find(card, reading_lines(reading), engine, f"{key}/by-label", marks[0].height, window)


def reading_lines(reading: Reading) -> list[Line]:
    return list(getattr(reading, "lines", []) or [])


def _by_label(reading: Reading, numbers: list[Number], label: str) -> tuple[Number, float] | None:
    """The largest number near the label's line (when the page read it), else the largest
    lone number on the card, doubted."""
    if not numbers:
        return None
    lines = reading_lines(reading)
    marks = [ln for ln in lines if label and fields.has_label(ln.text, label)]
    if marks:
        lx, ly = marks[0].centre
        reach = 8 * marks[0].box[3]
        near = [n for n in numbers if abs(n.centre[0] - lx) + abs(n.centre[1] - ly) < reach]
        if near:
            best = max(near, key=lambda n: (n.confidence > DOUBTED, n.box[3]))
            return best, best.confidence
    return largest_lone(numbers)


def largest_lone(numbers: list[Number]) -> tuple[Number, float] | None:
    """The largest of the lone numbers (surely read ones first), doubted: a value with no
    label by it; none when the best of them is read less surely than LONE."""
    if not numbers:
        return None
    best = max(numbers, key=lambda n: (n.confidence > DOUBTED, n.box[3]))
    if best.confidence < LONE:
        return None  # an unsure mark with no label by it: not a value
    return best, min(best.confidence, DOUBTED)
