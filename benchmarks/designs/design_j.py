"""design-j (development: held out until measured on 2026-12-04, then design-k took its place).
A mustard-yellow card with espresso-brown ink inside a cobalt-blue ticket frame (a thick
cobalt line with a concave quarter-circle notch at each corner, a thin espresso line inside
it following the notches); fonts Roboto Slab (fonts-roboto-slab) for the title, the Move
number, effect names, Dashboard headings and Health (Bold), Open Sans (fonts-open-sans) for
the body text (Regular), the movement sentence (Italic) and small labels (Bold), Comic Neue
(fonts-comic-neue) Bold for BAM!. The title at the bottom of the card, cream on an espresso
footer band (at its left, centred on master plans). The Move value at the top centre, a white
number in a cobalt diamond (a square on its point) with a cream inner line, the word "MOVE"
small in cream inside the diamond over the number. BAM! at the top left as the word alone,
brick-red comic letters with a thick espresso outline and a cobalt shadow offset down and to
the right (no balloon, tab or stamp round it). The placement diagram right under the Move
diamond across the card: three upright cream ovals (cameos) with an espresso edge and gaps
between them, left to right the left, the Villain's and the right Location, their tokens
stacked top to bottom in the oval; the Villain's oval marked by a brick-red medal ribbon,
two tails with swallowtail ends hanging from behind its foot (no fill or edge of its own);
Lizard's Sewer a dark tunnel mouth in a ring of bricks in the Villain's oval; "No tokens
placed." in italics on a cream rounded panel with a dashed espresso edge where the ovals would
be; nothing when the card has no diagram (the text starts under the diamond). The text below:
the movement sentence, then each effect with its name on a line of its own, brick-red Roboto
Slab Bold after a small cobalt triangle, the text on the lines under it. Civilians as
rose-pink hearts with an espresso edge, Thugs as near-black heater shields with a thin cream
line inside. Threats: the text in a cream panel with a double cobalt outline, the title at the
left of the footer band and Health at its right, the word "Health" and the number side by
side in cream on a brick-red pill (no pill without Health). Dashboards: the title at the left
of the footer band; the player-count table at the top centre as domino tiles, one a count,
each a cobalt top half with the count in cream over a cream bottom half with its Health in
espresso, "Heroes" and "Health" in Open Sans Bold at the left of the two halves (a missing
Health hatched with espresso lines); each section heading cream Roboto Slab Bold on a cobalt
ribbon with a swallowtail notch at its right end, its text under it; one or two columns."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw, ImageFont

from .data import Card, dashboard, masterplan, move_of, movement_of, slots_of, threat
from .draw import by_kind, canvas, centred, columns_of

NAME = "design-j"
JOINER = " "  # the name on its own line, then the text: read as "Name text"
SIZE, BOARD = (750, 1050), (1790, 1120)
MUSTARD, CREAM, ESPRESSO = (234, 190, 70), (252, 245, 224), (48, 30, 22)
COBALT, BRICK, WHITE = (30, 70, 166), (184, 50, 36), (255, 255, 255)
TUNNEL, BRICKS = (22, 20, 24), (150, 74, 50)
TOKENS = {
    "civilian": ("heart", (226, 84, 132)),
    "thug": ("shield", (38, 36, 44)),
    "crisis": ("triangle", (120, 40, 150)),
}
SLAB = "/usr/share/fonts/opentype/roboto/slab"  # fonts-roboto-slab
OPEN = "/usr/share/fonts/truetype/open-sans"  # fonts-open-sans
COMIC = "/usr/share/fonts/opentype/comic-neue"  # fonts-comic-neue
FACES = {
    "slab": f"{SLAB}/RobotoSlab-Bold.otf",
    "text": f"{OPEN}/OpenSans-Regular.ttf",
    "italic": f"{OPEN}/OpenSans-Italic.ttf",
    "label": f"{OPEN}/OpenSans-Bold.ttf",
    "bam": f"{COMIC}/ComicNeue-Bold.otf",
}
NOTCH, INSET = 36, 20  # the frame's corner notches and how far in its line runs
Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]
Point = tuple[float, float]
Word = tuple[str, str]  # text, style: "text", "italic" or "name"


def cards() -> list[Card]:
    d = NAME
    return [
        masterplan(d, "multiverse-ks-promos/crossbones", 2),  # Move 1, three Thugs a slot
        masterplan(d, "multiverse-ks-promos/gorr", 10),  # Move *, a sentence, BAM!
        masterplan(d, "multiverse-ks-promos/lizard", 7),  # Move 3, the Sewer, no BAM!
        masterplan(d, "multiverse-ks-promos/knull", 2),  # Move 0, "No tokens placed."
        masterplan(d, "multiverse-ks-promos/titania", 8),  # the Villain's oval empty
        masterplan(d, "multiverse-ks-promos/purple-man", 6),  # Move 2, no diagram
        masterplan(d, "ks-promos/corvus-glaive", 11),  # Move *, no diagram, no BAM!
        masterplan(d, "multiverse-ks-promos/absorbing-man", 9),  # Move 4
        masterplan(d, "multiverse-ks-promos/cabal-iron-patriot", 10),  # Move 5, two kinds
        masterplan(d, "ks-promos/dormammu", 7),  # Move 0, two in every oval, no text
        threat(d, "ks-promos/baron-zemo", "Screaming Mimi"),
        threat(d, "multiverse-ks-promos/knull", "Venom T-Rex"),
        threat(d, "ks-promos/baron-zemo", "Masters of Evil"),  # no Health
        dashboard(d, "multiverse-ks-promos/crossbones", 2),  # no design drew it
        dashboard(d, "ks-promos/baron-zemo", 1, order=("overflow",)),  # nor this one
    ]


def paint(card: Card) -> tuple[Image.Image, list[str] | None]:
    painted: tuple[Image.Image, list[str] | None] = by_kind(card, _masterplan, _threat, _dashboard)
    return painted


def _face(style: str, size: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FACES[style], max(6, round(size)))


# ---------------------------------------------------------------- the frame and the footer


def _ticket(draw: ImageDraw.ImageDraw, size: tuple[int, int], inset: float, r: float) -> None:
    """A ticket outline `inset` from the edge, a concave quarter circle of radius r cut at
    each corner (the circles centred on the corners of the inset rectangle)."""
    w, h = size
    a, b, c, d = inset, inset, w - 1 - inset, h - 1 - inset
    line = 6 if inset == INSET else 2
    ink = COBALT if inset == INSET else ESPRESSO
    draw.line((a + r, b, c - r, b), fill=ink, width=line)
    draw.line((a + r, d, c - r, d), fill=ink, width=line)
    draw.line((a, b + r, a, d - r), fill=ink, width=line)
    draw.line((c, b + r, c, d - r), fill=ink, width=line)
    for (x, y), start in (((a, b), 0), ((c, b), 90), ((c, d), 180), ((a, d), 270)):
        box = (x - r, y - r, x + r, y + r)
        draw.arc(box, start, start + 90, fill=ink, width=line)


def _frame(size: tuple[int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image, draw = canvas(size, MUSTARD)
    _ticket(draw, size, INSET, NOTCH)
    _ticket(draw, size, INSET + 14, NOTCH + 14)
    return image, draw


def _footer(draw: ImageDraw.ImageDraw, size: tuple[int, int], height: float) -> Box:
    """The espresso band filling the foot of the inner ticket line (its notches cut out), a
    brick-red line over it; the box it leaves for the title."""
    w, h = size
    edge, r = INSET + 14, NOTCH + 14
    left, right, bottom = edge, w - 1 - edge, h - 1 - edge
    top = bottom - r - height
    draw.rectangle((left, top, right, bottom), fill=ESPRESSO)
    for x in (left, right):
        draw.ellipse((x - r, bottom - r, x + r, bottom + r), fill=MUSTARD)
    _ticket(draw, size, edge, r)
    draw.rectangle((left, top - 14, right, top - 7), fill=BRICK)
    return (left + r, top, right - r, bottom - r * 0.45)


def _title(
    draw: ImageDraw.ImageDraw,
    text: str,
    xy: tuple[float, float],
    room: float,
    size: float,
    anchor: str = "lm",
) -> None:
    f = _face("slab", size)
    while draw.textlength(text, font=f) > room and f.size > 24:
        f = _face("slab", f.size - 2)
    draw.text(xy, text, font=f, fill=CREAM, anchor=anchor)


# ---------------------------------------------------------------- words


def _width(draw: ImageDraw.ImageDraw, word: Word, size: float) -> float:
    text, style = word
    return draw.textlength(text, font=_face("slab" if style == "name" else style, size))


def _block(
    draw: ImageDraw.ImageDraw,
    box: Box,
    paragraphs: list[list[Word]],
    size: float,
    ink: Colour | None = ESPRESSO,
) -> float:
    """Paragraphs of styled words wrapped to the box's width from its top (drawn only with
    an ink); a paragraph of name words is an effect's name: brick red after a cobalt
    triangle, its text in the next paragraph close under it. The height used."""
    y, space = box[1], size * 0.27
    for index, words in enumerate(paragraphs):
        named = bool(words) and words[0][1] == "name"
        indent = size * 0.85 if named else 0.0
        lines: list[list[tuple[float, Word]]] = [[]]
        x = indent
        for word in words:
            w = _width(draw, word, size)
            if lines[-1] and x + w > box[2] - box[0]:
                lines.append([])
                x = indent
            lines[-1].append((x, word))
            x += w + space
        for number, line in enumerate(lines):
            base = y + size
            if ink and named and number == 0:
                cy, half = base - size * 0.36, size * 0.24
                tip = (box[0] + half * 1.9, cy)
                draw.polygon([(box[0], cy - half), tip, (box[0], cy + half)], fill=COBALT)
            for x, (text, style) in line if ink else []:
                if style == "name":
                    f = _face("slab", size)
                    draw.text((box[0] + x, base), text, font=f, fill=BRICK, anchor="ls")
                else:
                    f = _face(style, size)
                    draw.text((box[0] + x, base), text, font=f, fill=ink, anchor="ls")
            y += size * 1.36
        if index < len(paragraphs) - 1:
            y += size * (0.08 if named else 0.6)
    return y - box[1]


def _fit(draw: ImageDraw.ImageDraw, box: Box, paragraphs: list[list[Word]], size: float) -> float:
    while size > 14 and _block(draw, box, paragraphs, size, ink=None) > box[3] - box[1]:
        size *= 0.95
    return size


def _words(text: str, style: str) -> list[Word]:
    return [(w, style) for w in text.split()]


# ---------------------------------------------------------------- marks and tokens


def _heart(cx: float, cy: float, r: float) -> list[Point]:
    """A heart r wide either side of cx, its point at the bottom (the classic curve)."""
    points = []
    for i in range(72):
        t = 2 * math.pi * i / 72
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((cx + x * r / 16, cy - y * r / 16 - r * 0.1))
    return points


def _shield(cx: float, cy: float, r: float) -> list[Point]:
    """A heater shield: a flat top, straight sides, then curving in to a point at the foot."""
    side, top, waist, tip = r * 0.88, cy - r, cy - r * 0.1, cy + r * 1.1
    right = [
        (cx + side * (1 - t), waist + (tip - waist) * t**0.6) for t in (i / 14 for i in range(15))
    ]
    left = [(2 * cx - x, y) for x, y in reversed(right[:-1])]
    return [(cx - side, top), (cx + side, top), *right, *left]


def _token(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float) -> None:
    shape, fill = TOKENS[kind]
    if shape == "heart":
        draw.polygon(_heart(cx, cy, r * 1.05), fill=fill, outline=ESPRESSO, width=3)
    elif shape == "shield":
        draw.polygon(_shield(cx, cy - r * 0.05, r), fill=fill)
        inner = [
            (cx + (x - cx) * 0.72, cy - r * 0.05 + (y - cy + r * 0.05) * 0.72)
            for x, y in _shield(cx, cy - r * 0.05, r)
        ]
        draw.polygon(inner, outline=CREAM, width=2)
    else:
        draw.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=fill)


def _oval_tokens(draw: ImageDraw.ImageDraw, cx: float, cy: float, counts: dict[str, int]) -> None:
    """An oval's tokens stacked top to bottom (the data's order), two abreast when there are
    four; centred on (cx, cy)."""
    kinds = [kind for kind, n in counts.items() for _ in range(n)]
    rows = [[k] for k in kinds] if len(kinds) <= 3 else [kinds[:2], kinds[2:4]]
    step = 56
    for row_index, row in enumerate(rows):
        y = cy - (len(rows) - 1) * step / 2 + row_index * step
        for index, kind in enumerate(row):
            _token(draw, kind, cx - (len(row) - 1) * 27 + index * 54, y, 22)


def _ribbon(draw: ImageDraw.ImageDraw, cx: float, top: float) -> None:
    """The Villain's mark: a brick-red medal ribbon, two tails hanging from behind the oval's
    foot, each cut in a swallowtail."""
    for side in (-1, 1):
        x0, x1 = cx + side * 14, cx + side * 52
        foot = top + 74
        tail = [(x0 - 16 * side, top), (x0 + 16 * side, top), (x1 + 17 * side, foot)]
        tail += [(x1, foot - 16), (x1 - 17 * side, foot)]
        draw.polygon(tail, fill=BRICK, outline=ESPRESSO, width=2)


def _sewer(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """Lizard's Sewer: a dark tunnel mouth (round top, flat foot) in a ring of bricks."""
    outer, inner = 56, 36
    for i in range(9):
        a0, a1 = 180 + i * 20, 180 + (i + 1) * 20
        draw.pieslice(
            (cx - outer, cy - outer, cx + outer, cy + outer),
            a0,
            a1,
            fill=BRICKS,
            outline=ESPRESSO,
            width=2,
        )
    draw.rectangle((cx - outer, cy, cx + outer, cy + 34), fill=BRICKS, outline=ESPRESSO, width=2)
    draw.line((cx - outer, cy + 17, cx + outer, cy + 17), fill=ESPRESSO, width=2)
    draw.pieslice((cx - inner, cy - inner, cx + inner, cy + inner), 180, 360, fill=TUNNEL)
    draw.rectangle((cx - inner, cy, cx + inner, cy + 34), fill=TUNNEL)
    for dy in (14, 26):
        draw.line((cx - inner + 6, cy + dy, cx + inner - 6, cy + dy), fill=(70, 110, 120), width=3)


