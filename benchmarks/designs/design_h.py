"""design-h (development: held out until measured on 2026-12-04, then design-i took its place).
Light on dark: a forest-green card inside a thin cream line with a cream diamond at each
corner, cream ink; fonts Nimbus Sans Narrow Bold (fonts-urw-base35) for the title, labels
and small caps, Nimbus Roman for the body text (Regular) and the movement sentence
(Italic), Liberation Mono Bold for numbers. The title centred at the top over a short
amber rule. Effect names run in, amber Nimbus Sans Narrow Bold small caps, with no
punctuation after them ("NAME text"). The Move value at the right edge beside the
diagram, dark green in an amber circle, a small cream "MOVE" under the circle. The
placement diagram a strip of three square cells touching each other, left of the Move
circle below the text, left to right the left, the Villain's and the right Location; the
Villain's cell filled amber (the others dark green with a cream edge); Lizard's Sewer
three dark wavy lines across the amber cell. Civilians as sky-blue five-pointed stars,
Thugs as brick-red discs with a cream plus sign. BAM! as the word, white letters on a
black swallowtail banner with a cream edge at the bottom centre. Threats: the title at the
top left, Health as "HP 5" dark on an amber box at the top right, the text below in a
darker green panel. Dashboards: a dark panel down the left edge holding the player-count
table ("Heroes" and "Health" in small caps, each count in a cream circle with its Health in
amber beside it, nothing where the data has no value); headings amber small caps, underlined
across the column by an amber line; one or two columns."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw, ImageFont

from .data import Card, dashboard, masterplan, move_of, movement_of, slots_of, threat
from .draw import by_kind, canvas, centred, columns_of, polygon, star

NAME = "design-h"
JOINER = " "
LIGHT_ON_DARK = True  # the card's ground is dark, its ink light
SIZE, BOARD = (740, 1040), (1860, 1180)
GREEN, DEEP, CELL = (22, 66, 46), (12, 42, 29), (34, 90, 64)
CREAM, AMBER, BLACK = (242, 234, 212), (240, 168, 36), (16, 16, 16)
WHITE = (255, 255, 255)
TOKENS = {
    "civilian": ("star", (120, 196, 246)),
    "thug": ("plus-disc", (204, 62, 44)),
    "crisis": ("rounded-square", (160, 100, 210)),
}
URW = "/usr/share/fonts/opentype/urw-base35"  # fonts-urw-base35
LIB = "/usr/share/fonts/truetype/liberation2"  # fonts-liberation2
FACES = {
    "label": f"{URW}/NimbusSansNarrow-Bold.otf",
    "text": f"{URW}/NimbusRoman-Regular.otf",
    "italic": f"{URW}/NimbusRoman-Italic.otf",
    "digits": f"{LIB}/LiberationMono-Bold.ttf",
}
Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]
Word = tuple[str, str]  # text, style: "text", "italic" or "name" (small caps)


def cards() -> list[Card]:
    d = NAME
    return [
        masterplan(d, "multiverse-ks-promos/blastaar", 2),  # Move 0, BAM!, two kinds
        masterplan(d, "multiverse-ks-promos/crimson-dynamo", 9),  # no diagram, no BAM!
        masterplan(d, "ks-promos/baron-zemo", 12),  # Move 5, four tokens a side slot
        masterplan(d, "multiverse-ks-promos/titania", 4),  # Move 1
        masterplan(d, "ks-promos/dormammu", 8),  # Move 2, two in every slot
        masterplan(d, "multiverse-ks-promos/hobgoblin", 6),  # Move 3, a long effect
        masterplan(d, "multiverse-ks-promos/mole-man", 10),  # Move 4
        masterplan(d, "multiverse-ks-promos/shocker", 11),  # Move *, a sentence
        masterplan(d, "ks-promos/venom", 1),  # "No tokens placed."
        masterplan(d, "multiverse-ks-promos/lizard", 11),  # the Sewer in the middle
        threat(d, "ks-promos/baron-zemo", "Goliath"),
        threat(d, "ks-promos/baron-zemo", "Fixer"),
        threat(d, "multiverse-ks-promos/knull", "Symbiote Resistances"),  # no Health
        dashboard(d, "multiverse-ks-promos/hobgoblin", 1, order=("bam",)),
        dashboard(d, "multiverse-ks-promos/crimson-dynamo", 2),
    ]


def paint(card: Card) -> tuple[Image.Image, list[str] | None]:
    painted: tuple[Image.Image, list[str] | None] = by_kind(card, _masterplan, _threat, _dashboard)
    return painted


def _face(style: str, size: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FACES[style], max(6, round(size)))


def _frame(size: tuple[int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """The green card inside a thin cream line, a cream diamond on each of its corners."""
    image, draw = canvas(size, GREEN)
    w, h = size
    draw.rectangle((24, 24, w - 25, h - 25), outline=CREAM, width=3)
    for x, y in ((24, 24), (w - 25, 24), (24, h - 25), (w - 25, h - 25)):
        draw.polygon(polygon(x, y, 13, 4, -math.pi / 2), fill=CREAM)
    return image, draw


# ---------------------------------------------------------------- small caps and words


def _caps_width(draw: ImageDraw.ImageDraw, word: str, size: float) -> float:
    big, small = _face("label", size), _face("label", size * 0.78)
    return sum(
        draw.textlength(c.upper(), font=big if c.isupper() or not c.isalpha() else small)
        for c in word
    )


def _caps(
    draw: ImageDraw.ImageDraw, x: float, base: float, word: str, size: float, fill: Colour
) -> float:
    """A word in small caps (capitals full size, the rest as smaller capitals) on the
    baseline; returns its width."""
    big, small = _face("label", size), _face("label", size * 0.78)
    start = x
    for c in word:
        f = big if c.isupper() or not c.isalpha() else small
        draw.text((x, base), c.upper(), font=f, fill=fill, anchor="ls")
        x += draw.textlength(c.upper(), font=f)
    return x - start


def _width(draw: ImageDraw.ImageDraw, word: Word, size: float) -> float:
    text, style = word
    if style == "name":
        return _caps_width(draw, text, size)
    return draw.textlength(text, font=_face(style, size))


def _block(
    draw: ImageDraw.ImageDraw,
    box: Box,
    paragraphs: list[list[Word]],
    size: float,
    ink: Colour | None = CREAM,
) -> float:
    """Paragraphs of styled words wrapped to the box's width from its top (drawn only with
    an ink); the height used."""
    y, space = box[1], size * 0.28
    for index, words in enumerate(paragraphs):
        lines: list[list[tuple[float, Word]]] = [[]]
        x = 0.0
        for word in words:
            w = _width(draw, word, size)
            if lines[-1] and x + w > box[2] - box[0]:
                lines.append([])
                x = 0.0
            lines[-1].append((x, word))
            x += w + space
        for line in lines:
            base = y + size
            for x, (text, style) in line if ink else []:
                if style == "name":
                    _caps(draw, box[0] + x, base, text, size, AMBER)
                else:
                    f = _face(style, size)
                    draw.text((box[0] + x, base), text, font=f, fill=ink, anchor="ls")
            y += size * 1.28
        if index < len(paragraphs) - 1:
            y += size * 0.6
    return y - box[1]


def _fit(draw: ImageDraw.ImageDraw, box: Box, paragraphs: list[list[Word]], size: float) -> float:
    while size > 14 and _block(draw, box, paragraphs, size, ink=None) > box[3] - box[1]:
        size *= 0.95
    return size


def _words(text: str, style: str) -> list[Word]:
    return [(w, style) for w in text.split()]


def _title(
    draw: ImageDraw.ImageDraw, text: str, xy: tuple[float, float], room: float, anchor: str
) -> None:
    f = _face("label", 58)
    while draw.textlength(text, font=f) > room and f.size > 24:
        f = _face("label", f.size - 2)
    draw.text(xy, text, font=f, fill=CREAM, anchor=anchor)


# ---------------------------------------------------------------- marks and tokens


def _token(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float) -> None:
    shape, fill = TOKENS[kind]
    if shape == "star":
        draw.polygon(star(cx, cy + r * 0.08, r * 1.12, r * 0.48, 5), fill=fill, outline=DEEP)
    elif shape == "plus-disc":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=DEEP, width=2)
        arm, half = r * 0.62, r * 0.17
        draw.rectangle((cx - arm, cy - half, cx + arm, cy + half), fill=CREAM)
        draw.rectangle((cx - half, cy - arm, cx + half, cy + arm), fill=CREAM)
    else:
        draw.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), r * 0.35, fill=fill)


def _slot_tokens(draw: ImageDraw.ImageDraw, box: Box, counts: dict[str, int]) -> None:
    """A cell's tokens in rows of two (data order), centred in it (four at most)."""
    kinds = [kind for kind, n in counts.items() for _ in range(n)]
    rows = [kinds[i : i + 2] for i in range(0, len(kinds), 2)]
    step = 54
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    for row_index, row in enumerate(rows):
        y = cy - (len(rows) - 1) * step / 2 + row_index * step
        for index, kind in enumerate(row):
            _token(draw, kind, cx - (len(row) - 1) * step / 2 + index * step, y, 20)


