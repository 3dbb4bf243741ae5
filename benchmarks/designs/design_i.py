"""design-i (development: held out until measured on 2026-12-04, then design-j took its place).
A lavender card with aubergine ink inside an aubergine border with rounded corners and a
thin magenta line within it; fonts Caladea (fonts-crosextra-caladea) for the title (Bold)
and the Dashboard headings (Bold Italic), Lato (fonts-lato) for the body text (Regular),
the movement sentence (Italic) and labels, tags and numbers (Black). The title at the top
left over a dotted tangerine rule. The Move value at the top right, a white number on an
aubergine pennant hanging from the border, its foot cut in a V, the word "MOVE" in tangerine
over the number. The placement diagram a lighter band across the card right under the
title, holding three arch-topped slots standing on one line with gaps between them, left to
right the left, the Villain's and the right Location; the Villain's slot taller and wider
than the others, with a thick magenta double border (all three the same near-white fill);
Lizard's Sewer a grey pipe mouth with dark water in its place; "No tokens placed." in
italics in the band when nothing is placed; no band when the card has no diagram. The text
below the band: the movement sentence, then each effect with its name run in as a white
Lato Black tag on a magenta rounded bar, then the text on the same line ("Name text").
Civilians as golden-yellow hexagons with an aubergine edge, Thugs as dark teal squares with
a thin white square inside. BAM! as the word, magenta Lato Black in a magenta
double-outlined rubber stamp turned 8 degrees, at the bottom right. Threats: Health at the
top left, an aubergine number on a tangerine plus-shaped cross with the word "Health" under it,
the title to its right (at the left edge when there is no Health), the text in a near-white
panel with a tangerine bar down its left side. Dashboards: the title at the top left over
a dotted tangerine rule; each section with a tangerine bar down its left side, its heading
magenta Caladea Bold Italic, the text under it; one or two columns; the player-count table
across the whole bottom of the card as an aubergine band of two rows, "Heroes" and "Health"
in tangerine at the left, each count in lavender over its Health, an aubergine number on a
tangerine pill (an empty pill outline where the data has no value)."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw, ImageFont

from .data import Card, dashboard, masterplan, move_of, movement_of, slots_of, threat
from .draw import by_kind, canvas, centred, columns_of, polygon

NAME = "design-i"
JOINER = " "
SIZE, BOARD = (750, 1050), (1790, 1120)
LAVENDER, BAND, SLOT = (231, 224, 242), (214, 203, 234), (251, 249, 253)
AUBERGINE, MAGENTA, TANGERINE = (52, 22, 64), (158, 28, 112), (238, 122, 28)
WHITE, PIPE, WATER = (255, 255, 255), (118, 122, 128), (26, 52, 60)
TOKENS = {
    "civilian": ("hexagon", (244, 184, 28)),
    "thug": ("crate", (14, 108, 116)),
    "crisis": ("diamond", (206, 44, 52)),
}
LATO = "/usr/share/fonts/truetype/lato"  # fonts-lato
CALADEA = "/usr/share/fonts/truetype/crosextra"  # fonts-crosextra-caladea
FACES = {
    "title": f"{CALADEA}/Caladea-Bold.ttf",
    "heading": f"{CALADEA}/Caladea-BoldItalic.ttf",
    "text": f"{LATO}/Lato-Regular.ttf",
    "italic": f"{LATO}/Lato-Italic.ttf",
    "label": f"{LATO}/Lato-Black.ttf",
}
Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]
Word = tuple[str, str]  # text, style: "text", "italic" or "name" (in a tag)


def cards() -> list[Card]:
    d = NAME
    return [
        masterplan(d, "multiverse-ks-promos/crossbones", 7),  # Move 4, three Thugs a slot
        masterplan(d, "multiverse-ks-promos/shocker", 12),  # Move *, a sentence, no BAM!
        masterplan(d, "multiverse-ks-promos/lizard", 4),  # the Sewer in the middle
        masterplan(d, "ks-promos/baron-zemo", 5),  # Move 0, "No tokens placed."
        masterplan(d, "multiverse-ks-promos/crimson-dynamo", 12),  # Move 3, the left empty
        masterplan(d, "multiverse-ks-promos/purple-man", 4),  # Move 1, no diagram
        masterplan(d, "multiverse-ks-promos/mole-man", 3),  # the Villain's slot empty
        masterplan(d, "ks-promos/dormammu", 6),  # Move 5, two in every slot
        masterplan(d, "multiverse-ks-promos/abomination", 6),  # Move *, BAM!
        masterplan(d, "ks-promos/baron-zemo", 12),  # four tokens a side slot, no BAM!
        threat(d, "multiverse-ks-promos/knull", "Symbiote Dragon"),
        threat(d, "ks-promos/baron-zemo", "Moonstone"),
        threat(d, "ks-promos/corvus-glaive", "Civilians in Peril"),  # no Health
        dashboard(d, "multiverse-ks-promos/mole-man", 2),
        dashboard(d, "multiverse-ks-promos/klaw", 1, order=("bam",)),  # no design drew it
    ]


def paint(card: Card) -> tuple[Image.Image, list[str] | None]:
    painted: tuple[Image.Image, list[str] | None] = by_kind(card, _masterplan, _threat, _dashboard)
    return painted


def _face(style: str, size: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FACES[style], max(6, round(size)))


def _frame(size: tuple[int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """The lavender card in an aubergine border with rounded corners, a thin magenta line
    inside it."""
    image, draw = canvas(size, WHITE)
    w, h = size
    draw.rounded_rectangle((0, 0, w - 1, h - 1), 40, fill=AUBERGINE)
    draw.rounded_rectangle((16, 16, w - 17, h - 17), 28, fill=LAVENDER)
    draw.rounded_rectangle((28, 28, w - 29, h - 29), 20, outline=MAGENTA, width=2)
    return image, draw


def _dots(draw: ImageDraw.ImageDraw, left: float, right: float, y: float) -> None:
    """A dotted tangerine rule."""
    x = left
    while x <= right:
        draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=TANGERINE)
        x += 17


def _title(
    draw: ImageDraw.ImageDraw, text: str, xy: tuple[float, float], room: float, size: float
) -> None:
    f = _face("title", size)
    while draw.textlength(text, font=f) > room and f.size > 24:
        f = _face("title", f.size - 2)
    draw.text(xy, text, font=f, fill=AUBERGINE, anchor="lm")


# ---------------------------------------------------------------- words and tags


def _width(draw: ImageDraw.ImageDraw, word: Word, size: float) -> float:
    text, style = word
    if style == "name":
        return draw.textlength(text, font=_face("label", size * 0.86))
    return draw.textlength(text, font=_face(style, size))


def _block(
    draw: ImageDraw.ImageDraw,
    box: Box,
    paragraphs: list[list[Word]],
    size: float,
    ink: Colour | None = AUBERGINE,
) -> float:
    """Paragraphs of styled words wrapped to the box's width from its top (drawn only with
    an ink); an effect's name words on a line share one magenta tag. The height used."""
    y, space, pad = box[1], size * 0.28, size * 0.3
    for index, words in enumerate(paragraphs):
        lines: list[list[tuple[float, float, Word]]] = [[]]
        x = 0.0
        for number, word in enumerate(words):
            w = _width(draw, word, size)
            ends = word[1] == "name" and (
                number + 1 == len(words) or words[number + 1][1] != "name"
            )
            starts = word[1] == "name" and (number == 0 or words[number - 1][1] != "name")
            lead = pad if starts else 0.0
            tail = pad if ends else 0.0
            if lines[-1] and x + lead + w + tail > box[2] - box[0]:
                lines.append([])
                x = 0.0
                lead = pad if word[1] == "name" else 0.0
            lines[-1].append((x + lead, w, word))
            x += lead + w + tail + space
        for line in lines:
            base = y + size
            if ink:
                _tags(draw, box[0], base, line, size, pad)
            for x, _, (text, style) in line if ink else []:
                if style == "name":
                    f = _face("label", size * 0.86)
                    draw.text(
                        (box[0] + x, base - size * 0.04), text, font=f, fill=WHITE, anchor="ls"
                    )
                else:
                    f = _face(style, size)
                    draw.text((box[0] + x, base), text, font=f, fill=ink, anchor="ls")
            y += size * 1.32
        if index < len(paragraphs) - 1:
            y += size * 0.55
    return y - box[1]