def _diamond(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, move: str) -> None:
    """The Move value: a white number in a cobalt diamond, "MOVE" in cream over it."""
    draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=COBALT)
    s = r - 11
    draw.polygon([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], outline=CREAM, width=2)
    centred(draw, (cx, cy - r * 0.42), "MOVE", _face("label", 19), CREAM)
    low = 24 if move == "*" else 0  # an asterisk sits high in its line
    centred(draw, (cx, cy + 14 + low), move, _face("slab", 72 if not low else 96), WHITE)


def _bam(draw: ImageDraw.ImageDraw, xy: tuple[float, float]) -> None:
    """BAM! alone: brick-red comic letters, a thick espresso outline, a cobalt shadow."""
    f = _face("bam", 92)
    x, y = xy
    draw.text(
        (x + 7, y + 7), "BAM!", font=f, fill=COBALT, anchor="lm", stroke_width=5, stroke_fill=COBALT
    )
    draw.text((x, y), "BAM!", font=f, fill=BRICK, anchor="lm", stroke_width=5, stroke_fill=ESPRESSO)


def _dashed(draw: ImageDraw.ImageDraw, box: Box, radius: float) -> None:
    """A cream rounded panel with a dashed espresso edge."""
    draw.rounded_rectangle(box, radius, fill=CREAM)
    left, top, right, bottom = box
    x = left + radius
    while x < right - radius:
        for y in (top, bottom):
            draw.line((x, y, min(x + 16, right - radius), y), fill=ESPRESSO, width=3)
        x += 28
    y = top + radius
    while y < bottom - radius:
        for x in (left, right):
            draw.line((x, y, x, min(y + 16, bottom - radius)), fill=ESPRESSO, width=3)
        y += 28


