"""design-g (development: held out until measured on 2026-12-03, then design-h took its place).
A pale blue card with navy ink inside a slate rounded frame (a thick outer line, a thin
inner one); fonts URW Palladio (P052, fonts-urw-base35) for the title (Bold), the body
text (Roman) and the movement sentence (Italic), Nimbus Sans Bold for labels and numbers.
The title at the top left over a slate double rule. BAM! as the word, white Nimbus Sans
Bold on a red tab hanging from the top edge at the centre. Effect names run in, dark red
P052 Bold, "Name: text" on the same line. The Move value at the bottom left, white on a
slate heraldic shield with the word "MOVE" in it over the number. The placement diagram a
row of three rounded rectangles at the bottom right of the shield, left to right the left,
the Villain's and the right Location; the Villain's with a thick red outline and a small
red crown over it (Lizard's Sewer a grey manhole cover with bars in its place); Civilians
as green circles with a white "C", Thugs as orange octagons. Threats: the title centred
over a slate rule, the text in a white panel, Health as a white number in a red drop at
the bottom left, no word. Dashboards: each heading dark red P052 Bold Italic after a slate
square, with a slate rule above it across the column; one or two columns; the
player-count table at the right edge, upright: a "Heroes" and a "Health" column, a row a
count (an empty cell where the data has no value)."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw, ImageFont

from .data import Card, dashboard, masterplan, move_of, movement_of, slots_of, threat
from .draw import by_kind, canvas, centred, columns_of, polygon, run_lines

NAME = "design-g"
JOINER = ": "
SIZE, BOARD = (744, 1044), (1800, 1200)
PALE, INK, SLATE = (221, 232, 242), (22, 28, 46), (52, 80, 120)
RED, DARK_RED, WHITE = (186, 32, 40), (140, 26, 34), (250, 252, 253)
SLOT, COVER = (244, 248, 251), (120, 126, 134)
TOKENS = {
    "civilian": ("lettered-circle", (40, 140, 64)),
    "thug": ("octagon", (214, 100, 18)),
    "crisis": ("pentagon", (120, 60, 170)),
}
URW = "/usr/share/fonts/opentype/urw-base35"  # fonts-urw-base35
TITLE, TEXT, TEXT_I = "P052-Bold.otf", "P052-Roman.otf", "P052-Italic.otf"
HEAD, DIGITS = "P052-BoldItalic.otf", "NimbusSans-Bold.otf"
Colour = tuple[int, int, int]
Run = tuple[str, str, Colour]  # font file, text, colour
Box = tuple[float, float, float, float]


def cards() -> list[Card]:
    d = NAME
    return [
        masterplan(d, "ks-promos/corvus-glaive", 10),  # Move *, a sentence, no diagram
        masterplan(d, "ks-promos/baron-zemo", 12),  # four tokens a side slot
        masterplan(d, "multiverse-ks-promos/lizard", 1),  # the Sewer, three in a slot
        masterplan(d, "multiverse-ks-promos/crossbones", 1),
        masterplan(d, "multiverse-ks-promos/maximus", 2),  # "No tokens placed."
        masterplan(d, "multiverse-ks-promos/cabal-iron-patriot", 4),
        masterplan(d, "multiverse-ks-promos/gorr", 7),
        masterplan(d, "multiverse-ks-promos/absorbing-man", 5),
        threat(d, "ks-promos/baron-zemo", "Beetle"),
        threat(d, "ks-promos/baron-zemo", "Screaming Mimi"),
        threat(d, "multiverse-ks-promos/crossbones", "Headmoney"),  # no Health
        # Knull's table has four empty cells and five rows; no design drew either Dashboard
        dashboard(d, "multiverse-ks-promos/knull", 2),
        dashboard(d, "multiverse-ks-promos/absorbing-man", 1, order=("overflow", "bam")),
    ]


def paint(card: Card) -> tuple[Image.Image, list[str] | None]:
    painted: tuple[Image.Image, list[str] | None] = by_kind(card, _masterplan, _threat, _dashboard)
    return painted


def _face(name: str, size: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(f"{URW}/{name}", max(6, round(size)))


def _frame(size: tuple[int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """The pale blue card in a slate rounded frame: a thick line and a thin one inside."""
    image, draw = canvas(size, PALE)
    w, h = size
    draw.rounded_rectangle((14, 14, w - 15, h - 15), 30, outline=SLATE, width=7)
    draw.rounded_rectangle((30, 30, w - 31, h - 31), 20, outline=SLATE, width=2)
    return image, draw


def _title(draw: ImageDraw.ImageDraw, text: str, x: float, room: float, y: float) -> None:
    """The title in P052 Bold, shrunk to fit `room`; centred on x when room is negative."""
    f = _face(TITLE, 54)
    while draw.textlength(text, font=f) > abs(room) and f.size > 24:
        f = _face(TITLE, f.size - 2)
    anchor = "mm" if room < 0 else "lm"
    draw.text((x, y), text, font=f, fill=INK, anchor=anchor)


def _rules(draw: ImageDraw.ImageDraw, left: float, right: float, y: float) -> None:
    draw.line((left, y, right, y), fill=SLATE, width=4)
    draw.line((left, y + 9, right, y + 9), fill=SLATE, width=1)


# ---------------------------------------------------------------- shapes


def shield(cx: float, top: float, w: float, h: float) -> list[tuple[float, float]]:
    """A heraldic shield: straight top, sides down to half its height, then curving to a
    point at the bottom."""
    points = [(cx - w / 2, top), (cx + w / 2, top)]
    for i in range(25):
        t = i / 24  # the right side's curve, then the left one mirrored
        points.append((cx + w / 2 * math.cos(t * math.pi / 2), top + h * (0.5 + 0.5 * t**1.2)))
    for x, y in reversed(points[2:-1]):
        points.append((2 * cx - x, y))
    return points


def drop(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """A drop: a circle of radius r at (cx, cy) drawn up to a point 1.7 r above it."""
    side = math.acos(1 / 1.7)  # where the lines from the point touch the circle
    points = [(cx, cy - 1.7 * r)]
    for i in range(61):
        a = -math.pi / 2 + side + (2 * math.pi - 2 * side) * i / 60
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return points


def _token(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float) -> None:
    shape, fill = TOKENS[kind]
    if shape == "lettered-circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
        centred(draw, (cx, cy + 1), "C", _face(DIGITS, r * 1.2), WHITE)
    elif shape == "octagon":
        draw.polygon(polygon(cx, cy, r * 1.05, 8, math.pi / 8), fill=fill)
    else:
        draw.polygon(polygon(cx, cy, r * 1.05, 5, -math.pi / 2), fill=fill)


def _slot_tokens(draw: ImageDraw.ImageDraw, box: Box, counts: dict[str, int]) -> None:
    """A slot's tokens in rows of two (the data's order), centred in its box (the data puts
    at most four in a slot)."""
    kinds = [kind for kind, n in counts.items() for _ in range(n)]
    rows = [kinds[i : i + 2] for i in range(0, len(kinds), 2)]
    step = 52
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    for row_index, row in enumerate(rows):
        y = cy - (len(rows) - 1) * step / 2 + row_index * step
        for index, kind in enumerate(row):
            _token(draw, kind, cx - (len(row) - 1) * step / 2 + index * step, y, 21)


def _crown(draw: ImageDraw.ImageDraw, cx: float, base: float) -> None:
    """A small red crown standing on `base`: three points over a band."""
    points = [(cx - 30, base), (cx - 30, base - 24), (cx - 15, base - 12), (cx, base - 30)]
    points += [(cx + 15, base - 12), (cx + 30, base - 24), (cx + 30, base)]
    draw.polygon(points, fill=RED)


def _bam(draw: ImageDraw.ImageDraw, width: int) -> None:
    """BAM! on a red tab hanging from the top edge at the centre."""
    draw.rounded_rectangle((width / 2 - 86, 8, width / 2 + 86, 74), 16, fill=RED)
    centred(draw, (width / 2, 44), "BAM!", _face(DIGITS, 40), WHITE)


# ---------------------------------------------------------------- run-in text


def _block(
    draw: ImageDraw.ImageDraw,
    box: Box,
    paragraphs: list[list[Run]],
    size: float,
    draw_it: bool = True,
) -> float:
    """Paragraphs of runs from the box's top (words on a common baseline); the height used."""

    def faces(face: str) -> ImageFont.FreeTypeFont:
        return _face(face, size)

    y = box[1]
    for index, runs in enumerate(paragraphs):
        for line in run_lines(draw, runs, box[2] - box[0], faces):
            if draw_it:
                for x, word, f, colour in line:
                    draw.text((box[0] + x, y + size), word, font=f, fill=colour, anchor="ls")
            y += size * 1.3
        if index < len(paragraphs) - 1:
            y += size * 0.55
    return y - box[1]


