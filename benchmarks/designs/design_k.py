"""design-k (held out: for measuring only, never tuned on, never its per-card output read).
A white card printed with a halftone of pale cyan dots at its top that grow smaller down the
card and are gone before its middle (before the sections on a Dashboard), graphite ink, and an
indigo band down the right edge with a thin cyan line along its inner side; fonts League Spartan
(fonts-league-spartan) Bold for the title, the Move number, effect names, Dashboard headings,
labels and Health, Vollkorn (fonts-vollkorn) for the body text (Regular) and the movement
sentence (Italic), with its lining figures, Bebas Neue (fonts-bebas-neue) Bold for BAM!. The
title at the top right, set flush right against the band, over a cyan rule as long as the title.
The Move value at the bottom centre of the card, a white number in an indigo half disc rising
from the card's bottom edge, a thin cyan arc inside the half disc's rim and the word "MOVE"
small in white over the number. BAM! on the side band as the letters B, A, M and ! stacked
upright one under the other, white Bebas Neue inside a tall capsule outlined in cyan, near the
band's top (no BAM!, an empty band). The placement diagram under the title: a row of three
slanted parallelograms (comic-panel slots) with gaps between them, white with a graphite edge,
left to right the left, the Villain's and the right Location; the Villain's marked only by four
indigo corner brackets (a focusing frame) just outside its corners; a slot's tokens two to a
row, a third centred under them; Lizard's Sewer a dark square shaft with a pale ladder going
down it in the Villain's slot; "No tokens placed." in italics on a white slanted banner with a
graphite edge where the slots would be; nothing when the card has no diagram (the text starts
under the title). The text below: the movement sentence, then each effect with its name run in,
indigo League Spartan Bold inside a cyan outlined box, then the text on the same line ("Name
text"). Civilians as apricot quatrefoils (four round lobes) with a graphite edge, Thugs as
slate-grey cogs of eight teeth with a white hub hole. Threats: the title at the top right as on
master plans, the text centred line by line between two cyan rules in the middle of the card,
Health on the side band at its top: the word "HEALTH" small in white, the number large in white
under it and a column of cyan pips under that, one a point of Health (an empty band without
Health). Dashboards: the title at the top right against the band over its cyan rule; the
player-count table at the top left as a bar chart: an indigo bar a count, as tall as its Health,
the Health in graphite over the bar and the count under the chart's base line, "Health" and
"Heroes" in League Spartan at the left (a missing Health a short dashed empty bar with no
number); each section heading white League Spartan Bold on an indigo slanted tag (a
parallelogram), its text under it; one or two columns."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw, ImageFont

from .data import Card, dashboard, masterplan, move_of, movement_of, slots_of, threat
from .draw import by_kind, canvas, columns_of

NAME = "design-k"
JOINER = " "  # the name run in, in its box: read as "Name text"
SIZE, BOARD = (750, 1050), (1790, 1120)
WHITE, GRAPHITE, DOTS = (253, 253, 251), (38, 40, 45), (206, 234, 243)
INDIGO, CYAN, LADDER = (58, 45, 140), (22, 160, 200), (196, 200, 206)
SHAFT = (30, 32, 38)
TOKENS = {
    "civilian": ("quatrefoil", (243, 154, 43)),
    "thug": ("cog", (89, 100, 110)),
    "crisis": ("square", (150, 30, 60)),
}
SPARTAN = "/usr/share/fonts/opentype/league-spartan"  # fonts-league-spartan
VOLLKORN = "/usr/share/fonts/truetype/vollkorn"  # fonts-vollkorn
BEBAS = "/usr/share/fonts/opentype/bebas-neue"  # fonts-bebas-neue
FACES = {
    "bold": f"{SPARTAN}/LeagueSpartan-Bold.otf",
    "text": f"{VOLLKORN}/Vollkorn-Regular.ttf",
    "italic": f"{VOLLKORN}/Vollkorn-Italic.ttf",
    "bam": f"{BEBAS}/BebasNeue-Bold.otf",
}
LINING = ["lnum"]  # Vollkorn's lining figures (its default figures are old-style)
BAND = 84  # the side band's width on a portrait card (96 on a Dashboard)
SLANT = 0.26  # how far a parallelogram leans: its top shifted right by SLANT x its height
Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]
Point = tuple[float, float]
Word = tuple[str, str]  # text, style: "text", "italic" or "name" (a whole name, boxed)


def cards() -> list[Card]:
    d = NAME
    return [
        masterplan(d, "multiverse-ks-promos/crossbones", 3),  # Move 2, three Thugs a slot
        masterplan(d, "ks-promos/venom", 12),  # Move *, a sentence, no diagram, no BAM!
        masterplan(d, "multiverse-ks-promos/lizard", 10),  # Move 3, the Sewer, no BAM!
        masterplan(d, "ks-promos/corvus-glaive", 1),  # Move 0, "No tokens placed."
        masterplan(d, "multiverse-ks-promos/abomination", 2),  # Move *, the Villain's empty
        masterplan(d, "multiverse-ks-promos/knull", 4),  # Move 1, no diagram, BAM!
        masterplan(d, "ks-promos/bullseye", 12),  # Move 5, no text
        masterplan(d, "multiverse-ks-promos/maximus", 9),  # Move 4, no BAM!
        masterplan(d, "multiverse-ks-promos/cabal-iron-patriot", 2),  # Move 1, two kinds
        masterplan(d, "multiverse-ks-promos/enchantress", 5),  # Move 0, a long effect
        threat(d, "ks-promos/baron-zemo", "Fixer"),
        threat(d, "multiverse-ks-promos/knull", "Symbiote Henchman"),
        threat(d, "multiverse-ks-promos/blastaar", "Negative Zone Portal"),  # no Health
        dashboard(d, "multiverse-ks-promos/enchantress", 2, order=("bam",)),  # no design drew it
        dashboard(d, "multiverse-ks-promos/cabal-iron-patriot", 1, order=("overflow",)),  # nor this
    ]


def paint(card: Card) -> tuple[Image.Image, list[str] | None]:
    painted: tuple[Image.Image, list[str] | None] = by_kind(card, _masterplan, _threat, _dashboard)
    return painted


def _face(style: str, size: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FACES[style], max(6, round(size)))


def _ink_centred(
    draw: ImageDraw.ImageDraw, xy: Point, text: str, f: ImageFont.FreeTypeFont, fill: Colour
) -> None:
    """The text's inked box centred on xy (League Spartan's digits sit off its em box)."""
    left, top, right, bottom = draw.textbbox((0, 0), text, font=f, anchor="ls")
    x, y = xy[0] - (left + right) / 2, xy[1] - (top + bottom) / 2
    draw.text((x, y), text, font=f, fill=fill, anchor="ls")


# ---------------------------------------------------------------- the ground and the band


def _ground(
    size: tuple[int, int], band: int, fade: float
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """White, a halftone of pale cyan dots from the top fading out before the middle, the
    indigo band down the right edge with a cyan line inside it."""
    image, draw = canvas(size, WHITE)
    w, h = size
    step = 16
    for row in range(int(fade // step) + 1):
        y = 8 + row * (step * 0.866)
        r = 4.6 * (1 - y / fade)
        if r < 0.6:
            break
        shift = step / 2 if row % 2 else 0
        x = 6 + shift
        while x < w - band:
            draw.ellipse((x - r, y - r, x + r, y + r), fill=DOTS)
            x += step
    draw.rectangle((w - band, 0, w - 1, h - 1), fill=INDIGO)
    draw.rectangle((w - band - 9, 0, w - band - 6, h - 1), fill=CYAN)
    return image, draw


def _title(
    draw: ImageDraw.ImageDraw, text: str, right: float, base: float, room: float, size: float
) -> None:
    """The title flush right at `right`, its baseline at `base`, over a cyan rule as long."""
    f = _face("bold", size)
    while draw.textlength(text, font=f) > room and f.size > 24:
        f = _face("bold", f.size - 2)
    draw.text((right, base), text, font=f, fill=GRAPHITE, anchor="rs")
    width = draw.textlength(text, font=f)
    draw.rectangle((right - width, base + 14, right, base + 19), fill=CYAN)


# ---------------------------------------------------------------- words


def _width(draw: ImageDraw.ImageDraw, word: Word, size: float) -> float:
    text, style = word
    if style == "name":
        return draw.textlength(text, font=_face("bold", size * 0.84)) + size * 0.6
    return draw.textlength(text, font=_face(style, size), features=LINING)


def _lines(
    draw: ImageDraw.ImageDraw, width: float, words: list[Word], size: float
) -> list[list[tuple[float, Word]]]:
    lines: list[list[tuple[float, Word]]] = [[]]
    x, space = 0.0, size * 0.26
    for word in words:
        w = _width(draw, word, size)
        if lines[-1] and x + w > width:
            lines.append([])
            x = 0.0
        lines[-1].append((x, word))
        x += w + space
    return [line for line in lines if line]


def _block(
    draw: ImageDraw.ImageDraw,
    box: Box,
    paragraphs: list[list[Word]],
    size: float,
    ink: Colour | None = GRAPHITE,
    centre: bool = False,
) -> float:
    """Paragraphs of styled words wrapped to the box's width from its top (drawn only with
    an ink), each line flush left or centred; an effect's name a whole unit, indigo in a
    cyan outlined box. The height used."""
    y = box[1]
    width = box[2] - box[0]
    for index, words in enumerate(paragraphs):
        for line in _lines(draw, width, words, size):
            base = y + size
            used = line[-1][0] + _width(draw, line[-1][1], size)
            left = box[0] + ((width - used) / 2 if centre else 0)
            for x, (text, style) in line if ink else []:
                if style == "name":
                    f = _face("bold", size * 0.84)
                    w = draw.textlength(text, font=f) + size * 0.6
                    frame = (left + x, base - size * 0.86, left + x + w, base + size * 0.22)
                    draw.rounded_rectangle(frame, 5, outline=CYAN, width=3)
                    draw.text(
                        (left + x + size * 0.3, base - size * 0.04),
                        text,
                        font=f,
                        fill=INDIGO,
                        anchor="ls",
                    )
                else:
                    f = _face(style, size)
                    draw.text(
                        (left + x, base), text, font=f, fill=ink, anchor="ls", features=LINING
                    )
            y += size * 1.34
        if index < len(paragraphs) - 1:
            y += size * 0.55
    return y - box[1]


def _fit(draw: ImageDraw.ImageDraw, box: Box, paragraphs: list[list[Word]], size: float) -> float:
    while size > 14 and _block(draw, box, paragraphs, size, ink=None) > box[3] - box[1]:
        size *= 0.95
    return size


def _words(text: str, style: str) -> list[Word]:
    return [(w, style) for w in text.split()]


# ---------------------------------------------------------------- tokens and marks


def _cog(cx: float, cy: float, r: float) -> list[Point]:
    """A cog of eight teeth: the outline alternates between the rim and the teeth's tips."""
    points = []
    for tooth in range(8):
        a = 2 * math.pi * tooth / 8
        for da, radius in ((-0.2, r * 0.78), (-0.13, r), (0.13, r), (0.2, r * 0.78)):
            points.append((cx + radius * math.cos(a + da), cy + radius * math.sin(a + da)))
    return points