# ---------------------------------------------------------------- the cards


def _masterplan(card: Card) -> tuple[Image.Image, list[str] | None]:
    data = card.data
    image, draw = _frame(SIZE)
    if data.get("bam"):
        _bam(draw, (64, 112))
    _diamond(draw, SIZE[0] / 2, 130, 84, str(move_of(data)))
    foot = _footer(draw, SIZE, 96)
    _title(
        draw,
        f"{card.villain} {data['n']}",
        ((foot[0] + foot[2]) / 2, (foot[1] + foot[3]) / 2),
        foot[2] - foot[0] - 50,
        56,
        "mm",
    )
    place, diagram, top = slots_of(data.get("place")), None, 238.0
    if place == "none":
        _dashed(draw, (90, 248, SIZE[0] - 90, 350), 20)
        centred(draw, (SIZE[0] / 2, 298), "No tokens placed.", _face("italic", 38), ESPRESSO)
        top = 384.0
    elif isinstance(place, dict):
        anchor = data["place"].get("anchor")
        diagram = ["left", anchor or "villain", "right"]
        w, h, gap, oval_top = 156, 196, 40, 236
        x = (SIZE[0] - 3 * w - 2 * gap) / 2
        for slot in ("left", "villain", "right"):
            cx, cy = x + w / 2, oval_top + h / 2
            if slot == "villain":
                _ribbon(draw, cx, oval_top + h - 30)
            draw.ellipse((x, oval_top, x + w, oval_top + h), fill=CREAM, outline=ESPRESSO, width=4)
            if slot == "villain" and anchor:
                _sewer(draw, cx, cy - 12)
            _oval_tokens(draw, cx, cy, place[slot])
            x += w + gap
        top = 522.0
    paragraphs: list[list[Word]] = []
    if movement_of(data):
        paragraphs.append(_words(movement_of(data), "italic"))
    for effect in data.get("effects", []):
        if effect.get("name"):
            paragraphs.append(_words(effect["name"], "name"))
        paragraphs.append(_words(effect["text"], "text"))
    if paragraphs:
        room = (66.0, top, SIZE[0] - 66.0, foot[1] - 36)
        _block(draw, room, paragraphs, _fit(draw, room, paragraphs, 38))
    return image, diagram


