"""design-c (development): light on dark. A navy card with light text in DejaVu Sans
Condensed, the title at the top left and BAM! as a word on a yellow tag at the top right,
the placement diagram right under the title drawing only the Villain's slot and the side
slots that hold tokens (two or three slots; the Villain's slot outlined in yellow with a
bar under it), Civilians as light-blue rings and Thugs as magenta diamonds, effects in a
light panel (dark text), the Move value at the bottom left in a yellow hexagon with "MOVE"
beside it. Effect names are printed on a line of their own, without a colon."""

from __future__ import annotations

from typing import Any

from PIL import Image

from .data import Card, dashboard, masterplan, move_of, movement_of, slots_of, threat
from .draw import by_kind, canvas, centred, columns_of, fit, font, paragraphs, polygon, tokens_in

NAME = "design-c"
JOINER = " "
LIGHT_ON_DARK = True  # the card's ground is dark, its ink light (its panels the other way)
SIZE, BOARD = (744, 1039), (1772, 1181)
NAVY, LINE, LIGHT = (26, 32, 52), (90, 110, 160), (236, 236, 242)
YELLOW, PANEL, DARK = (246, 196, 40), (236, 232, 220), (28, 30, 40)
TOKENS = {"civilian": ("ring", (96, 178, 240), NAVY), "thug": ("diamond", (214, 64, 150), LIGHT)}
SANS, BOLD = "DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf"
OBLIQUE = "DejaVuSansCondensed-Oblique.ttf"


def cards() -> list[Card]:
    d = NAME
    return [
        masterplan(d, "ks-promos/venom", 9),
        masterplan(d, "ks-promos/venom", 1),
        masterplan(d, "multiverse-ks-promos/crimson-dynamo", 11),
        masterplan(d, "multiverse-ks-promos/crimson-dynamo", 12),
        masterplan(d, "multiverse-ks-promos/cabal-iron-patriot", 9),
        masterplan(d, "multiverse-ks-promos/shocker", 4),
        masterplan(d, "multiverse-ks-promos/gorr", 5),
        masterplan(d, "multiverse-ks-promos/purple-man", 2),
        threat(d, "multiverse-ks-promos/mole-man", "Giganto"),
        threat(d, "ks-promos/venom", "Infect"),
        threat(d, "multiverse-ks-promos/shocker", "Minions"),
        dashboard(d, "ks-promos/venom", 2, order=("bam", "villainous_plot")),
        dashboard(d, "multiverse-ks-promos/shocker", 1, order=("overflow",)),
    ]


def paint(card: Card) -> tuple[Image.Image, list[str] | None]:
    painted: tuple[Image.Image, list[str] | None] = by_kind(card, _masterplan, _threat, _dashboard)
    return painted


def _frame(size: tuple[int, int], title: str, room: int) -> tuple[Image.Image, Any]:
    image, draw = canvas(size, NAVY)
    draw.rectangle((16, 16, size[0] - 17, size[1] - 17), outline=LINE, width=4)
    f = font(BOLD, 50)
    while draw.textlength(title, font=f) > size[0] - 90 - room and f.size > 24:
        f = font(BOLD, f.size - 2)
    draw.text((44, 40), title, font=f, fill=LIGHT)
    return image, draw


