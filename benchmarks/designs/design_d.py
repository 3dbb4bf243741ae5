"""design-d (development: held out until measured). A white card in a red frame
with a red strip down the left edge that carries the Move value ("Move" over a large
number) or, on a threat, the Health; the title in FreeSerif Bold to the right of the
strip; BAM! as a mark only (an orange burst with "!"); effect names white on a dark red
bar; the placement diagram at the bottom: four slots (left, the Villain's, right, and an
empty dashed slot beyond), a red pointer over the Villain's slot; Civilians as blue
figures, Thugs as dark purple hexagons; FreeSans and FreeSerif. Dashboards: headings
white on dark red bars, the table labelled "Heroes" and "Health"."""

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

NAME = "design-d"
JOINER = " "
SIZE, BOARD = (750, 1050), (1890, 1134)
WHITE, RED, MAROON, INK = (252, 250, 246), (170, 28, 36), (92, 22, 30), (30, 20, 20)
SLOT, SLOT_EDGE = (238, 234, 226), (90, 90, 90)
TOKENS = {"civilian": ("figure", (38, 92, 196), WHITE), "thug": ("hexagon", (72, 36, 96), WHITE)}
SANS, BOLD = "FreeSans.ttf", "FreeSansBold.ttf"
SERIF, SERIF_B, SERIF_I = "FreeSerif.ttf", "FreeSerifBold.ttf", "FreeSerifItalic.ttf"
STRIP = 150  # the left strip's right edge


def cards() -> list[Card]:
    d = NAME
    return [
        masterplan(d, "multiverse-ks-promos/abomination", 3),
        masterplan(d, "multiverse-ks-promos/enchantress", 6),
        masterplan(d, "multiverse-ks-promos/maximus", 5),
        masterplan(d, "multiverse-ks-promos/gorr", 9),
        masterplan(d, "ks-promos/corvus-glaive", 4),
        masterplan(d, "multiverse-ks-promos/lizard", 5),
        masterplan(d, "multiverse-ks-promos/mole-man", 2),
        masterplan(d, "multiverse-ks-promos/knull", 2),
        threat(d, "multiverse-ks-promos/mole-man", "Tricephalous"),
        threat(d, "multiverse-ks-promos/knull", "Symbiote Henchman"),
        threat(d, "multiverse-ks-promos/purple-man", "Mind Control"),
        dashboard(d, "multiverse-ks-promos/gorr", 1, order=("villainous_plot",)),
        dashboard(d, "multiverse-ks-promos/blastaar", 2, order=("villainous_plot", "bam")),
    ]


def paint(card: Card) -> tuple[Image.Image, list[str] | None]:
    painted: tuple[Image.Image, list[str] | None] = by_kind(card, _masterplan, _threat, _dashboard)
    return painted


def _frame(size: tuple[int, int], title: str, strip: bool, room: int) -> tuple[Image.Image, Any]:
    image, draw = canvas(size, WHITE)
    draw.rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), 30, outline=RED, width=22)
    x = STRIP + 25 if strip else 50
    if strip:
        draw.rectangle((22, 22, STRIP, size[1] - 23), fill=RED)
    f = font(SERIF_B, 52)
    while draw.textlength(title, font=f) > size[0] - x - 40 - room and f.size > 24:
        f = font(SERIF_B, f.size - 2)
    draw.text((x, 48), title, font=f, fill=INK)
    return image, draw


