"""A large lone glyph by its label (a Move value: one digit or `*` in a disc, a badge, a
hexagon, or on the card's face), found by shape and read alone.

Around the label, the card is cut into ink at several grey levels, either way (dark ink
on light, light on dark): a glyph is a connected component much taller than the label's
type, shaped like a character (not a bar, not a filled disc), standing clear of the window's
edge, of any line of words, and of any other tall component beside it (a glyph of a word is
no lone value), and holding no other tall component (a disc or a frame round the value
holds one). A light glyph on a dark badge is found on a light card too (the polarity
that holds the card's face is read as well: the face touches the window's edge, so it is
no glyph). Each such component is read on its own (without the dot inside a dotted zero),
black on white, as one character
(tesseract's single-character mode, digits and `*` only); the reads of one glyph at each
grey level are pooled. A glyph read one way at every level it was found at, surely, is sure;
else the read stays doubtful (the caller leaves it unconfirmed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image

from cardkit.ocr import shapes
from cardkit.ocr.boxes import overlaps
from cardkit.ocr.engine import OcrEngine

REACH = 8.0  # the window reaches this many label heights round the label
TALLEST = 7.0  # a glyph stands at most this many label heights tall
SHORTEST = 1.6  # ... and at least this many (rules text beside it is barely taller)
LEVELS = (60, 100, 140, 180, 220)  # grey levels the window is cut at, each way
GLYPH_HEIGHTS = (32, 44)  # a glyph is read at these heights, on a margin of half of it
# (tesseract's single-character mode misreads a clean bold 5 as 3 at 64 px and more)
BESIDE = 1.5  # a tall component beside a glyph is a letter of its word up to this its height
SURE = 0.75  # a glyph read this surely, the same at every level, is sure
STAR_SHAPE = 0.8  # an asterisk told by its spokes, not read: this sure
SPOKE = 0.12  # a hollow between two spokes reaches in this share of the glyph's size
STAR_LOOKALIKES = {"*": "*", "+": "*", "x": "*", "X": "*", "#": "*", "%": "*", "¥": "*"}


@dataclass(frozen=True)
class Glyph:
    box: tuple[int, int, int, int]  # left, top, width, height on the card
    text: str  # what it was read as ("" when never as a digit or `*`)
    confidence: float  # its surest read
    agreed: bool  # read the same at every grey level it was found at, surely


def _components(
    ink: np.ndarray[Any, Any],
) -> tuple[list[tuple[int, int, int, int, int]], np.ndarray[Any, Any]]:
    """The ink's components' stats (x, y, w, h, area; component n + 1 is stats[n]) and
    their labels."""
    import cv2

    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    found = [tuple(row) for row in stats[1:count].tolist()]  # Python ints, in one pass
    return found, np.asarray(labels)


def _inside(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Box a lies within box b (x, y, w, h)."""
    return (
        a[0] >= b[0] and a[1] >= b[1] and a[0] + a[2] <= b[0] + b[2] and a[1] + a[3] <= b[1] + b[3]
    )


def candidates(
    grey: np.ndarray[Any, Any],
    label_height: float,
    text_boxes: list[tuple[int, int, int, int]],
) -> list[tuple[tuple[int, int, int, int], np.ndarray[Any, Any]]]:
    """(box, ink mask of the glyph's box) for every lone glyph in a grey window, one per
    grey level and polarity it stands out at; boxes in the window's pixels."""
    out = []
    rows, columns = grey.shape
    for level in LEVELS:
        for ink in (grey < level, grey >= level):
            if ink.mean() > 0.97:
                continue  # all ground (a light glyph on a dark badge on a light card is
                # ink of the polarity that holds the card's face too: that one stays)
            found, labels = _components(ink)
            tall = [(n + 1, c) for n, c in enumerate(found) if c[3] >= SHORTEST * label_height]
            for label, (x, y, w, h, area) in tall:
                box = (x, y, w, h)
                if h > TALLEST * label_height or w > 1.3 * h or w < 0.08 * h:
                    continue
                if x <= 0 or y <= 0 or x + w >= columns or y + h >= rows:
                    continue  # cut by the window: a frame, a band, art
                fill = area / (w * h)
                if fill > 0.85 or fill < 0.08:
                    continue  # a filled badge or a hairline
                if any(overlaps(box, t) and t[3] < 1.4 * h for t in text_boxes):
                    continue  # a letter of a line of words (a line as tall as it)
                others = [c[:4] for _, c in tall if c[:4] != box]
                if any(_inside(o, box) for o in others):
                    continue  # a disc or a frame round a value: the value is the glyph
                # a glyph of a word has glyphs of its own size beside it; a panel or the
                # card's face beside a value (one far taller) is no letter of a word
                beside = [
                    o
                    for o in others
                    if not _inside(box, o)
                    and o[3] <= BESIDE * h
                    and abs((o[1] + o[3] / 2) - (y + h / 2)) < h / 2
                    and (abs(o[0] - (x + w)) < 0.6 * h or abs(x - (o[0] + o[2])) < 0.6 * h)
                ]
                if beside:
                    continue  # a glyph of a word set large (a title), not a lone value
                # the glyph alone: a dot or a slash inside a zero is no stroke of it
                # (a dotted zero read with its dot is a 6 or an 8)
                mask = labels[y : y + h, x : x + w] == label
                out.append((box, mask))
    return out