def _threat(card: Card) -> Image.Image:
    data = card.data
    image, draw = _frame(SIZE)
    foot = _footer(draw, SIZE, 96)
    middle = (foot[1] + foot[3]) / 2
    health = data.get("health")
    room = foot[2] - foot[0]
    if health is not None:  # "Health" and the number in cream on a brick-red pill
        pill = (foot[2] + 20 - 182, middle - 34, foot[2] + 20, middle + 34)
        draw.rounded_rectangle(pill, 34, fill=BRICK, outline=CREAM, width=2)
        label = _face("label", 28)
        draw.text((pill[0] + 22, middle), "Health", font=label, fill=CREAM, anchor="lm")
        centred(draw, (pill[2] - 38, middle + 2), str(health), _face("slab", 54), CREAM)
        room = pill[0] - foot[0] - 30
    _title(draw, data["name"], (foot[0], middle), room, 54)
    box = (110.0, 150.0, SIZE[0] - 110.0, foot[1] - 120)
    paragraphs = [_words(data["text"], "text")]
    size = _fit(draw, box, paragraphs, 44)
    used = _block(draw, box, paragraphs, size, ink=None)
    top = 96 + (foot[1] - 60 - 96 - used - 80) / 2
    panel = (70, top, SIZE[0] - 70, top + used + 80)
    draw.rectangle(panel, fill=CREAM, outline=COBALT, width=5)
    draw.rectangle(
        (panel[0] + 10, panel[1] + 10, panel[2] - 10, panel[3] - 10), outline=COBALT, width=2
    )
    _block(draw, (box[0], top + 36, box[2], box[3]), paragraphs, size)
    return image