def _token(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float) -> None:
    shape, fill = TOKENS[kind]
    if shape == "quatrefoil":  # four lobes: an edge drawn under, the fill over it
        lobe, off = r * 0.54, r * 0.46
        centres = [(cx + off, cy), (cx - off, cy), (cx, cy + off), (cx, cy - off)]
        for x, y in centres:
            draw.ellipse((x - lobe - 3, y - lobe - 3, x + lobe + 3, y + lobe + 3), fill=GRAPHITE)
        for x, y in centres:
            draw.ellipse((x - lobe, y - lobe, x + lobe, y + lobe), fill=fill)
        draw.ellipse((cx - off, cy - off, cx + off, cy + off), fill=fill)
    elif shape == "cog":
        draw.polygon(_cog(cx, cy, r), fill=fill)
        hub = r * 0.3
        draw.ellipse((cx - hub, cy - hub, cx + hub, cy + hub), fill=WHITE)
    else:
        draw.rectangle((cx - r * 0.8, cy - r * 0.8, cx + r * 0.8, cy + r * 0.8), fill=fill)


def _slot_tokens(draw: ImageDraw.ImageDraw, cx: float, cy: float, counts: dict[str, int]) -> None:
    """A slot's tokens (the data's order) two to a row, a row of one centred."""
    kinds = [kind for kind, n in counts.items() for _ in range(n)]
    rows = [kinds[i : i + 2] for i in range(0, len(kinds), 2)]
    step = 54
    for row_index, row in enumerate(rows):
        y = cy - (len(rows) - 1) * step / 2 + row_index * step
        for index, kind in enumerate(row):
            _token(draw, kind, cx - (len(row) - 1) * step / 2 + index * step, y, 23)