def _fit(draw: ImageDraw.ImageDraw, box: Box, paragraphs: list[list[Run]], size: float) -> float:
    while size > 14 and _block(draw, box, paragraphs, size, draw_it=False) > box[3] - box[1]:
        size *= 0.95
    return size


# ---------------------------------------------------------------- the cards


def _masterplan(card: Card) -> tuple[Image.Image, list[str] | None]:
    data = card.data
    image, draw = _frame(SIZE)
    if data.get("bam"):
        _bam(draw, SIZE[0])
    _title(draw, f"{card.villain} {data['n']}", 60, 624, 122)
    _rules(draw, 46, 698, 166)
    # the Move value, bottom left: white on a slate shield, "MOVE" over the number
    draw.polygon(shield(118, 840, 140, 164), fill=SLATE, outline=INK, width=3)
    centred(draw, (118, 868), "MOVE", _face(DIGITS, 26), WHITE)
    move = str(move_of(data))
    low = 34 if move == "*" else 0  # an asterisk sits high in its line
    centred(draw, (118, 928 + low), move, _face(DIGITS, 78 if not low else 140), WHITE)
    place, diagram = slots_of(data.get("place")), None
    if place == "none":
        centred(draw, (452, 934), "No tokens placed.", _face(TEXT_I, 36), INK)
    elif isinstance(place, dict):
        anchor = data["place"].get("anchor")
        diagram = ["left", anchor or "villain", "right"]
        for index, slot in enumerate(("left", "villain", "right")):
            box = (214 + index * 162, 870, 364 + index * 162, 1000)
            villain = slot == "villain"
            edge, width = (RED, 7) if villain else (SLATE, 3)
            draw.rounded_rectangle(box, 22, fill=SLOT, outline=edge, width=width)
            if villain:
                _crown(draw, (box[0] + box[2]) / 2, box[1] - 6)
            if villain and anchor:  # a manhole cover with bars
                cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
                draw.ellipse((cx - 48, cy - 48, cx + 48, cy + 48), fill=COVER, outline=INK, width=3)
                for dy in (-24, 0, 24):
                    half = math.sqrt(48**2 - dy**2) - 10
                    draw.line((cx - half, cy + dy, cx + half, cy + dy), fill=INK, width=5)
            _slot_tokens(draw, box, place[slot])
    paragraphs: list[list[Run]] = []
    if movement_of(data):
        paragraphs.append([(TEXT_I, movement_of(data), INK)])
    for effect in data.get("effects", []):
        runs: list[Run] = []
        if effect.get("name"):
            runs.append((TITLE, f"{effect['name']}:", DARK_RED))
        runs.append((TEXT, effect["text"], INK))
        paragraphs.append(runs)
    if paragraphs:
        room = (60.0, 204.0, 684.0, 810.0)
        _block(draw, room, paragraphs, _fit(draw, room, paragraphs, 38))
    return image, diagram


