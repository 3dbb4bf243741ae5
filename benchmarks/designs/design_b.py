"""design-b (development): a parchment card with a teal title band (white on teal), the
Move value in an orange disc at the top right with "MOVE" under it, BAM! as a word in a
yellow burst, three slots in the middle with a teal star over the Villain's slot,
Civilians as blue triangles and Thugs as violet pentagons; Liberation Serif and Sans.
Effects print "Name:" in bold on a line of its own, then the text."""

from __future__ import annotations

from typing import Any

from PIL import Image

from .data import Card, dashboard, masterplan, move_of, movement_of, slots_of, threat
from .draw import (
    by_kind,
    canvas,
    centred,
    columns_of,
    fit,
    font,
    paragraphs,
    polygon,
    star,
    tokens_in,
)

NAME = "design-b"
JOINER = ": "
SIZE, BOARD = (750, 1050), (1772, 1181)
PAPER, TEAL, INK = (244, 236, 216), (22, 92, 96), (34, 30, 26)
ORANGE, SLOT, SLOT_EDGE = (232, 120, 40), (224, 210, 180), (120, 100, 70)
TOKENS = {
    "civilian": ("triangle", (34, 139, 178), (30, 30, 30)),
    "thug": ("pentagon", (112, 48, 160), (30, 30, 30)),
}
SANS, BOLD = "LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf"
SERIF, SERIF_B, SERIF_I = (
    "LiberationSerif-Regular.ttf",
    "LiberationSerif-Bold.ttf",
    "LiberationSerif-Italic.ttf",
)


def cards() -> list[Card]:
    d = NAME
    return [
        masterplan(d, "ks-promos/bullseye", 1),
        masterplan(d, "ks-promos/dormammu", 1),
        masterplan(d, "ks-promos/dormammu", 5),
        masterplan(d, "multiverse-ks-promos/blastaar", 1),
        masterplan(d, "multiverse-ks-promos/titania", 2),
        masterplan(d, "multiverse-ks-promos/titania", 8),
        masterplan(d, "multiverse-ks-promos/absorbing-man", 10),
        masterplan(d, "multiverse-ks-promos/maximus", 2),
        threat(d, "multiverse-ks-promos/mole-man", "Dromedan"),
        threat(d, "ks-promos/bullseye", "Hiding Place"),
        threat(d, "ks-promos/dormammu", "Banishment"),
        dashboard(d, "ks-promos/bullseye", 1),
        dashboard(d, "multiverse-ks-promos/titania", 2),
    ]


def _frame(size: tuple[int, int], title: str) -> tuple[Image.Image, Any]:
    image, draw = canvas(size, PAPER)
    draw.rounded_rectangle((10, 10, size[0] - 11, size[1] - 11), 28, outline=TEAL, width=10)
    draw.rectangle((30, 34, size[0] - 31, 140), fill=TEAL)
    f, limit = font(BOLD, 54), size[0] - 250 if size == SIZE else size[0] - 120
    while draw.textlength(title, font=f) > limit and f.size > 24:
        f = font(BOLD, f.size - 2)
    draw.text((54, 87), title, font=f, fill=(255, 255, 255), anchor="lm")
    return image, draw


def paint(card: Card) -> tuple[Image.Image, list[str] | None]:
    painted: tuple[Image.Image, list[str] | None] = by_kind(card, _masterplan, _threat, _dashboard)
    return painted