def _sewer(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Three dark wavy lines across a cell: the Sewer."""
    for dy in (-34, 0, 34):
        y0 = (box[1] + box[3]) / 2 + dy
        span = range(0, int(box[2] - box[0]) - 31)
        points = [(box[0] + 16 + t, y0 + 9 * math.sin(t / 14)) for t in span]
        draw.line(points, fill=DEEP, width=6)


def _bam(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """BAM! in white letters on a black swallowtail banner with a cream edge."""
    w, h, notch = 150, 40, 26
    points = [(cx - w, cy - h), (cx + w, cy - h), (cx + w - notch, cy), (cx + w, cy + h)]
    points += [(cx - w, cy + h), (cx - w + notch, cy)]
    draw.polygon(points, fill=BLACK, outline=CREAM, width=3)
    centred(draw, (cx, cy + 2), "BAM!", _face("label", 56), WHITE)


# ---------------------------------------------------------------- the cards


def _masterplan(card: Card) -> tuple[Image.Image, list[str] | None]:
    data = card.data
    image, draw = _frame(SIZE)
    _title(draw, f"{card.villain} {data['n']}", (SIZE[0] / 2, 96), SIZE[0] - 120, "mm")
    draw.line((SIZE[0] / 2 - 110, 142, SIZE[0] / 2 + 110, 142), fill=AMBER, width=5)
    paragraphs: list[list[Word]] = []
    if movement_of(data):
        paragraphs.append(_words(movement_of(data), "italic"))
    for effect in data.get("effects", []):
        name = _words(effect["name"], "name") if effect.get("name") else []
        paragraphs.append(name + _words(effect["text"], "text"))
    if paragraphs:
        room = (64.0, 176.0, 676.0, 618.0)
        _block(draw, room, paragraphs, _fit(draw, room, paragraphs, 38))
    # the Move value at the right edge: dark green in an amber circle, "MOVE" under it
    cx, cy = 612, 742
    draw.ellipse((cx - 64, cy - 64, cx + 64, cy + 64), fill=AMBER, outline=CREAM, width=3)
    move = str(move_of(data))
    low = 22 if move == "*" else 4  # an asterisk sits high in its line
    centred(draw, (cx, cy + low), move, _face("digits", 96 if move != "*" else 120), DEEP)
    centred(draw, (cx, cy + 92), "MOVE", _face("label", 30), CREAM)
    place, diagram = slots_of(data.get("place")), None
    if place == "none":
        centred(draw, (290, 742), "No tokens placed.", _face("italic", 38), CREAM)
    elif isinstance(place, dict):
        anchor = data["place"].get("anchor")
        diagram = ["left", anchor or "villain", "right"]
        side = 136
        for index, slot in enumerate(("left", "villain", "right")):
            box = (84 + index * side, cy - side / 2, 84 + (index + 1) * side, cy + side / 2)
            villain = slot == "villain"
            draw.rectangle(box, fill=AMBER if villain else CELL, outline=CREAM, width=3)
            if villain and anchor:
                _sewer(draw, box)
            _slot_tokens(draw, box, place[slot])
    if data.get("bam"):
        _bam(draw, SIZE[0] / 2, 922)
    return image, diagram


def _threat(card: Card) -> Image.Image:
    data = card.data
    image, draw = _frame(SIZE)
    health = data.get("health")
    room = SIZE[0] - 130 - (190 if health is not None else 0)
    _title(draw, data["name"], (62, 100), room, "lm")
    if health is not None:  # "HP 5" dark on an amber box at the top right
        draw.rectangle((SIZE[0] - 232, 58, SIZE[0] - 56, 142), fill=AMBER, outline=CREAM, width=3)
        hp = f"HP {health}"
        centred(draw, (SIZE[0] - 144, 102), hp, _face("digits", 54), DEEP)
    draw.line((62, 164, SIZE[0] - 62, 164), fill=AMBER, width=3)
    box = (90.0, 236.0, 650.0, 900.0)
    paragraphs = [_words(data["text"], "text")]
    size = _fit(draw, box, paragraphs, 44)
    used = _block(draw, box, paragraphs, size, ink=None)
    draw.rectangle((62, 206, SIZE[0] - 62, 206 + used + 60), fill=DEEP)
    _block(draw, box, paragraphs, size)
    return image


def _table(draw: ImageDraw.ImageDraw, card: Card, right: float) -> None:
    """The player-count table in the dark left panel: a count in a cream circle, its
    Health in amber beside it."""
    draw.rectangle((40, 40, right, BOARD[1] - 41), fill=DEEP)
    mid = (40 + right) / 2
    for x, label in ((mid - 62, "Heroes"), (mid + 62, "Health")):
        w = _caps_width(draw, label, 34)
        _caps(draw, x - w / 2, 120, label, 34, CREAM)
    draw.line((60, 140, right - 20, 140), fill=AMBER, width=3)
    for index, (players, health) in enumerate(card.player_count.items()):
        y = 214 + index * 124
        draw.ellipse((mid - 62 - 42, y - 42, mid - 62 + 42, y + 42), fill=CREAM)
        centred(draw, (mid - 62, y + 2), str(players), _face("digits", 56), DEEP)
        if health is not None:
            centred(draw, (mid + 62, y + 2), str(health), _face("digits", 60), AMBER)


def _dashboard(card: Card) -> Image.Image:
    image, draw = _frame(BOARD)
    panel = 330
    _table(draw, card, panel)
    left, right = panel + 60, BOARD[0] - 70
    _title(draw, card.villain, ((left + right) / 2, 100), right - left, "mm")
    draw.line(((left + right) / 2 - 160, 146, (left + right) / 2 + 160, 146), fill=AMBER, width=5)
    width, chunks = columns_of(card.sections, card.columns, left, right, 80)
    top, bottom = 190, BOARD[1] - 60
    size = 38.0
    for index, chunk in enumerate(chunks):
        x = left + index * (width + 80)
        paragraphs = [_words(s["text"], "text") for s in chunk]
        room = (x, top, x + width, bottom - len(chunk) * 90)  # a heading and its line each
        size = min(size, _fit(draw, room, paragraphs, 38))
    for index, chunk in enumerate(chunks):
        x, y = left + index * (width + 80), float(top)
        for section in chunk:
            base = y + size * 1.2
            _caps(draw, x, base, section["heading"], size * 1.2, AMBER)
            draw.line((x, base + 10, x + width, base + 10), fill=AMBER, width=3)
            y = base + 26
            box = (x, y, x + width, float(bottom))
            y += _block(draw, box, [_words(section["text"], "text")], size)
            y += size * 0.9
    return image