def _tags(
    draw: ImageDraw.ImageDraw,
    left: float,
    base: float,
    line: list[tuple[float, float, Word]],
    size: float,
    pad: float,
) -> None:
    """The magenta rounded bar behind each run of name words on a line."""
    runs: list[list[float]] = []
    previous = False
    for x, w, (_, style) in line:
        if style == "name":
            if previous:
                runs[-1][1] = x + w
            else:
                runs.append([x, x + w])
        previous = style == "name"
    for start, end in runs:
        box = (left + start - pad, base - size * 0.86, left + end + pad, base + size * 0.2)
        draw.rounded_rectangle(box, size * 0.3, fill=MAGENTA)


def _fit(draw: ImageDraw.ImageDraw, box: Box, paragraphs: list[list[Word]], size: float) -> float:
    while size > 14 and _block(draw, box, paragraphs, size, ink=None) > box[3] - box[1]:
        size *= 0.95
    return size


def _words(text: str, style: str) -> list[Word]:
    return [(w, style) for w in text.split()]


# ---------------------------------------------------------------- shapes and tokens


def _token(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float) -> None:
    shape, fill = TOKENS[kind]
    if shape == "hexagon":
        draw.polygon(polygon(cx, cy, r * 1.1, 6), fill=fill, outline=AUBERGINE, width=3)
    elif shape == "crate":
        draw.rectangle((cx - r, cy - r, cx + r, cy + r), fill=fill)
        inner = r * 0.58
        draw.rectangle((cx - inner, cy - inner, cx + inner, cy + inner), outline=WHITE, width=3)
    else:
        draw.polygon(polygon(cx, cy, r * 1.1, 4, -math.pi / 2), fill=fill)


