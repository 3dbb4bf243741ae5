"""design-f (development: held out until it was measured, then design-g took its place).
Light on dark: a charcoal card inside a gold line with cut corners, cream text; fonts
from URW's base 35 (fonts-urw-base35): the title in URW Gothic Demi, body text in C059
(a Century Schoolbook), the movement sentence in C059 Italic, numbers in URW Bookman Demi.
The Move value at the top left, dark on a gold disc, with no word beside it; the title to
its right over a gold rule. Effect names run in, gold URW Gothic Demi, "Name — text" on
one line. BAM! as the word, white URW Gothic Demi Oblique, turned 45 degrees on a red
sash across the bottom right corner. The placement diagram a column of three hexagons at
the right edge, top to bottom the left, the Villain's and the right Location (the
Villain's with a thick gold edge and a gold pointer at its left; Lizard's Sewer a green
grate in its place); Civilians as light-green houses, Thugs as orange triangles pointing
down. Threats: the title centred, Health as a white number in a red heart at the bottom
centre, no word. Dashboards: headings gold with a gold diamond before them and a gold rule
running on to the column's edge, two columns parted by a gold line (or one); the
player-count table at the top right: "Heroes", then each count on a gold disc beside its
Health in a red heart."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw, ImageFont

from .data import Card, dashboard, masterplan, move_of, movement_of, slots_of, threat
from .draw import by_kind, canvas, centred, columns_of, polygon, run_lines

NAME = "design-f"
JOINER = " — "
LIGHT_ON_DARK = True  # cream ink on a charcoal card, everywhere
SIZE, BOARD = (744, 1044), (1830, 1150)
CHARCOAL, CREAM, GOLD = (30, 28, 34), (238, 230, 208), (222, 176, 64)
RED, DULL, SLOT, GRATE = (196, 36, 48), (150, 128, 80), (58, 54, 64), (28, 96, 64)
TOKENS = {
    "civilian": ("house", (120, 214, 120)),
    "thug": ("down-triangle", (244, 128, 36)),
    "crisis": ("star", (170, 110, 230)),
}
URW = "/usr/share/fonts/opentype/urw-base35"  # fonts-urw-base35
TITLE, TITLE_O, LABEL = "URWGothic-Demi.otf", "URWGothic-DemiOblique.otf", "URWGothic-Book.otf"
TEXT, TEXT_I, DIGITS = "C059-Roman.otf", "C059-Italic.otf", "URWBookman-Demi.otf"
Colour = tuple[int, int, int]
Run = tuple[str, str, Colour]  # font file, text, colour
Words = list[tuple[float, str, ImageFont.FreeTypeFont, Colour]]


def cards() -> list[Card]:
    d = NAME
    return [
        masterplan(d, "multiverse-ks-promos/lizard", 2),
        masterplan(d, "multiverse-ks-promos/lizard", 9),
        masterplan(d, "ks-promos/venom", 10),
        masterplan(d, "ks-promos/dormammu", 3),
        masterplan(d, "multiverse-ks-promos/mole-man", 10),
        masterplan(d, "multiverse-ks-promos/crimson-dynamo", 7),
        masterplan(d, "multiverse-ks-promos/knull", 6),
        masterplan(d, "ks-promos/corvus-glaive", 1),  # "No tokens placed."
        threat(d, "multiverse-ks-promos/knull", "Venom T-Rex"),
        threat(d, "multiverse-ks-promos/knull", "Symbiote Dragon"),
        threat(d, "multiverse-ks-promos/lizard", "Danger: Alligators!"),  # no Health
        # the only two Dashboards no other design drew (no other card of theirs is in the data)
        dashboard(d, "multiverse-ks-promos/chameleon", 2),
        dashboard(d, "multiverse-ks-promos/high-evolutionary", 1, order=("bam", "overflow")),
    ]


def paint(card: Card) -> tuple[Image.Image, list[str] | None]:
    painted: tuple[Image.Image, list[str] | None] = by_kind(card, _masterplan, _threat, _dashboard)
    return painted


def _face(name: str, size: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(f"{URW}/{name}", max(6, round(size)))


def _frame(size: tuple[int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """The charcoal card and its gold line with cut corners."""
    image, draw = canvas(size, CHARCOAL)
    w, h, m, cut = size[0], size[1], 22, 34
    outline = [
        (m + cut, m),
        (w - m - cut, m),
        (w - m, m + cut),
        (w - m, h - m - cut),
        (w - m - cut, h - m),
        (m + cut, h - m),
        (m, h - m - cut),
        (m, m + cut),
    ]
    draw.polygon(outline, outline=GOLD, width=4)
    return image, draw


def _title(draw: ImageDraw.ImageDraw, text: str, left: float, right: float, y: float) -> float:
    """The title in URW Gothic Demi, shrunk to fit; centred when `left` is negative
    (then `right` is the card's width). Returns its size."""
    room = right - 2 * 70 if left < 0 else right - left
    f = _face(TITLE, 54)
    while draw.textlength(text, font=f) > room and f.size > 24:
        f = _face(TITLE, f.size - 2)
    if left < 0:
        centred(draw, (right / 2, y), text, f, CREAM)
    else:
        draw.text((left, y), text, font=f, fill=CREAM, anchor="lm")
    return float(f.size)


# ---------------------------------------------------------------- shapes


def heart(cx: float, cy: float, width: float) -> list[tuple[float, float]]:
    """A heart `width` wide centred at (cx, cy), from the classic parametric curve."""
    s = width / 32
    points = []
    for i in range(96):
        t = 2 * math.pi * i / 96
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((cx + s * x, cy - s * (y + 2.5)))
    return points


def _heart_with(draw: ImageDraw.ImageDraw, cx: float, cy: float, width: float, text: str) -> None:
    draw.polygon(heart(cx, cy, width + max(6, width / 16)), fill=CREAM)  # a cream edge
    draw.polygon(heart(cx, cy, width), fill=RED)
    centred(draw, (cx, cy - width * 0.02), text, _face(DIGITS, width * 0.44), (255, 255, 255))


def _token(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float) -> None:
    shape, fill = TOKENS[kind]
    if shape == "house":  # a square with a pitched roof
        draw.polygon(
            [
                (cx, cy - r),
                (cx + r * 0.9, cy - r * 0.2),
                (cx + r * 0.9, cy + r * 0.9),
                (cx - r * 0.9, cy + r * 0.9),
                (cx - r * 0.9, cy - r * 0.2),
            ],
            fill=fill,
        )
    elif shape == "down-triangle":
        draw.polygon(polygon(cx, cy - r * 0.15, r * 1.1, 3, math.pi / 2), fill=fill)
    else:  # a five-pointed star
        points = []
        for i in range(10):
            radius = r * (1.0 if i % 2 == 0 else 0.45)
            a = -math.pi / 2 + math.pi * i / 5
            points.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
        draw.polygon(points, fill=fill)


def _slot_tokens(draw: ImageDraw.ImageDraw, cx: float, cy: float, counts: dict[str, int]) -> None:
    """A hexagon's tokens in rows of two (the data's order), centred."""
    kinds = [kind for kind, n in counts.items() for _ in range(n)]
    rows = [kinds[i : i + 2] for i in range(0, len(kinds), 2)]
    step = 56
    for row_index, row in enumerate(rows):
        y = cy - (len(rows) - 1) * step / 2 + row_index * step
        for index, kind in enumerate(row):
            _token(draw, kind, cx - (len(row) - 1) * step / 2 + index * step, y, 23)


def _bam(image: Image.Image) -> None:
    """BAM! on a red sash across the bottom right corner, the word turned 45 degrees."""
    draw = ImageDraw.Draw(image)
    w, h = image.size
    draw.polygon([(w - 250, h), (w - 140, h), (w, h - 140), (w, h - 250)], fill=RED)
    f = _face(TITLE_O, 50)
    word = Image.new("L", (260, 90), 0)
    ImageDraw.Draw(word).text((130, 45), "BAM!", font=f, fill=255, anchor="mm")
    turned = word.rotate(45, resample=Image.Resampling.BICUBIC, expand=True)
    cx, cy = w - 98, h - 98
    white = Image.new("RGB", turned.size, (255, 255, 255))
    image.paste(white, (round(cx - turned.width / 2), round(cy - turned.height / 2)), turned)


# ---------------------------------------------------------------- run-in text


def _lines(draw: ImageDraw.ImageDraw, runs: list[Run], size: float, width: float) -> list[Words]:
    """Runs of mixed faces wrapped word by word (draw.run_lines), each in its face at `size`."""
    return run_lines(
        draw, runs, width, lambda face: _face(face, size if face != TITLE else size * 0.92)
    )


def _block(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    paragraphs: list[list[Run]],
    size: float,
    draw_it: bool = True,
) -> float:
    """Paragraphs of runs from the box's top (words on a common baseline); the height used."""
    y = box[1]
    for index, runs in enumerate(paragraphs):
        for line in _lines(draw, runs, size, box[2] - box[0]):
            if draw_it:
                for x, word, f, colour in line:
                    draw.text((box[0] + x, y + size), word, font=f, fill=colour, anchor="ls")
            y += size * 1.3
        if index < len(paragraphs) - 1:
            y += size * 0.6
    return y - box[1]


def _fit(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    paragraphs: list[list[Run]],
    size: float,
) -> float:
    while size > 14 and _block(draw, box, paragraphs, size, draw_it=False) > box[3] - box[1]:
        size *= 0.95
    return size


# ---------------------------------------------------------------- the cards


def _masterplan(card: Card) -> tuple[Image.Image, list[str] | None]:
    data = card.data
    image, draw = _frame(SIZE)
    # the Move value, top left: dark on a gold disc, no word
    draw.ellipse((52, 56, 184, 188), fill=GOLD)
    draw.ellipse((62, 66, 174, 178), outline=CHARCOAL, width=3)
    move = str(move_of(data))
    low = 22 if move == "*" else 0  # an asterisk sits high in its line: down to the middle
    centred(draw, (118, 124 + low), move, _face(DIGITS, 84 if low == 0 else 110), CHARCOAL)
    _title(draw, f"{card.villain} {data['n']}", 208, 700, 122)
    draw.line((40, 214, 704, 214), fill=GOLD, width=3)
    place, diagram = slots_of(data.get("place")), None
    right, bottom = 692.0, 830.0 if data.get("bam") else 990.0
    if place == "none":
        draw.text((52, 950), "No tokens placed.", font=_face(TEXT_I, 34), fill=CREAM, anchor="ls")
        bottom = 890
    elif isinstance(place, dict):
        anchor = data["place"].get("anchor")
        diagram = ["left", anchor or "villain", "right"]
        for index, slot in enumerate(("left", "villain", "right")):
            cx, cy = 628, 340 + index * 162
            villain = slot == "villain"
            hexagon = polygon(cx, cy, 76, 6)
            fill = GRATE if villain and anchor else SLOT
            edge, width = (GOLD, 8) if villain else (DULL, 3)
            draw.polygon(hexagon, fill=fill, outline=edge, width=width)
            if villain:
                draw.polygon([(520, cy - 18), (520, cy + 18), (546, cy)], fill=GOLD)
            if villain and anchor:  # a sewer grate
                for yy in range(cy - 36, cy + 40, 18):
                    draw.line((cx - 44, yy, cx + 44, yy), fill=(200, 230, 210), width=5)
            _slot_tokens(draw, cx, cy, place[slot])
        right, bottom = 500.0, 990.0
    paragraphs: list[list[Run]] = []
    if movement_of(data):
        paragraphs.append([(TEXT_I, movement_of(data), CREAM)])
    for effect in data.get("effects", []):
        runs: list[Run] = []
        if effect.get("name"):
            runs.append((TITLE, f"{effect['name']} —", GOLD))
        runs.append((TEXT, effect["text"], CREAM))
        paragraphs.append(runs)
    if paragraphs:
        box = (52.0, 246.0, right, bottom)
        _block(draw, box, paragraphs, _fit(draw, box, paragraphs, 36))
    if data.get("bam"):
        _bam(image)
    return image, diagram


def _threat(card: Card) -> Image.Image:
    data = card.data
    image, draw = _frame(SIZE)
    _title(draw, data["name"], -1, SIZE[0], 110)
    draw.line((40, 180, 704, 180), fill=GOLD, width=3)
    box = (70.0, 226.0, 674.0, 800.0)
    paragraphs: list[list[Run]] = [[(TEXT, data["text"], CREAM)]]
    _block(draw, box, paragraphs, _fit(draw, box, paragraphs, 46))
    if data.get("health") is not None:
        _heart_with(draw, 372, 912, 190, str(data["health"]))
    return image


def _dashboard(card: Card) -> Image.Image:
    image, draw = _frame(BOARD)
    # the player-count table, top right: "Heroes", then each count on a gold disc beside
    # its Health in a red heart
    rows, cell = list(card.player_count.items()), 196
    x0 = BOARD[0] - 70 - cell * len(rows)
    draw.text((x0 - 16, 112), "Heroes", font=_face(LABEL, 40), fill=CREAM, anchor="rm")
    for index, (players, health) in enumerate(rows):
        cx = x0 + index * cell
        draw.ellipse((cx + 4, 80, cx + 68, 144), fill=GOLD)
        centred(draw, (cx + 36, 113), str(players), _face(DIGITS, 40), CHARCOAL)
        if health is not None:
            _heart_with(draw, cx + 128, 114, 100, str(health))
    _title(draw, card.villain, 70, x0 - 220, 112)
    draw.line((40, 200, BOARD[0] - 40, 200), fill=GOLD, width=3)
    columns, gutter, left, right = card.columns, 90, 70, BOARD[0] - 70
    width, chunks = columns_of(card.sections, columns, left, right, gutter)
    top, bottom = 236, BOARD[1] - 60
    size = 38.0
    for index, chunk in enumerate(chunks):
        x = left + index * (width + gutter)
        paragraphs = [[(TEXT, s["text"], CREAM)] for s in chunk]
        room = (x, top, x + width, bottom - len(chunk) * 80)  # the headings take a line each
        size = min(size, _fit(draw, room, paragraphs, 38))
    for index in range(1, columns):  # a gold line between the columns
        x = left + index * (width + gutter) - gutter / 2
        draw.line((x, top, x, bottom), fill=GOLD, width=2)
    for index, chunk in enumerate(chunks):
        x, y = left + index * (width + gutter), float(top)
        for section in chunk:
            f = _face(TITLE, size * 1.12)
            mid = y + size * 0.7
            draw.polygon(polygon(x + 11, mid, 11, 4, -math.pi / 2), fill=GOLD)
            draw.text((x + 32, mid), section["heading"], font=f, fill=GOLD, anchor="lm")
            end = x + 32 + draw.textlength(section["heading"], font=f) + 18
            draw.line((end, mid, x + width, mid), fill=GOLD, width=2)
            y += size * 1.4 + size * 0.35
            box = (x, y, x + width, float(bottom))
            y += _block(draw, box, [[(TEXT, section["text"], CREAM)]], size)
            y += size * 0.8
    return image
