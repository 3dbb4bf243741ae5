"""design-e (development: held out until it was measured, then design-f took its place).
A mint card in a double olive rule; the title centred at the top inside an olive pill
outline, in Liberation Sans Narrow Bold; body text in DejaVu Serif Condensed, effect
names run in (bold italic, "Name." then the text on the same line); the Move value at
the bottom right, white on a black square with "Move" to its left; BAM! at the bottom
left, as the word in a coral jagged balloon on odd-numbered cards and as a mark only (a
lime lightning bolt on a coral disc) on even ones; the placement diagram three round
slots in the lower middle, the Villain's with a thick olive ring and an olive chevron
under it; Civilians as teal plus crosses, Thugs as brown squares with a slash (Crisis,
if a card had one, a coral X). Threats: Health bottom centre on a coral shield, "Health"
over it. Dashboards: headings dark on lime tags, the player-count table at the top
right ("Heroes" and "Health" rows, DejaVu Sans Mono Bold digits), one or two columns."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .data import Card, dashboard, masterplan, move_of, movement_of, slots_of, threat
from .draw import by_kind, canvas, centred, columns_of, font, run_lines, star

NAME = "design-e"
JOINER = ". "
SIZE, BOARD = (744, 1044), (1830, 1150)
MINT, OLIVE, INK = (233, 240, 234), (46, 62, 34), (22, 26, 24)
CORAL, LIME, SLOT = (232, 92, 70), (196, 220, 70), (214, 226, 214)
TOKENS = {
    "civilian": ("plus", (0, 150, 120)),
    "thug": ("slashed-square", (110, 62, 28)),
    "crisis": ("x", CORAL),
}
TEXT, TEXT_I = "DejaVuSerifCondensed.ttf", "DejaVuSerifCondensed-Italic.ttf"
NAME_FACE, DIGITS = "DejaVuSerifCondensed-BoldItalic.ttf", "DejaVuSansMono-Bold.ttf"
NARROW = "/usr/share/fonts/truetype/liberation"  # fonts-liberation (v1) has the Narrow faces
TITLE, LABEL = "LiberationSansNarrow-Bold.ttf", "LiberationSansNarrow-Regular.ttf"
Colour = tuple[int, int, int]
Run = tuple[str, str, Colour]  # font file, text, colour


def cards() -> list[Card]:
    d = NAME
    return [
        masterplan(d, "ks-promos/baron-zemo", 3),
        masterplan(d, "ks-promos/baron-zemo", 5),
        masterplan(d, "ks-promos/baron-zemo", 10),
        masterplan(d, "multiverse-ks-promos/hobgoblin", 3),
        masterplan(d, "multiverse-ks-promos/hobgoblin", 7),
        masterplan(d, "multiverse-ks-promos/klaw", 1),
        masterplan(d, "multiverse-ks-promos/klaw", 8),
        masterplan(d, "multiverse-ks-promos/crossbones", 2),
        threat(d, "ks-promos/baron-zemo", "Moonstone"),
        threat(d, "multiverse-ks-promos/hobgoblin", "Pumpkin Bomb Trap"),
        threat(d, "multiverse-ks-promos/klaw", "Solid Sound Body"),
        # no threat in the data has a two-digit Health; these Dashboards do (10 to 13)
        dashboard(d, "multiverse-ks-promos/abomination", 2, order=("overflow",)),
        dashboard(d, "ks-promos/corvus-glaive", 1),
    ]


def paint(card: Card) -> tuple[Image.Image, list[str] | None]:
    painted: tuple[Image.Image, list[str] | None] = by_kind(card, _masterplan, _threat, _dashboard)
    return painted


def _face(name: str, size: float) -> ImageFont.FreeTypeFont:
    if name in (TITLE, LABEL):
        return ImageFont.truetype(f"{NARROW}/{name}", max(6, round(size)))
    return font(name, size)


def _frame(size: tuple[int, int], title: str, centre: bool) -> tuple[Image.Image, Any]:
    image, draw = canvas(size, MINT)
    draw.rectangle((8, 8, size[0] - 9, size[1] - 9), outline=OLIVE, width=8)
    draw.rectangle((26, 26, size[0] - 27, size[1] - 27), outline=OLIVE, width=2)
    f = _face(TITLE, 56)
    room = size[0] - 160 if centre else size[0] * 0.55
    while draw.textlength(title, font=f) > room and f.size > 24:
        f = _face(TITLE, f.size - 2)
    width = draw.textlength(title, font=f)
    x = (size[0] - width) / 2 if centre else 70
    draw.rounded_rectangle((x - 30, 48, x + width + 30, 122), 37, outline=OLIVE, width=4)
    draw.text((x, 85), title, font=f, fill=OLIVE, anchor="lm")
    return image, draw


# ---------------------------------------------------------------- run-in text


def _lines(draw: ImageDraw.ImageDraw, runs: list[Run], size: float, width: float) -> list[Any]:
    """Runs of mixed faces wrapped word by word (draw.run_lines), each in its face at `size`."""
    return run_lines(draw, runs, width, lambda face: _face(face, size))


def _block(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    paragraphs: list[list[Run]],
    size: float,
    draw_it: bool = True,
) -> float:
    """Paragraphs of runs from the box's top; returns the height used."""
    y = box[1]
    for index, runs in enumerate(paragraphs):
        for line in _lines(draw, runs, size, box[2] - box[0]):
            if draw_it:
                for x, word, f, colour in line:
                    draw.text((box[0] + x, y), word, font=f, fill=colour)
            y += size * 1.28
        if index < len(paragraphs) - 1:
            y += size * 0.45
    return y - box[1]