def _read_mask(
    mask: np.ndarray[Any, Any], engine: OcrEngine, key: str, height: int
) -> tuple[str, float]:
    h, w = mask.shape
    scale = height / max(1, h)
    image = Image.fromarray(np.where(mask, 0, 255).astype(np.uint8))
    image = image.resize((max(1, round(w * scale)), height), Image.Resampling.LANCZOS)
    margin = height // 2
    padded = Image.new("L", (image.width + 2 * margin, image.height + 2 * margin), 255)
    padded.paste(image, (margin, margin))
    read = engine.read(padded, "char", key=key, whitelist="0123456789*")
    text = read.text.strip()
    text = STAR_LOOKALIKES.get(text, text)
    if not text.isdigit() and _star_shaped(mask):
        # tesseract reads an asterisk now and then, unsurely; a sure read of one stays sure
        return "*", max(STAR_SHAPE, read.confidence if text == "*" else 0.0)
    if len(text) != 1 or not (text.isdigit() or text == "*"):
        return "", 0.0
    return text, read.confidence


def _star_shaped(mask: np.ndarray[Any, Any]) -> bool:
    """An asterisk by its shape: as wide as high, no hole, and five or more spokes (deep
    hollows between them in its outline); no digit has them."""
    import cv2

    h, w = mask.shape
    if not 0.7 <= w / max(1, h) <= 1.4:
        return False
    grid = np.pad(mask.astype(np.uint8), 1)
    contours, tree = cv2.findContours(grid, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if tree is None or len(contours) != 1:
        return False  # a hole (a 0, a 6, an 8) or pieces
    return shapes.hollows(contours[0], SPOKE * max(w, h)) >= 5


def lone_glyph(
    card: Image.Image,
    label: tuple[int, int, int, int],
    text_boxes: list[tuple[int, int, int, int]],
    engine: OcrEngine,
    key: str,
) -> Glyph | None:
    """The lone glyph nearest its label (box x, y, w, h on the card), read; None when no
    component round the label is shaped like one."""
    lx, ly, lw, lh = label
    reach = round(REACH * lh)
    window = (
        max(0, lx - reach),
        max(0, ly - reach),
        min(card.width, lx + lw + reach),
        min(card.height, ly + lh + reach),
    )
    return _lone_in(card, window, lh, [*text_boxes, label], engine, key, (lx + lw / 2, ly + lh / 2))


def unlabelled_glyph(
    card: Image.Image,
    type_height: float,
    text_boxes: list[tuple[int, int, int, int]],
    engine: OcrEngine,
    key: str,
) -> Glyph | None:
    """The largest lone glyph anywhere on the card (a Move value on a disc with no label
    by it), its size measured against the card's type height; None when none."""
    whole = (0, 0, card.width, card.height)
    return _lone_in(card, whole, type_height, text_boxes, engine, key, None)


def _lone_in(
    card: Image.Image,
    window: tuple[int, int, int, int],
    type_height: float,
    text_boxes: list[tuple[int, int, int, int]],
    engine: OcrEngine,
    key: str,
    near: tuple[float, float] | None,
) -> Glyph | None:
    """The lone glyph in the window nearest `near` (a point on the card), else the
    largest, read at each grey level it was found at."""
    grey = np.asarray(card.convert("L").crop(window))
    local = [(x - window[0], y - window[1], w, h) for x, y, w, h in text_boxes]
    found = candidates(grey, type_height, local)
    if not found:
        return None
    # the reads of one glyph (overlapping boxes) at each level pooled; the nearest wins
    groups: list[list[tuple[tuple[int, int, int, int], np.ndarray[Any, Any]]]] = []
    for item in found:
        # one glyph at several levels: overlapping boxes (by a label, the nearest group
        # holds the digit and its counter, read as the digit); with no label, of about
        # one height too (a star inside a ring found at another level is another glyph)
        group = next(
            (
                g
                for g in groups
                if overlaps(g[0][0], item[0])
                and (near is not None or abs(g[0][0][3] - item[0][3]) < 0.3 * item[0][3])
            ),
            None,
        )
        if group is None:
            groups.append([item])
        else:
            group.append(item)

    def order(group: list[tuple[tuple[int, int, int, int], Any]]) -> float:
        x, y, w, h = group[0][0]
        if near is None:
            return -h  # the largest first
        return abs(x + w / 2 - (near[0] - window[0])) + abs(y + h / 2 - (near[1] - window[1]))

    for number, group in enumerate(sorted(groups, key=order)[:3]):
        reads = [
            _read_mask(mask, engine, f"{key}/glyph{number}.{index}@{height}", height)
            for index, (_box, mask) in enumerate(group[:3])
            for height in GLYPH_HEIGHTS
        ]
        texts = {t for t, _ in reads if t}
        if not texts:
            continue
        text, confidence = max(reads, key=lambda r: r[1])
        agreed = len(texts) == 1 and all(t for t, _ in reads) and confidence >= SURE
        x, y, w, h = group[0][0]
        return Glyph((x + window[0], y + window[1], w, h), text, confidence, agreed)
    return None
