"""A printed mark with a word inside (a BAM! in a starburst, on a tag), found by shape and
colour, not by where a design puts it.

A mark is a filled patch of one strong colour of its own (saturated, not the card's
ground), of a modest size; the word is read inside it alone (its box, grey from the darkest
channel, as one line). A patch whose outline has many points (a starburst: `points` in the
grammar) is the mark even when the word inside does not read, though less surely.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from PIL import Image

from cardkit.ocr import coloured_words, fields, shapes
from cardkit.ocr.engine import OcrEngine, Reading

SATURATED = 90  # HSV saturation (0..255) of a mark's fill, at least
SMALLEST, LARGEST = 0.002, 0.05  # a mark's area as a share of the card's
SPIKE = 0.06  # a point of a starburst reaches out this share of its size past its hollows
SHAPE_ONLY = 0.6  # a starburst whose word did not read: present, unconfirmed
HOLE = 0.003  # a letter cut out of a patch covers this share of its box, at least
LETTERS = 3  # a word inside a patch leaves this many holes in its colour, at least
POINTED = 8  # a patch with this many points is a starburst: read even with no holes
TARGET = 40  # the patch is read at about this height per line of type
INK_READ = 0.8  # a patch read less surely than this is read again as its own pixels ...
SURER = 0.2  # ... and that read stands when it is this much surer


@dataclass(frozen=True)
class Mark:
    box: tuple[int, int, int, int]  # x, y, w, h on the card
    points: int  # how many points its outline has
    text: str  # what was read inside
    confidence: float = 1.0  # how surely the engine read it
    others: tuple[str, ...] = ()  # what its other reads (grey, its own pixels) saw


def find(
    card: Image.Image,
    engine: OcrEngine,
    key: str,
    widest: float = 0.5,
    smallest: float = SMALLEST,
    letters: int = LETTERS,
) -> list[Mark]:
    """Every mark on the card: patches of a strong colour of their own, each read inside;
    `widest`: a patch's width as a share of the card's, at most (a heading's band across
    a column is one when headings are looked for); `smallest` its area, at least, and
    `letters` the holes its word leaves, at least (a heading's small tag on a Dashboard
    photographed: its word's letters run together)."""
    import cv2

    rgb = np.asarray(card.convert("RGB"))
    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)
    area = rgb.shape[0] * rgb.shape[1]
    out: list[Mark] = []
    words: list[tuple[tuple[int, int, int, int], float, Any, Any]] = []  # coloured_words.py
    card_grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    for mask in _patches(hsv, smallest * area):
        drawn = mask  # as printed: closing runs a small word's letters together
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        contours, tree = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
        if tree is None:
            continue
        for index, contour in enumerate(contours):
            if tree[0][index][3] != -1:
                continue  # a hole, not a patch
            x, y, w, h = cv2.boundingRect(contour)
            filled = cv2.contourArea(contour)  # a sash across a corner fills half its box
            if not smallest * area <= filled <= LARGEST * area or w > widest * rgb.shape[1]:
                continue
            if any(_same((x, y, w, h), m.box) for m in out):
                continue
            points = shapes.hollows(contour, SPIKE * max(w, h))  # a starburst's points
            holes = [
                c
                for c, link in zip(contours, tree[0], strict=True)
                if link[3] == index and cv2.contourArea(c) >= HOLE * min(w, 4 * h) * h
                # (a band's letters are as large as its height allows, not as its length)
            ]
            if len(holes) < letters and points < POINTED:
                framed = _framed_word(rgb, contours, tree[0], index)
                if framed is not None:  # an outline round a word of its colour (a stamp)
                    read = _read_level(framed[0], framed[1], engine, f"{key}/mark{len(out)}")
                    text = " ".join(read.text.split())
                    out.append(Mark((x, y, w, h), points, text, read.confidence))
                continue  # no word cut out of it (a disc round one digit, a slot's rim)
            inset = (w // 8, h // 8) if points >= POINTED else (0, 0)  # inside the points
            inner = rgb[y + inset[1] : y + h - inset[1], x + inset[0] : x + w - inset[0]]
            crop = Image.fromarray(inner).convert("L")  # luminance: red on yellow reads
            if np.median(np.asarray(crop)) < 128:  # light letters on a dark patch: turned
                crop = Image.fromarray(255 - np.asarray(crop))  # over, dark ink on light
            ground = 255
            if points < POINTED:  # what lies round the patch in its box (a line of text
                # under a heading's band in a photo) painted over in the patch's colour
                grey = np.array(crop)
                inside = np.zeros(grey.shape, np.uint8)
                cv2.drawContours(inside, [contour - [x, y]], -1, 1, thickness=-1)
                own = (inside > 0) & mask[y : y + h, x : x + w].astype(bool)
                ground = int(np.median(grey[own])) if own.any() else ground
                grey[inside == 0] = ground
                crop = Image.fromarray(grey)
            margin = max(4, crop.height // 4)  # tesseract reads no word touching the edge
            padded = Image.new("L", (crop.width + 2 * margin, crop.height + 2 * margin), ground)
            padded.paste(crop, (margin, margin))
            crop = padded
            tilt, across = _tilt(contour) if points < POINTED else (0.0, 0.0)
            if tilt:  # a band turned (a sash across a corner): read stood level, both ways
                crops = [crop.rotate(a, expand=True, fillcolor=ground) for a in (tilt, tilt + 180)]
                size = across
            else:
                crops, size = [crop], h
            scale = min(3.0, max(1.0, 2 * TARGET / max(1, size)))
            grown = [
                c.resize((max(1, round(c.width * scale)), max(1, round(c.height * scale))))
                for c in crops
            ]
            reads = [
                engine.read(c, "line", key=f"{key}/mark{len(out)}/{n}") for n, c in enumerate(grown)
            ]
            if not any(r.text.strip() for r in reads):  # tesseract's line mode now and then
                # reads nothing of a lone bold word its word mode reads (a BAM! tag)
                reads = [
                    engine.read(c, "word", key=f"{key}/mark{len(out)}/{n}/word")
                    for n, c in enumerate(grown)
                ]
            if max(r.confidence for r in reads) < INK_READ and not tilt:
                # letters that are the patch (red letters with a dark outline and a
                # shadow): the patch's own pixels as ink read what its grey does not
                ink = np.where(mask[y : y + h, x : x + w] > 0, 0, 255).astype(np.uint8)
                rim = np.concatenate([ink[0], ink[-1], ink[:, 0], ink[:, -1]])
                if (rim == 0).mean() > 0.5:  # a patch round its box, its letters cut out
                    ink = 255 - ink  # (a tag): the letters dark on light
                again = _read_level(ink, 0.0, engine, f"{key}/mark{len(out)}/ink")
                reads.append(again)
            best = max(reads[:-1] if len(reads) > len(grown) else reads, key=_sureness)
            if len(reads) > len(grown) and reads[-1].confidence >= best.confidence + SURER:
                best = reads[-1]  # its own pixels, surer by a margin: that read stands
            # the other reads are kept as seen: of two unsure reads, either may hold a word
            seen = tuple(" ".join(r.text.split()) for r in reads if r is not best)
            text, sure = best.text, best.confidence
            out.append(Mark((x, y, w, h), points, " ".join(text.split()), sure, seen))
        words += coloured_words.rows(contours, tree[0], drawn, card_grey, rgb.shape[0])
    # after every patch (a frame's read of its word stands), the word with the most ink
    # first: a hue's share of a word's letters (the next hue has the rest) is no word
    words.sort(key=lambda word: -int((word[3] == 0).sum()))
    for box, turn, ink, bare in words:
        over = [m for m in out if _overlaps(box, m.box)]
        if any(m.confidence >= INK_READ for m in over):
            continue  # read already, surely, as a frame's, a patch's or another hue's word
        read = _read_level(ink, turn, engine, f"{key}/word{len(out)}")
        if read.confidence < INK_READ:
            again = _read_level(bare, turn, engine, f"{key}/word{len(out)}/bare")
            read = max((read, again), key=lambda r: r.confidence)
        if over and read.confidence <= max(m.confidence for m in over):
            continue
        out = [m for m in out if m not in over]  # a patch's unsure read of these letters
        points = max([0] + [m.points for m in over])  # a starburst round them is still one
        out.append(Mark(box, points, " ".join(read.text.split()), read.confidence))
    return _innermost(out)


def _innermost(marks: list[Mark]) -> list[Mark]:
    """Of marks one inside another (a double frame's outer and inner outline, a word of
    letters inside a starburst, a piece of a tag's word inside the tag), the one read
    most surely stands, the inner one on a tie, with the points of them all (a starburst
    whose word read as nothing is still one)."""

    def nested(a: Mark, b: Mark) -> bool:
        return a is not b and (_inside(a.box, b.box) or _inside(b.box, a.box))

    out = []
    for mark in marks:
        nest = [o for o in marks if nested(mark, o)]
        beaten = any(
            o.confidence > mark.confidence
            or (o.confidence == mark.confidence and _inside(o.box, mark.box))
            for o in nest
        )
        if not beaten:
            out.append(replace(mark, points=max([mark.points] + [o.points for o in nest])))
    return out


HUES = range(0, 180, 15)  # the hues a strong colour is looked for at ...
HUE_REACH = 10  # ... each taking the hues this near it (OpenCV's hue runs 0..179, round)
# for each of HUES, which of the 256 possible hue values lie near it
NEAR_HUE = np.array(
    [[min(abs(h - c), 180 - abs(h - c)) <= HUE_REACH for h in range(256)] for c in HUES]
)


def _patches(hsv: Any, least: float = 0.0) -> Any:
    """Masks (0/1) of what may be marks, each of more than `least` pixels: each hue's
    strong colour (a yellow burst, an orange disc), then the near-black (a black banner,
    whose word is white), where the card's ground is not itself that dark. A hue's pixels
    are counted from one histogram of the strong pixels' hues, so the mask of a hue the
    card holds too little of is never made (most of the twelve)."""
    hue = hsv[:, :, 0]
    strong = (hsv[:, :, 1] >= SATURATED) & (hsv[:, :, 2] >= 90)
    counts = np.bincount(hue[strong], minlength=256)
    for near in NEAR_HUE:
        if counts[near].sum() >= least:
            yield (strong & near[hue]).view(np.uint8)
    value = hsv[:, :, 2]
    if median_of(value) - BLACK >= DARKER:
        mask = (value <= BLACK) & (hsv[:, :, 1] < SATURATED)
        if np.count_nonzero(mask) >= least:
            yield mask.view(np.uint8)


def median_of(values: Any) -> float:
    """np.median of an 8-bit array, from its histogram (no sort of every pixel)."""
    cumulative = np.cumsum(np.bincount(values.ravel(), minlength=256))
    n = int(cumulative[-1])
    low = int(np.searchsorted(cumulative, (n - 1) // 2, side="right"))
    high = int(np.searchsorted(cumulative, n // 2, side="right"))
    return (low + high) / 2


BLACK = 40  # HSV value (0..255) of a black mark's fill, at most
DARKER = 20  # ... and the card's ground this much lighter at least
TILTED = (15, 75)  # a band's long side this many degrees from level is turned
BAND = 2.0  # a band is this many times as long as it is wide


def _tilt(contour: Any) -> tuple[float, float]:
    """How far a long band is turned from level (degrees, for Image.rotate) and its width;
    (0, 0) for a patch that is no band or lies level."""
    import cv2

    corners = cv2.boxPoints(cv2.minAreaRect(contour))
    edges = [corners[(i + 1) % 4] - corners[i] for i in range(2)]
    long, short = sorted(edges, key=lambda e: -math.hypot(*e))
    if math.hypot(*long) < BAND * math.hypot(*short):
        return 0.0, 0.0
    angle = math.degrees(math.atan2(long[1], long[0]))
    if not TILTED[0] <= abs(angle) % 90 <= TILTED[1]:
        return 0.0, 0.0
    return angle, math.hypot(*short)


FRAME_HOLE = 0.4  # an outline's inside covers this share of its box, at least
LEVEL = 2.0  # a frame turned this many degrees or more is read stood level


def _framed_word(rgb: Any, contours: Any, links: Any, index: int) -> tuple[Any, float] | None:
    """The inside of an outline drawn round a word in the outline's own colour (a BAM!
    stamped in a double frame): its largest hole, holding LETTERS or more pieces of that
    colour, as grey with the frame painted over in the paper's tone, and how far it is
    turned (degrees, for Image.rotate); None for any other patch (a slot's rim holds
    tokens of other colours, a ring round one digit one piece)."""
    import cv2

    _, _, w, h = cv2.boundingRect(contours[index])
    holes = [k for k, link in enumerate(links) if link[3] == index]
    if not holes:
        return None
    hole = max(holes, key=lambda k: cv2.contourArea(contours[k]))
    if cv2.contourArea(contours[hole]) < FRAME_HOLE * w * h:
        return None
    hx, hy, hw, hh = cv2.boundingRect(contours[hole])
    pieces = [
        k
        for k, link in enumerate(links)
        if link[3] == -1
        and k != index
        and _inside(cv2.boundingRect(contours[k]), (hx, hy, hw, hh))
        and cv2.contourArea(contours[k]) >= HOLE * hh * hh
    ]
    if len(pieces) < LETTERS:
        return None
    grey = cv2.cvtColor(np.ascontiguousarray(rgb[hy : hy + hh, hx : hx + hw]), cv2.COLOR_RGB2GRAY)
    within = np.zeros(grey.shape, np.uint8)
    cv2.drawContours(within, [contours[hole] - [hx, hy]], -1, 1, thickness=-1)
    inner = within.astype(bool)
    paper = int(np.median(grey[inner])) if inner.any() else 255
    grey[~inner] = paper  # the frame's own ink is no letter
    return grey, _level_angle(contours[hole])


def _sureness(reading: Reading) -> float:
    return float(reading.confidence)


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _inside(box: Any, frame: tuple[int, int, int, int]) -> bool:
    x, y, w, h = box
    fx, fy, fw, fh = frame
    return bool(fx <= x and fy <= y and x + w <= fx + fw and y + h <= fy + fh)


def _level_angle(contour: Any) -> float:
    """How far a roughly level outline is turned (degrees for Image.rotate, -45..45)."""
    import cv2

    corners = cv2.boxPoints(cv2.minAreaRect(contour))
    edges = [corners[(i + 1) % 4] - corners[i] for i in range(2)]
    long = max(edges, key=lambda e: math.hypot(*e))
    angle = math.degrees(math.atan2(long[1], long[0]))
    angle = (angle + 90) % 180 - 90  # the edge's direction, either way along it
    return angle if abs(angle) <= 45 else 0.0


def _read_level(grey: Any, angle: float, engine: OcrEngine, key: str) -> Reading:
    """A word's grey inside a frame, stood level and read as one line (as a word when the
    line mode reads nothing)."""
    paper = int(np.median(grey)) if grey.size else 255
    crop = Image.fromarray(grey)
    if abs(angle) >= LEVEL:
        crop = crop.rotate(angle, expand=True, fillcolor=paper)
    margin = max(4, crop.height // 4)
    padded = Image.new("L", (crop.width + 2 * margin, crop.height + 2 * margin), paper)
    padded.paste(crop, (margin, margin))
    scale = min(3.0, max(1.0, 2 * TARGET / max(1, padded.height)))
    grown = padded.resize(
        (max(1, round(padded.width * scale)), max(1, round(padded.height * scale)))
    )
    reading = engine.read(grown, "line", key=key)
    if not reading.text.strip():
        reading = engine.read(grown, "word", key=f"{key}/word")
    return reading


def _same(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return abs(a[0] - b[0]) < 4 and abs(a[1] - b[1]) < 4 and abs(a[2] - b[2]) < 4


def look_for(
    card: Image.Image, word: str, points: int, engine: OcrEngine, key: str
) -> tuple[bool, float, str] | None:
    """(present, confidence, what was seen) for a mark holding `word` or shaped with at
    least `points` points (0: the word only); None when no mark says so."""
    shaped = None
    for mark in find(card, engine, key):
        if any(fields.contains(text, word) for text in (mark.text, *mark.others)):
            return True, 0.95, f"{word} read inside a mark at {mark.box}"
        if points and mark.points >= points and shaped is None:
            shaped = (True, SHAPE_ONLY, f"a mark of {mark.points} points at {mark.box}")
    return shaped