def _threat(card: Card) -> Image.Image:
    data = card.data
    image, draw = _frame(SIZE)
    _title(draw, data["name"], SIZE[0] / 2, -(SIZE[0] - 140), 112)
    draw.line((120, 164, SIZE[0] - 120, 164), fill=SLATE, width=3)
    draw.polygon(polygon(SIZE[0] / 2, 164, 12, 4, -math.pi / 2), fill=SLATE)
    box = (92.0, 232.0, 652.0, 780.0)
    paragraphs: list[list[Run]] = [[(TEXT, data["text"], INK)]]
    size = _fit(draw, box, paragraphs, 44)
    used = _block(draw, box, paragraphs, size, draw_it=False)
    draw.rectangle((64, 204, 680, 204 + used + 56), fill=WHITE, outline=SLATE, width=3)
    _block(draw, box, paragraphs, size)
    if data.get("health") is not None:
        draw.polygon(drop(132, 930, 66), fill=RED, outline=DARK_RED, width=3)
        centred(draw, (132, 936), str(data["health"]), _face(DIGITS, 74), WHITE)
    return image


def _table(draw: ImageDraw.ImageDraw, card: Card, x0: float, top: float) -> None:
    """The player-count table, upright at the right edge: "Heroes" and "Health" columns."""
    cell, row = 130, 76
    draw.rectangle((x0, top, x0 + 2 * cell, top + 60), fill=SLATE)
    for index, label in enumerate(("Heroes", "Health")):
        centred(draw, (x0 + cell * (index + 0.5), top + 30), label, _face(DIGITS, 30), WHITE)
    digits = _face(DIGITS, 44)
    for index, (players, health) in enumerate(card.player_count.items()):
        y = top + 60 + index * row
        draw.rectangle((x0, y, x0 + cell, y + row), fill=PALE, outline=SLATE, width=2)
        draw.rectangle((x0 + cell, y, x0 + 2 * cell, y + row), fill=WHITE, outline=SLATE, width=2)
        centred(draw, (x0 + cell / 2, y + row / 2), str(players), digits, INK)
        if health is not None:
            centred(draw, (x0 + cell * 1.5, y + row / 2), str(health), digits, DARK_RED)