def _masterplan(card: Card) -> tuple[Image.Image, list[str] | None]:
    data = card.data
    image, draw = _frame(SIZE, f"{card.villain} {data['n']}", True, 120 if data.get("bam") else 0)
    centred(draw, (86, 90), "Move", font(BOLD, 32), WHITE)
    centred(draw, (86, 180), str(move_of(data)), font(BOLD, 120), WHITE)
    if data.get("bam"):  # the mark only, no word
        draw.polygon(star(655, 95, 58, 36, 12), fill=(240, 90, 30))
        centred(draw, (655, 97), "!", font(BOLD, 64), WHITE)
    place, diagram = slots_of(data.get("place")), None
    bottom = 985
    if place == "none":
        centred(draw, (450, 930), "No tokens placed.", font(SERIF_I, 34), INK)
        bottom = 870
    elif isinstance(place, dict):
        anchor = data["place"].get("anchor")
        diagram = ["left", anchor or "villain", "right", "beyond"]
        width, gap, x0 = 128, 12, STRIP + 28
        for index, slot in enumerate(("left", "villain", "right", "beyond")):
            x = x0 + index * (width + gap)
            box = (x, 820, x + width, 1000)
            if slot == "beyond":  # an empty Location past the right one, dashed
                for y in range(820, 1000, 24):
                    draw.line((x, y, x, y + 12), fill=SLOT_EDGE, width=3)
                    draw.line((x + width, y, x + width, y + 12), fill=SLOT_EDGE, width=3)
                for xx in range(round(x), round(x + width), 24):
                    draw.line((xx, 820, xx + 12, 820), fill=SLOT_EDGE, width=3)
                    draw.line((xx, 1000, xx + 12, 1000), fill=SLOT_EDGE, width=3)
                continue
            draw.rectangle(box, fill=SLOT, outline=SLOT_EDGE, width=3)
            if slot == "villain" and anchor:
                draw.rectangle((x + 22, 865, x + width - 22, 955), fill=(30, 130, 90))
                for yy in range(880, 950, 18):
                    draw.line((x + 30, yy, x + width - 30, yy), fill=(210, 235, 220), width=5)
            elif slot == "villain":
                draw.polygon(polygon(x + width / 2, 796, 20, 3, 1.5708), fill=RED)
            tokens_in(draw, box, place[slot], TOKENS, 23)
        bottom = 770
    parts: list[tuple[str, str, tuple[int, int, int]]] = []
    if movement_of(data):
        parts.append((SERIF_I, movement_of(data), INK))
    box = (STRIP + 28, 170, 712, bottom)
    y = 170.0
    if parts:
        y += paragraphs(draw, box, parts, 36) + 24
    for effect in data.get("effects", []):
        if effect.get("name"):
            f = font(BOLD, 32)
            draw.rectangle((STRIP + 20, y, 716, y + 52), fill=MAROON)
            draw.text((STRIP + 30, y + 26), effect["name"], font=f, fill=WHITE, anchor="lm")
            y += 66
        text = [(SERIF, effect["text"], INK)]
        size = fit(draw, (STRIP + 28, y, 712, bottom), text, 36)
        y += paragraphs(draw, (STRIP + 28, y, 712, bottom), text, size) + 20
    return image, diagram


def _threat(card: Card) -> Image.Image:
    data = card.data
    image, draw = _frame(SIZE, data["name"], True, 0)
    if data.get("health") is not None:
        centred(draw, (86, 870), "Health", font(BOLD, 30), WHITE)
        centred(draw, (86, 950), str(data["health"]), font(BOLD, 100), WHITE)
    parts = [(SERIF, data["text"], WHITE)]
    box = (STRIP + 45, 200, 690, 960)
    size = fit(draw, box, parts, 38)
    used = paragraphs(draw, box, parts, size, draw_it=False)
    draw.rectangle((STRIP + 22, 175, 712, 175 + used + 50), fill=MAROON)
    paragraphs(draw, box, parts, size)
    return image


def _dashboard(card: Card) -> Image.Image:
    image, draw = _frame(BOARD, card.villain, False, 0)
    # the labelled table, bottom left: "Heroes" over "Health"
    label = font(BOLD, 34)
    draw.text((60, BOARD[1] - 170), "Heroes", font=label, fill=INK, anchor="lm")
    draw.text((60, BOARD[1] - 95), "Health", font=label, fill=INK, anchor="lm")
    for index, (players, health) in enumerate(card.player_count.items()):
        x = 200 + index * 90
        draw.rectangle((x, BOARD[1] - 205, x + 90, BOARD[1] - 135), outline=INK, width=3)
        draw.rectangle((x, BOARD[1] - 130, x + 90, BOARD[1] - 60), outline=INK, width=3)
        centred(draw, (x + 45, BOARD[1] - 170), str(players), font(BOLD, 44), INK)
        value = "" if health is None else str(health)
        centred(draw, (x + 45, BOARD[1] - 95), value, font(BOLD, 44), RED)
    columns, gutter, left, right = card.columns, 60, 60, BOARD[0] - 60
    width, chunks = columns_of(card.sections, columns, left, right, gutter)
    top, bottom = 150, BOARD[1] - 60
    size = 38.0
    for index, chunk in enumerate(chunks):
        x = left + index * (width + gutter)
        room = bottom - (230 if index == 0 else 0)  # the table is under the first column
        parts = [p for s in chunk for p in ((BOLD, s["heading"], WHITE), (SERIF, s["text"], INK))]
        size = min(size, fit(draw, (x, top, x + width, room - len(chunk) * 12), parts, 38))
    for index, chunk in enumerate(chunks):
        x, y = left + index * (width + gutter), float(top)
        for section in chunk:
            draw.rectangle((x - 10, y, x + width, y + size * 1.5), fill=MAROON)
            draw.text(
                (x, y + size * 0.75),
                section["heading"],
                font=font(BOLD, size),
                fill=WHITE,
                anchor="lm",
            )
            y += size * 1.5 + size * 0.35
            y += paragraphs(draw, (x, y, x + width, bottom), [(SERIF, section["text"], INK)], size)
            y += size * 0.7
    return image