def _fit(draw: ImageDraw.ImageDraw, box: Any, paragraphs: list[list[Run]], size: float) -> float:
    while size > 14 and _block(draw, box, paragraphs, size, draw_it=False) > box[3] - box[1]:
        size *= 0.95
    return size


# ---------------------------------------------------------------- tokens


def _token(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float) -> None:
    shape, fill = TOKENS[kind]
    if shape == "plus":
        arm = r * 0.36
        draw.rectangle((cx - arm, cy - r, cx + arm, cy + r), fill=fill)
        draw.rectangle((cx - r, cy - arm, cx + r, cy + arm), fill=fill)
    elif shape == "slashed-square":
        draw.rounded_rectangle(
            (cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85), 5, fill=fill
        )
        draw.line((cx - r * 0.55, cy + r * 0.55, cx + r * 0.55, cy - r * 0.55), fill=MINT, width=6)
    else:  # an X
        w = max(4, round(r * 0.45))
        draw.line((cx - r, cy - r, cx + r, cy + r), fill=fill, width=w)
        draw.line((cx - r, cy + r, cx + r, cy - r), fill=fill, width=w)


def _slot(draw: ImageDraw.ImageDraw, cx: float, cy: float, counts: dict[str, int]) -> None:
    """A round slot's tokens: one row of up to three, a second row under it."""
    kinds = [kind for kind, n in counts.items() for _ in range(n)]
    rows = (
        [kinds[i : i + 3] for i in range(0, len(kinds), 3)]
        if len(kinds) != 4
        else [
            kinds[:2],
            kinds[2:],
        ]
    )
    step = 50
    for row_index, row in enumerate(rows):
        y = cy - (len(rows) - 1) * step / 2 + row_index * step
        for index, kind in enumerate(row):
            _token(draw, kind, cx - (len(row) - 1) * step / 2 + index * step, y, 18)


# ---------------------------------------------------------------- the cards


def _bam(draw: ImageDraw.ImageDraw, n: int) -> None:
    """BAM! at the bottom left: the word on odd-numbered cards, a mark only on even ones."""
    if n % 2:
        draw.polygon(star(150, 942, 80, 60, 14, 0.2), fill=MINT, outline=CORAL, width=5)
        centred(draw, (150, 944), "BAM!", _face(TITLE, 44), CORAL)
    else:
        draw.ellipse((85, 880, 215, 1010), fill=CORAL)
        bolt = [(162, 895), (112, 952), (145, 952), (128, 998), (188, 932), (154, 932), (178, 895)]
        draw.polygon(bolt, fill=LIME, outline=INK, width=3)