def _table(image: Image.Image, draw: ImageDraw.ImageDraw, card: Card, top: float) -> None:
    """The player-count table at the top centre: a domino tile a count, the count in cream
    on its cobalt top half, its Health in espresso on its cream bottom half."""
    tile, half, gap, label = 112, 78, 26, 180
    counts = list(card.player_count.items())
    width = label + len(counts) * tile + (len(counts) - 1) * gap
    x = (BOARD[0] - width) / 2
    f = _face("label", 36)
    draw.text((x, top + half / 2), "Heroes", font=f, fill=ESPRESSO, anchor="lm")
    draw.text((x, top + half * 1.5), "Health", font=f, fill=ESPRESSO, anchor="lm")
    x += label
    for players, health in counts:
        box = (x, top, x + tile, top + 2 * half)
        draw.rounded_rectangle(box, 16, fill=CREAM)
        draw.rounded_rectangle((x, top, x + tile, top + half + 16), 16, fill=COBALT)
        draw.rectangle((x, top + half, x + tile, top + half + 16), fill=CREAM)
        if health is None:  # hatched: no value
            hatch = Image.new("RGB", (tile, half), CREAM)
            lines = ImageDraw.Draw(hatch)
            for k in range(-half, tile, 18):
                lines.line((k, half, k + half, 0), fill=ESPRESSO, width=2)
            mask = Image.new("L", (tile, half), 0)
            ImageDraw.Draw(mask).rounded_rectangle((0, -20, tile - 1, half - 1), 16, fill=255)
            image.paste(hatch, (round(x), round(top + half)), mask)
        draw.rounded_rectangle(box, 16, outline=ESPRESSO, width=3)
        draw.line((x, top + half, x + tile, top + half), fill=ESPRESSO, width=3)
        centred(draw, (x + tile / 2, top + half / 2), str(players), _face("slab", 52), CREAM)
        if health is not None:
            centred(
                draw, (x + tile / 2, top + half * 1.5), str(health), _face("slab", 52), ESPRESSO
            )
        x += tile + gap