def _leaning(box: Box) -> list[Point]:
    """A parallelogram in the box, its top leaning right."""
    left, top, right, bottom = box
    lean = SLANT * (bottom - top) / 2
    return [(left + lean, top), (right + lean, top), (right - lean, bottom), (left - lean, bottom)]


def _brackets(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """The Villain's mark: indigo corner brackets just outside a parallelogram's corners,
    each arm along one of its sides."""
    corners = _leaning((box[0] - 12, box[1] - 12, box[2] + 12, box[3] + 12))
    for index, corner in enumerate(corners):
        for other in (corners[index - 1], corners[(index + 1) % 4]):
            dx, dy = other[0] - corner[0], other[1] - corner[1]
            length = math.hypot(dx, dy)
            end = (corner[0] + dx / length * 38, corner[1] + dy / length * 38)
            draw.line((corner, end), fill=INDIGO, width=9)
        draw.ellipse((corner[0] - 4, corner[1] - 4, corner[0] + 4, corner[1] + 4), fill=INDIGO)


def _sewer(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """Lizard's Sewer: a dark square shaft with a pale ladder going down it."""
    half = 48
    draw.rectangle((cx - half, cy - half, cx + half, cy + half), fill=SHAFT)
    draw.rectangle(
        (cx - half + 6, cy - half + 6, cx + half - 6, cy + half - 6), outline=LADDER, width=2
    )
    for x in (cx - 20, cx + 20):
        draw.line((x, cy - half + 10, x, cy + half), fill=LADDER, width=5)
    for y in range(round(cy - half + 20), round(cy + half), 18):
        draw.line((cx - 20, y, cx + 20, y), fill=LADDER, width=4)


def _move(draw: ImageDraw.ImageDraw, cx: float, bottom: float, move: str) -> None:
    """The Move value: a white number in an indigo half disc rising from the bottom edge."""
    r = 112
    draw.pieslice((cx - r, bottom - r, cx + r, bottom + r), 180, 360, fill=INDIGO)
    s = r - 12
    draw.arc((cx - s, bottom - s, cx + s, bottom + s), 180, 360, fill=CYAN, width=3)
    _ink_centred(draw, (cx, bottom - r * 0.68), "MOVE", _face("bold", 20), WHITE)
    star = move == "*"  # an asterisk is small in its line: larger, a little lower
    big = _face("bold", 88 if star else 66)
    _ink_centred(draw, (cx, bottom - r * (0.25 if star else 0.3)), move, big, WHITE)


def _bam(draw: ImageDraw.ImageDraw, x0: float, top: float, width: float) -> None:
    """BAM! stacked upright down the band, white letters in a capsule outlined in cyan."""
    cx, step = x0 + width / 2, 82
    capsule = (x0 + 10, top, x0 + width - 10, top + 4 * step + 34)
    draw.rounded_rectangle(capsule, (width - 20) / 2, outline=CYAN, width=4)
    f = _face("bam", 84)
    for index, letter in enumerate("BAM!"):
        _ink_centred(draw, (cx, top + 58 + index * step), letter, f, WHITE)


def _banner(draw: ImageDraw.ImageDraw, box: Box, text: str) -> None:
    """A white slanted banner with a graphite edge, the words in italics in it."""
    draw.polygon(_leaning(box), fill=WHITE, outline=GRAPHITE, width=4)
    _ink_centred(
        draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, _face("italic", 40), GRAPHITE
    )


# ---------------------------------------------------------------- the cards


def _masterplan(card: Card) -> tuple[Image.Image, list[str] | None]:
    data = card.data
    image, draw = _ground(SIZE, BAND, 440)
    right = SIZE[0] - BAND - 34.0
    _title(draw, f"{card.villain} {data['n']}", right, 96, right - 50, 58)
    if data.get("bam"):
        _bam(draw, SIZE[0] - BAND, 64, BAND)
    _move(draw, (46 + right) / 2, SIZE[1] - 1, str(move_of(data)))
    place, diagram, top = slots_of(data.get("place")), None, 158.0
    if place == "none":
        _banner(draw, (86, 178, right - 40, 268), "No tokens placed.")
        top = 312.0
    elif isinstance(place, dict):
        anchor = data["place"].get("anchor")
        diagram = ["left", anchor or "villain", "right"]
        w, h, gap, slot_top = 150, 166, 40, 168
        x = (46 + right - 3 * w - 2 * gap) / 2
        for slot in ("left", "villain", "right"):
            box = (x, slot_top, x + w, slot_top + h)
            cx, cy = x + w / 2, slot_top + h / 2
            draw.polygon(_leaning(box), fill=WHITE, outline=GRAPHITE, width=4)
            if slot == "villain":
                _brackets(draw, box)
                if anchor:
                    _sewer(draw, cx, cy)
            _slot_tokens(draw, cx, cy, place[slot])
            x += w + gap
        top = 390.0
    paragraphs: list[list[Word]] = []
    if movement_of(data):
        paragraphs.append(_words(movement_of(data), "italic"))
    for effect in data.get("effects", []):
        words = _words(effect["text"], "text")
        paragraphs.append([(effect["name"], "name"), *words] if effect.get("name") else words)
    if paragraphs:
        room = (50.0, top, right, SIZE[1] - 150.0)
        _block(draw, room, paragraphs, _fit(draw, room, paragraphs, 38))
    return image, diagram


def _health(draw: ImageDraw.ImageDraw, x0: float, width: float, health: int) -> None:
    """Health on the band's top: "HEALTH" small, the number, a column of cyan pips."""
    cx = x0 + width / 2
    _ink_centred(draw, (cx, 58), "HEALTH", _face("bold", 19), WHITE)
    _ink_centred(draw, (cx, 118), str(health), _face("bold", 76), WHITE)
    for index in range(health):
        y = 180 + index * 30
        draw.rectangle((cx - 9, y - 9, cx + 9, y + 9), fill=CYAN)


def _threat(card: Card) -> Image.Image:
    data = card.data
    image, draw = _ground(SIZE, BAND, 440)
    right = SIZE[0] - BAND - 34.0
    _title(draw, data["name"], right, 96, right - 50, 54)
    if data.get("health") is not None:
        _health(draw, SIZE[0] - BAND, BAND, int(data["health"]))
    box = (70.0, 0.0, right - 20, 700.0)
    paragraphs = [_words(data["text"], "text")]
    size = _fit(draw, box, paragraphs, 44)
    used = _block(draw, box, paragraphs, size, ink=None)
    top = 150 + (SIZE[1] - 150 - 60 - used) / 2
    for y in (top - 44, top + used + 30):
        draw.rectangle((box[0] + 40, y, box[2] - 40, y + 4), fill=CYAN)
    _block(draw, (box[0], top, box[2], top + used + 10), paragraphs, size, centre=True)
    return image


def _chart(draw: ImageDraw.ImageDraw, card: Card, left: float, base: float) -> None:
    """The player-count table as a bar chart: a bar a count as tall as its Health, the
    Health over it, the count under the base line; a missing Health a dashed stub."""
    bar, gap, label = 66, 34, 170
    counts = list(card.player_count.items())
    f, digits = _face("bold", 34), _face("bold", 42)
    draw.text((left, base - 150), "Health", font=f, fill=GRAPHITE, anchor="ls")
    draw.text((left, base + 52), "Heroes", font=f, fill=GRAPHITE, anchor="ls")
    x = left + label
    for players, health in counts:
        if health is None:
            for y in range(round(base - 30), round(base), 10):
                draw.line((x, y, x, y + 5), fill=GRAPHITE, width=3)
                draw.line((x + bar, y, x + bar, y + 5), fill=GRAPHITE, width=3)
            draw.line((x, base - 30, x + 24, base - 30), fill=GRAPHITE, width=3)
            draw.line((x + bar - 24, base - 30, x + bar, base - 30), fill=GRAPHITE, width=3)
        else:
            height = min(150, 30 + 12 * int(health))
            draw.rectangle((x, base - height, x + bar, base), fill=INDIGO)
            _ink_centred(draw, (x + bar / 2, base - height - 30), str(health), digits, GRAPHITE)
        _ink_centred(draw, (x + bar / 2, base + 36), str(players), digits, GRAPHITE)
        x += bar + gap
    draw.rectangle((left + label - 20, base, x - gap + 20, base + 4), fill=GRAPHITE)


def _heading(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, size: float) -> float:
    """A heading in white on an indigo slanted tag; the tag's height."""
    f = _face("bold", size)
    h = size * 1.45
    w = draw.textlength(text, font=f) + size * 1.3
    draw.polygon(_leaning((x + h * SLANT / 2, y, x + w, y + h)), fill=INDIGO)
    draw.text((x + size * 0.65, y + h / 2 + size * 0.08), text, font=f, fill=WHITE, anchor="lm")
    return h


def _dashboard(card: Card) -> Image.Image:
    band = 96
    image, draw = _ground(BOARD, band, 300)
    right = BOARD[0] - band - 50.0
    _title(draw, card.villain, right, 120, 900, 76)
    _chart(draw, card, 70, 236)
    gutter, left = 80, 70.0
    width, chunks = columns_of(card.sections, card.columns, left, right, gutter)
    top, bottom = 330.0, BOARD[1] - 50.0
    size = 40.0
    for chunk in chunks:
        paragraphs = [_words(s["text"], "text") for s in chunk]
        room = (0.0, top, width, bottom - len(chunk) * (size * 1.45 + 16 + size * 0.9))
        size = min(size, _fit(draw, room, paragraphs, 40))
    for index, chunk in enumerate(chunks):
        x, y = left + index * (width + gutter), top
        for section in chunk:
            y += _heading(draw, x, y, section["heading"], size) + 16
            y += _block(draw, (x, y, x + width, bottom), [_words(section["text"], "text")], size)
            y += size * 0.9
    return image