def _dashboard(card: Card) -> Image.Image:
    image, draw = _frame(BOARD)
    _title(draw, card.villain, 70, 1200, 100)
    _rules(draw, 46, BOARD[0] - 46, 152)
    table_left = BOARD[0] - 70 - 260
    _table(draw, card, table_left, 200)
    columns, gutter, left, right = card.columns, 70, 70, table_left - 60
    width, chunks = columns_of(card.sections, columns, left, right, gutter)
    top, bottom = 196, BOARD[1] - 60
    size = 38.0
    for index, chunk in enumerate(chunks):
        x = left + index * (width + gutter)
        paragraphs = [[(TEXT, s["text"], INK)] for s in chunk]
        room = (x, top, x + width, bottom - len(chunk) * 84)  # a heading and its rule each
        size = min(size, _fit(draw, room, paragraphs, 38))
    for index, chunk in enumerate(chunks):
        x, y = left + index * (width + gutter), float(top)
        for section in chunk:
            draw.line((x, y, x + width, y), fill=SLATE, width=2)
            mid = y + size * 1.05
            draw.rectangle((x, mid - 9, x + 18, mid + 9), fill=SLATE)
            f = _face(HEAD, size * 1.15)
            draw.text((x + 32, mid), section["heading"], font=f, fill=DARK_RED, anchor="lm")
            y += size * 1.9
            box = (x, y, x + width, float(bottom))
            y += _block(draw, box, [[(TEXT, section["text"], INK)]], size)
            y += size * 0.9
    return image