def _slot_tokens(draw: ImageDraw.ImageDraw, cx: float, cy: float, counts: dict[str, int]) -> None:
    """A slot's tokens in rows of two (the data's order) centred on (cx, cy); the data puts
    at most four in a slot."""
    kinds = [kind for kind, n in counts.items() for _ in range(n)]
    rows = [kinds[i : i + 2] for i in range(0, len(kinds), 2)]
    step = 54
    for row_index, row in enumerate(rows):
        y = cy - (len(rows) - 1) * step / 2 + row_index * step
        for index, kind in enumerate(row):
            _token(draw, kind, cx - (len(row) - 1) * step / 2 + index * step, y, 20)


def arch(box: Box) -> list[tuple[float, float]]:
    """A slot with a round top: a half circle as wide as the box over straight sides."""
    left, top, right, bottom = box
    r = (right - left) / 2
    cx, cy = left + r, top + r
    points = [(left, bottom), (left, cy)]
    for i in range(1, 36):
        a = math.pi + math.pi * i / 36
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return [*points, (right, cy), (right, bottom)]


def _inset(box: Box, by: float) -> Box:
    return (box[0] + by, box[1] + by, box[2] - by, box[3] - by)


def _sewer(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """Lizard's Sewer: a grey pipe mouth with dark water in it."""
    draw.ellipse((cx - 54, cy - 54, cx + 54, cy + 54), fill=PIPE, outline=AUBERGINE, width=3)
    draw.ellipse((cx - 38, cy - 38, cx + 38, cy + 38), fill=WATER)
    for dy in (8, 24):
        half = math.sqrt(38**2 - dy**2) - 6
        points = [(cx - half + t, cy + dy + 4 * math.sin(t / 7)) for t in range(int(2 * half))]
        draw.line(points, fill=(90, 150, 160), width=3)


def _pennant(draw: ImageDraw.ImageDraw, left: float, right: float, bottom: float) -> None:
    """An aubergine pennant hanging from the top border, its foot cut in a V."""
    mid, notch = (left + right) / 2, 34
    outer = [(left, 10), (right, 10), (right, bottom), (mid, bottom - notch), (left, bottom)]
    draw.polygon(outer, fill=AUBERGINE)
    inner = [(left + 9, 28), (right - 9, 28), (right - 9, bottom - 14)]
    inner += [(mid, bottom - notch - 12), (left + 9, bottom - 14)]
    draw.polygon(inner, outline=TANGERINE, width=2)


def _stamp(image: Image.Image, cx: float, cy: float) -> None:
    """BAM! as a magenta rubber stamp, a double outline round the word, turned 8 degrees."""
    w, h = 250, 110
    layer = Image.new("RGBA", (w + 40, h + 40), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    draw.rounded_rectangle((20, 20, 20 + w, 20 + h), 14, outline=MAGENTA, width=6)
    draw.rounded_rectangle((31, 31, 9 + w, 9 + h), 8, outline=MAGENTA, width=2)
    centred(draw, (20 + w / 2, 20 + h / 2 + 2), "BAM!", _face("label", 74), MAGENTA)
    turned = layer.rotate(8, resample=Image.Resampling.BICUBIC, expand=True)
    image.paste(turned, (round(cx - turned.width / 2), round(cy - turned.height / 2)), turned)


# ---------------------------------------------------------------- the cards


def _masterplan(card: Card) -> tuple[Image.Image, list[str] | None]:
    data = card.data
    image, draw = _frame(SIZE)
    # the Move value: a white number on an aubergine pennant at the top right
    _pennant(draw, 576, 694, 236)
    centred(draw, (635, 64), "MOVE", _face("label", 26), TANGERINE)
    move = str(move_of(data))
    low = 30 if move == "*" else 0  # an asterisk sits high in its line
    centred(draw, (635, 138 + low), move, _face("label", 100 if not low else 130), WHITE)
    _title(draw, f"{card.villain} {data['n']}", (58, 96), 490, 60)
    _dots(draw, 62, 536, 148)
    place, diagram, top = slots_of(data.get("place")), None, 262.0
    if place is not None:
        draw.rounded_rectangle((40, 258, SIZE[0] - 40, 462), 24, fill=BAND)
        top = 494.0
    if place == "none":
        centred(draw, (SIZE[0] / 2, 360), "No tokens placed.", _face("italic", 40), AUBERGINE)
    elif isinstance(place, dict):
        anchor = data["place"].get("anchor")
        diagram = ["left", anchor or "villain", "right"]
        floor, x = 444.0, 96.0
        for slot in ("left", "villain", "right"):
            villain = slot == "villain"
            w = 170 if villain else 150
            box = (x, floor - w, x + w, floor)
            if villain:
                draw.polygon(arch(box), fill=SLOT, outline=MAGENTA, width=8)
                draw.polygon(arch(_inset(box, 14)), outline=MAGENTA, width=2)
            else:
                draw.polygon(arch(box), fill=SLOT, outline=AUBERGINE, width=3)
            cx, cy = x + w / 2, floor - w / 2 + 8
            if villain and anchor:
                _sewer(draw, cx, cy)
            _slot_tokens(draw, cx, cy, place[slot])
            x += w + 44
    paragraphs: list[list[Word]] = []
    if movement_of(data):
        paragraphs.append(_words(movement_of(data), "italic"))
    for effect in data.get("effects", []):
        name = _words(effect["name"], "name") if effect.get("name") else []
        paragraphs.append(name + _words(effect["text"], "text"))
    if paragraphs:
        room = (60.0, top, 690.0, 890.0)
        _block(draw, room, paragraphs, _fit(draw, room, paragraphs, 38))
    if data.get("bam"):
        _stamp(image, 532, 948)
    return image, diagram


def _plus(cx: float, cy: float, arm: float, half: float) -> list[tuple[float, float]]:
    """A plus-shaped cross: arms `arm` long from the centre, `half` wide either side."""
    a, b = arm, half
    corners = [(b, -a), (b, -b), (a, -b), (a, b), (b, b), (b, a)]
    corners += [(-b, a), (-b, b), (-a, b), (-a, -b), (-b, -b), (-b, -a)]
    return [(cx + x, cy + y) for x, y in corners]


def _threat(card: Card) -> Image.Image:
    data = card.data
    image, draw = _frame(SIZE)
    health = data.get("health")
    if health is not None:  # an aubergine number on a tangerine cross, "Health" under it
        draw.polygon(_plus(132, 138, 86, 38), fill=TANGERINE, outline=AUBERGINE, width=3)
        centred(draw, (132, 140), str(health), _face("label", 66), AUBERGINE)
        centred(draw, (132, 258), "Health", _face("label", 30), AUBERGINE)
        _title(draw, data["name"], (250, 138), SIZE[0] - 250 - 60, 56)
        _dots(draw, 254, SIZE[0] - 64, 196)
        top = 306.0
    else:
        _title(draw, data["name"], (58, 104), SIZE[0] - 120, 56)
        _dots(draw, 62, SIZE[0] - 64, 160)
        top = 214.0
    box = (96.0, top + 30, 662.0, 960.0)
    paragraphs = [_words(data["text"], "text")]
    size = _fit(draw, box, paragraphs, 44)
    used = _block(draw, box, paragraphs, size, ink=None)
    draw.rounded_rectangle((56, top, SIZE[0] - 56, top + used + 60), 18, fill=SLOT)
    draw.rectangle((56, top + 14, 66, top + used + 46), fill=TANGERINE)
    _block(draw, box, paragraphs, size)
    return image


def _table(draw: ImageDraw.ImageDraw, card: Card, top: float) -> None:
    """The player-count table across the bottom: an aubergine band of two rows, "Heroes"
    and "Health" at the left, each count over its Health on a tangerine pill."""
    w, h = BOARD
    draw.rounded_rectangle((16, top, w - 17, h - 17), 28, fill=AUBERGINE)
    draw.rectangle((16, top + 40, w - 17, h - 60), fill=AUBERGINE)
    rows = (top + 56, top + 142)
    for y, label in zip(rows, ("Heroes", "Health"), strict=True):
        draw.text((70, y), label, font=_face("label", 40), fill=TANGERINE, anchor="lm")
    for index, (players, health) in enumerate(card.player_count.items()):
        x = 360 + index * 190
        centred(draw, (x, rows[0]), str(players), _face("label", 54), LAVENDER)
        pill = (x - 62, rows[1] - 33, x + 62, rows[1] + 33)
        if health is None:
            draw.rounded_rectangle(pill, 33, outline=TANGERINE, width=3)
        else:
            draw.rounded_rectangle(pill, 33, fill=TANGERINE)
            centred(draw, (x, rows[1] + 1), str(health), _face("label", 50), AUBERGINE)


def _dashboard(card: Card) -> Image.Image:
    image, draw = _frame(BOARD)
    band = BOARD[1] - 222.0
    _table(draw, card, band)
    _title(draw, card.villain, (64, 96), BOARD[0] - 140, 70)
    _dots(draw, 68, BOARD[0] - 70, 152)
    gutter, left, right = 90, 70, BOARD[0] - 70
    width, chunks = columns_of(card.sections, card.columns, left, right, gutter)
    top, bottom, indent = 196.0, band - 30, 30
    size = 38.0
    for index, chunk in enumerate(chunks):
        x = left + index * (width + gutter) + indent
        paragraphs = [_words(s["text"], "text") for s in chunk]
        room = (x, top, x + width - indent, bottom - len(chunk) * 84)  # a heading each
        size = min(size, _fit(draw, room, paragraphs, 38))
    for index, chunk in enumerate(chunks):
        x, y = left + index * (width + gutter), top
        for section in chunk:
            start = y
            f = _face("heading", size * 1.25)
            draw.text(
                (x + indent, y + size * 1.2), section["heading"], font=f, fill=MAGENTA, anchor="ls"
            )
            y += size * 1.2 + size * 0.5
            box = (x + indent, y, x + width, bottom)
            y += _block(draw, box, [_words(section["text"], "text")], size)
            draw.rectangle((x, start + 4, x + 8, y - size * 0.2), fill=TANGERINE)
            y += size * 1.0
    return image