def _heading(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, size: float) -> float:
    """A heading in cream on a cobalt ribbon with a swallowtail notch at its right end; the
    ribbon's height."""
    f = _face("slab", size)
    w, h = draw.textlength(text, font=f), size * 1.5
    right = x + w + size * 1.4
    ribbon = [(x, y), (right, y), (right - size * 0.5, y + h / 2), (right, y + h), (x, y + h)]
    draw.polygon(ribbon, fill=COBALT)
    draw.text((x + size * 0.45, y + h / 2), text, font=f, fill=CREAM, anchor="lm")
    return h


def _dashboard(card: Card) -> Image.Image:
    image, draw = _frame(BOARD)
    _table(image, draw, card, 66)
    foot = _footer(draw, BOARD, 86)
    _title(draw, card.villain, (foot[0] + 30, (foot[1] + foot[3]) / 2), 900, 64)
    gutter, left, right = 80, 84, BOARD[0] - 84
    width, chunks = columns_of(card.sections, card.columns, left, right, gutter)
    top, bottom = 254.0, foot[1] - 40
    size = 40.0
    for chunk in chunks:
        paragraphs = [_words(s["text"], "text") for s in chunk]
        room = (0.0, top, width, bottom - len(chunk) * (size * 1.5 + 14 + size * 0.9))
        size = min(size, _fit(draw, room, paragraphs, 40))
    for index, chunk in enumerate(chunks):
        x, y = left + index * (width + gutter), top
        for section in chunk:
            y += _heading(draw, x, y, section["heading"], size) + 14
            y += _block(draw, (x, y, x + width, bottom), [_words(section["text"], "text")], size)
            y += size * 0.9
    return image