def _masterplan(card: Card) -> tuple[Image.Image, list[str] | None]:
    data = card.data
    image, draw = _frame(SIZE, f"{card.villain} {data['n']}")
    draw.ellipse((570, 80, 710, 220), fill=ORANGE, outline=(255, 255, 255), width=6)
    centred(draw, (640, 152), str(move_of(data)), font(BOLD, 96), INK)
    centred(draw, (640, 248), "MOVE", font(BOLD, 28), TEAL)
    if data.get("bam"):
        draw.polygon(star(130, 220, 72, 48, 11), fill=(250, 200, 50), outline=(180, 30, 30))
        centred(draw, (130, 222), "BAM!", font(BOLD, 34), (180, 30, 30))
    place, diagram = slots_of(data.get("place")), None
    top = 310
    if place == "none":
        centred(draw, (375, 390), "No tokens placed.", font(SERIF_I, 36), INK)
        top = 470
    elif isinstance(place, dict):
        anchor = data["place"].get("anchor")
        diagram = ["left", anchor or "villain", "right"]
        for index, slot in enumerate(("left", "villain", "right")):
            box = (55 + index * 220, 330, 255 + index * 220, 500)
            draw.rounded_rectangle(box, 18, fill=SLOT, outline=SLOT_EDGE, width=4)
            if slot == "villain" and anchor:  # a sewer grate where the Villain would be
                draw.rounded_rectangle((305, 370, 445, 460), 10, fill=(46, 125, 50))
                for x in range(325, 440, 24):
                    draw.line((x, 380, x, 450), fill=(200, 230, 200), width=6)
            elif slot == "villain":
                draw.polygon(star(375, 318, 30, 13, 5), fill=TEAL)
            tokens_in(draw, box, place[slot], TOKENS, 28)
        top = 540
    else:
        top = 300
    parts = []
    if movement_of(data):
        parts.append((SERIF_I, movement_of(data), INK))
    for effect in data.get("effects", []):
        if effect.get("name"):
            parts.append((SERIF_B, f"{effect['name']}:", TEAL))
        parts.append((SERIF, effect["text"], INK))
    box = (60, top, 690, 1000)
    if parts:
        paragraphs(draw, box, parts, fit(draw, box, parts, 38), gap=0.35)
    return image, diagram


def _threat(card: Card) -> Image.Image:
    data = card.data
    image, draw = _frame(SIZE, data["name"])
    box = (60, 190, 690, 820)
    parts = [(SERIF, data["text"], INK)]
    paragraphs(draw, box, parts, fit(draw, box, parts, 40))
    if data.get("health") is not None:
        draw.rounded_rectangle((540, 840, 700, 990), 24, fill=(190, 40, 40))
        centred(draw, (620, 905), str(data["health"]), font(BOLD, 84), (255, 255, 255))
        centred(draw, (620, 965), "Health", font(BOLD, 28), (255, 255, 255))
    return image


def _dashboard(card: Card) -> Image.Image:
    image, draw = _frame(BOARD, card.villain)
    columns = card.columns
    gutter, left, right, top, bottom = 50, 60, BOARD[0] - 60, 180, BOARD[1] - 60
    width, chunks = columns_of(card.sections, columns, left, right, gutter)
    size = 40.0
    for index, chunk in enumerate(chunks):
        x = left + index * (width + gutter)
        last = index == columns - 1
        box = (x, top, x + width, bottom - (190 if last else 0))  # the table sits below
        size = min(size, fit(draw, box, _parts(chunk), 40))
    for index, chunk in enumerate(chunks):
        x = left + index * (width + gutter)
        y = float(top)
        for section in chunk:
            f = font(BOLD, size * 1.1)
            draw.text((x, y), section["heading"], font=f, fill=TEAL)
            y += size * 1.3
            draw.line((x, y, x + width, y), fill=TEAL, width=3)
            y += size * 0.3
            y += paragraphs(draw, (x, y, x + width, bottom), [(SERIF, section["text"], INK)], size)
            y += size * 0.6
    # the player-count table, bottom right: teal cells for the Heroes, light ones for Health
    cell = 110
    x0 = right - cell * len(card.player_count)
    for index, (players, health) in enumerate(card.player_count.items()):
        x = x0 + index * cell
        draw.rectangle((x, bottom - 170, x + cell, bottom - 85), fill=TEAL, outline=INK, width=3)
        draw.rectangle((x, bottom - 85, x + cell, bottom), fill=SLOT, outline=INK, width=3)
        centred(draw, (x + cell / 2, bottom - 127), str(players), font(BOLD, 54), (255, 255, 255))
        value = "" if health is None else str(health)
        centred(draw, (x + cell / 2, bottom - 42), value, font(BOLD, 54), INK)
    draw.polygon(polygon(x0 - 50, bottom - 127, 26, 3, -1.5708), fill=TEAL)  # a "players" mark
    return image


def _parts(sections: list[dict[str, str]]) -> list[tuple[str, str, tuple[int, int, int]]]:
    out = []
    for section in sections:
        out += [(BOLD, section["heading"], TEAL), (SERIF, section["text"], INK)]
    return out