def _masterplan(card: Card) -> tuple[Image.Image, list[str] | None]:
    data = card.data
    image, draw = _frame(SIZE, f"{card.villain} {data['n']}", 170)
    if data.get("bam"):
        draw.rectangle((556, 38, 704, 100), fill=YELLOW)
        centred(draw, (630, 70), "BAM!", font(BOLD, 42), NAVY)
    place, diagram = slots_of(data.get("place")), None
    top = 140
    if place == "none":
        centred(draw, (372, 190), "No tokens placed.", font(OBLIQUE, 34), LIGHT)
        top = 260
    elif isinstance(place, dict):
        diagram = [s for s in ("left", "villain", "right") if s == "villain" or place[s]]
        width = 200
        x0 = (SIZE[0] - len(diagram) * width - (len(diagram) - 1) * 24) / 2
        for index, slot in enumerate(diagram):
            x = x0 + index * (width + 24)
            box = (x, 140, x + width, 320)
            villain = slot == "villain"
            draw.rectangle(box, fill=(40, 48, 75), outline=YELLOW if villain else LINE, width=6)
            if villain:
                draw.rectangle((x + 50, 330, x + width - 50, 342), fill=YELLOW)
            tokens_in(draw, box, place[slot], TOKENS, 30)
        top = 370
    if movement_of(data):
        parts = [(SANS, movement_of(data), LIGHT)]
        top += paragraphs(draw, (50, top, 694, 800), parts, 34) + 20
    parts = []
    for effect in data.get("effects", []):
        if effect.get("name"):
            parts.append((BOLD, effect["name"], DARK))
        parts.append((SANS, effect["text"], DARK))
    if parts:
        box = (62, top + 18, 682, 810)
        size = fit(draw, box, parts, 34)
        used = paragraphs(draw, box, parts, size, draw_it=False)
        draw.rounded_rectangle((44, top, 700, top + used + 40), 14, fill=PANEL)
        paragraphs(draw, box, parts, size, gap=0.3)
    draw.polygon(polygon(130, 930, 78, 6), outline=YELLOW, width=8)
    centred(draw, (130, 932), str(move_of(data)), font(BOLD, 104), LIGHT)
    draw.text((224, 930), "MOVE", font=font(BOLD, 34), fill=YELLOW, anchor="lm")
    return image, diagram


def _threat(card: Card) -> Image.Image:
    data = card.data
    image, draw = _frame(SIZE, data["name"], 0)
    parts = [(SANS, data["text"], DARK)]
    box = (66, 160, 678, 800)
    size = fit(draw, box, parts, 38)
    used = paragraphs(draw, box, parts, size, draw_it=False)
    draw.rounded_rectangle((44, 136, 700, 136 + used + 50), 14, fill=PANEL)
    paragraphs(draw, box, parts, size)
    if data.get("health") is not None:
        draw.ellipse((54, 856, 204, 1006), fill=YELLOW)
        centred(draw, (129, 933), str(data["health"]), font(BOLD, 90), NAVY)
        draw.text((224, 931), "HEALTH", font=font(BOLD, 34), fill=YELLOW, anchor="lm")
    return image


def _dashboard(card: Card) -> Image.Image:
    image, draw = _frame(BOARD, card.villain, 400)
    # the player-count table, top right and upright: Heroes in yellow, Health beside
    rows = list(card.player_count.items())
    for index, (players, health) in enumerate(rows):
        y = 40 + index * 70
        draw.rectangle((1500, y, 1590, y + 64), fill=YELLOW)
        draw.rectangle((1590, y, 1700, y + 64), outline=YELLOW, width=4)
        centred(draw, (1545, y + 32), str(players), font(BOLD, 46), NAVY)
        centred(draw, (1645, y + 32), "" if health is None else str(health), font(BOLD, 46), LIGHT)
    columns, gutter = card.columns, 60
    left, right = 50, (1440 if card.columns == 1 else BOARD[0] - 50)
    top, bottom = 150, BOARD[1] - 50
    width, chunks = columns_of(card.sections, columns, left, right, gutter)
    size = 38.0
    for index, chunk in enumerate(chunks):
        x = left + index * (width + gutter)
        box_top = top + (180 if columns > 1 and index == columns - 1 else 0)  # under the table
        parts = [p for s in chunk for p in ((BOLD, s["heading"], YELLOW), (SANS, s["text"], LIGHT))]
        size = min(size, fit(draw, (x, box_top, x + width, bottom), parts, 38))
    for index, chunk in enumerate(chunks):
        x = left + index * (width + gutter)
        box_top = top + (180 if columns > 1 and index == columns - 1 else 0)
        parts = [p for s in chunk for p in ((BOLD, s["heading"], YELLOW), (SANS, s["text"], LIGHT))]
        paragraphs(draw, (x, box_top, x + width, bottom), parts, size, gap=0.4)
    return image