def _masterplan(card: Card) -> tuple[Image.Image, list[str] | None]:
    data = card.data
    image, draw = _frame(SIZE, f"{card.villain} {data['n']}", True)
    # the Move value, bottom right
    draw.rectangle((588, 888, 708, 1008), fill=INK)
    centred(draw, (648, 950), str(move_of(data)), font(DIGITS, 92), (255, 255, 255))
    draw.text((572, 948), "Move", font=_face(LABEL, 40), fill=OLIVE, anchor="rm")
    if data.get("bam"):
        _bam(draw, data["n"])
    place, diagram = slots_of(data.get("place")), None
    bottom = 860
    if place == "none":
        centred(draw, (372, 790), "No tokens placed.", font(TEXT_I, 34), INK)
        bottom = 740
    elif isinstance(place, dict):
        diagram = ["left", "villain", "right"]
        for index, slot in enumerate(diagram):
            cx, cy = 172 + index * 200, 760
            villain = slot == "villain"
            draw.ellipse(
                (cx - 86, cy - 86, cx + 86, cy + 86),
                fill=SLOT,
                outline=OLIVE,
                width=12 if villain else 3,
            )
            if villain:
                draw.polygon([(cx - 24, 858), (cx + 24, 858), (cx, 878)], fill=OLIVE)
            _slot(draw, cx, cy, place[slot])
        bottom = 650
    paragraphs: list[list[Run]] = []
    if movement_of(data):
        paragraphs.append([(TEXT_I, movement_of(data), INK)])
    for effect in data.get("effects", []):
        runs: list[Run] = []
        if effect.get("name"):
            runs.append((NAME_FACE, f"{effect['name']}.", OLIVE))
        runs.append((TEXT, effect["text"], INK))
        paragraphs.append(runs)
    if paragraphs:
        box = (62, 160, 682, bottom)
        _block(draw, box, paragraphs, _fit(draw, box, paragraphs, 36))
    return image, diagram


def _threat(card: Card) -> Image.Image:
    data = card.data
    image, draw = _frame(SIZE, data["name"], True)
    box = (84, 180, 680, 790)
    paragraphs: list[list[Run]] = [[(TEXT, data["text"], INK)]]
    size = _fit(draw, box, paragraphs, 40)
    used = _block(draw, box, paragraphs, size, draw_it=False)
    draw.rectangle((56, 160, 688, 160 + used + 40), outline=OLIVE, width=3)
    draw.rectangle((56, 160, 70, 160 + used + 40), fill=LIME)
    _block(draw, box, paragraphs, size)
    if data.get("health") is not None:
        centred(draw, (372, 850), "Health", _face(LABEL, 40), OLIVE)
        shield = [(292, 880), (452, 880), (452, 950), (372, 1010), (292, 950)]
        draw.polygon(shield, fill=CORAL)
        centred(draw, (372, 938), str(data["health"]), font(DIGITS, 76), (255, 255, 255))
    return image


def _dashboard(card: Card) -> Image.Image:
    image, draw = _frame(BOARD, card.villain, False)
    # the player-count table, top right: a "Heroes" row over a "Health" row
    cell, rows = 96, list(card.player_count.items())
    x0 = BOARD[0] - 70 - cell * len(rows)
    label = _face(LABEL, 38)
    draw.text((x0 - 20, 78), "Heroes", font=label, fill=OLIVE, anchor="rm")
    draw.text((x0 - 20, 158), "Health", font=label, fill=OLIVE, anchor="rm")
    for index, (players, health) in enumerate(rows):
        x = x0 + index * cell
        draw.rectangle((x, 42, x + cell, 114), fill=OLIVE, outline=INK, width=2)
        draw.rectangle((x, 122, x + cell, 194), fill=MINT, outline=INK, width=2)
        centred(draw, (x + cell / 2, 78), str(players), font(DIGITS, 44), LIME)
        value = "" if health is None else str(health)
        centred(draw, (x + cell / 2, 158), value, font(DIGITS, 44), CORAL)
    columns, gutter, left, right = card.columns, 70, 70, BOARD[0] - 70
    width, chunks = columns_of(card.sections, columns, left, right, gutter)
    top, bottom = 230, BOARD[1] - 60
    size = 38.0
    for index, chunk in enumerate(chunks):
        x = left + index * (width + gutter)
        paragraphs = [[(TEXT, s["text"], INK)] for s in chunk]
        room = (x, top, x + width, bottom - len(chunk) * 70)  # the tags take a line each
        size = min(size, _fit(draw, room, paragraphs, 38))
    for index, chunk in enumerate(chunks):
        x, y = left + index * (width + gutter), float(top)
        for section in chunk:
            f = _face(TITLE, size * 1.15)
            tag = draw.textlength(section["heading"], font=f)
            draw.rounded_rectangle((x, y, x + tag + 28, y + size * 1.5), 8, fill=LIME)
            draw.text((x + 14, y + size * 0.75), section["heading"], font=f, fill=INK, anchor="lm")
            y += size * 1.5 + size * 0.4
            y += _block(draw, (x, y, x + width, bottom), [[(TEXT, section["text"], INK)]], size)
            y += size * 0.7
    return image
