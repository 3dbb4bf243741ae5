"""Drawing helpers shared by the designs: fonts by file, text wrapped and fitted to a box
by measured width, and the token shapes (none of them the shapes of cardkit's icons)."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/truetype/liberation2"),
    Path("/usr/share/fonts/truetype/freefont"),
)
Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]  # left, top, right, bottom in pixels


def font_path(name: str) -> Path:
    """A font file on this machine (Debian: fonts-dejavu-core, fonts-liberation2,
    fonts-freefont-ttf); the samples are committed, so only regenerating needs them."""
    for folder in FONT_DIRS:
        if (folder / name).is_file():
            return folder / name
    raise FileNotFoundError(f"font {name} not found in {', '.join(map(str, FONT_DIRS))}")


def font(name: str, size: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(font_path(name)), max(6, round(size)))


def wrap(
    draw: ImageDraw.ImageDraw, text: str, f: ImageFont.FreeTypeFont, width: float
) -> list[str]:
    """Greedy word wrap by measured width."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if line and draw.textlength(trial, font=f) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def paragraphs(
    draw: ImageDraw.ImageDraw,
    box: Box,
    parts: list[tuple[str, str, Colour]],
    size: float,
    leading: float = 1.25,
    gap: float = 0.5,
    draw_it: bool = True,
) -> float:
    """Paragraphs of (font file, text, colour) from the box's top, wrapped to its width;
    returns the height used. With draw_it False only measures."""
    left, top, right, _ = box
    y = top
    for index, (face, text, colour) in enumerate(parts):
        f = font(face, size)
        for line in wrap(draw, text, f, right - left):
            if draw_it:
                draw.text((left, y), line, font=f, fill=colour)
            y += size * leading
        if index < len(parts) - 1:
            y += size * gap
    return y - top


def fit(
    draw: ImageDraw.ImageDraw, box: Box, parts: list[tuple[str, str, Colour]], size: float
) -> float:
    """The largest size (at most `size`) at which the paragraphs fit the box's height."""
    while size > 14 and paragraphs(draw, box, parts, size, draw_it=False) > box[3] - box[1]:
        size *= 0.95
    return size


def centred(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    f: ImageFont.FreeTypeFont,
    fill: Colour,
) -> None:
    draw.text(xy, text, font=f, fill=fill, anchor="mm")


def polygon(
    cx: float, cy: float, r: float, sides: int, turn: float = 0
) -> list[tuple[float, float]]:
    return [
        (
            cx + r * math.cos(turn + 2 * math.pi * i / sides),
            cy + r * math.sin(turn + 2 * math.pi * i / sides),
        )
        for i in range(sides)
    ]


def star(
    cx: float, cy: float, outer: float, inner: float, points: int, turn: float = -math.pi / 2
) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = turn + math.pi * i / points
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


# ---------------------------------------------------------------- token shapes


def token(
    draw: ImageDraw.ImageDraw,
    shape: str,
    cx: float,
    cy: float,
    r: float,
    fill: Colour,
    edge: Colour,
) -> None:
    """One token icon of radius r centred at (cx, cy)."""
    w = max(2, round(r * 0.12))
    if shape == "triangle":
        draw.polygon(
            polygon(cx, cy + r * 0.15, r * 1.05, 3, -math.pi / 2), fill=fill, outline=edge, width=w
        )
    elif shape == "pentagon":
        draw.polygon(polygon(cx, cy, r, 5, -math.pi / 2), fill=fill, outline=edge, width=w)
    elif shape == "ring":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=edge, width=w)
        draw.ellipse((cx - r * 0.45, cy - r * 0.45, cx + r * 0.45, cy + r * 0.45), fill=edge)
    elif shape == "diamond":
        draw.polygon(polygon(cx, cy, r * 1.1, 4, -math.pi / 2), fill=fill, outline=edge, width=w)
    elif shape == "figure":  # a head over a rounded body
        draw.rounded_rectangle(
            (cx - r * 0.75, cy - r * 0.1, cx + r * 0.75, cy + r), r * 0.4, fill=fill
        )
        draw.ellipse((cx - r * 0.45, cy - r, cx + r * 0.45, cy - r * 0.1), fill=fill)
    elif shape == "hexagon":
        draw.polygon(polygon(cx, cy, r, 6), fill=fill, outline=edge, width=w)
        draw.line((cx - r * 0.45, cy, cx + r * 0.45, cy), fill=edge, width=w)
    else:
        raise ValueError(f"unknown token shape {shape}")


def tokens_in(
    draw: ImageDraw.ImageDraw,
    box: Box,
    counts: dict[str, int],
    styles: dict[str, tuple[str, Colour, Colour]],
    radius: float,
) -> None:
    """A slot's tokens centred in its box (data order), in rows of as many as fit its
    width, at most three."""
    kinds = [kind for kind, n in counts.items() for _ in range(n)]
    if not kinds:
        return
    step = radius * 2.5
    fits = int((box[2] - box[0] - 2.4 * radius) // step) + 1
    per_row = max(1, min(3, fits, len(kinds)))
    rows = [kinds[i : i + per_row] for i in range(0, len(kinds), per_row)]
    cy0 = (box[1] + box[3]) / 2 - (len(rows) - 1) * step / 2
    for row_index, row in enumerate(rows):
        cx0 = (box[0] + box[2]) / 2 - (len(row) - 1) * step / 2
        for index, kind in enumerate(row):
            shape, fill, edge = styles[kind]
            token(draw, shape, cx0 + index * step, cy0 + row_index * step, radius, fill, edge)


def canvas(size: tuple[int, int], colour: Colour) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", size, colour)
    return image, ImageDraw.Draw(image)


Words = list[tuple[float, str, ImageFont.FreeTypeFont, Colour]]  # (x, word, font, colour)


def run_lines(
    draw: ImageDraw.ImageDraw,
    runs: list[tuple[str, str, Colour]],
    width: float,
    face_of: Callable[[str], ImageFont.FreeTypeFont],
) -> list[Words]:
    """Runs of mixed faces (font file, text, colour) wrapped word by word to `width`: each
    line a list of (x, word, font, colour); `face_of` gives the font a run's file is set in."""
    lines: list[Words] = [[]]
    x = 0.0
    for face, text, colour in runs:
        f = face_of(face)
        space = draw.textlength(" ", font=f)
        for word in text.split():
            w = draw.textlength(word, font=f)
            if lines[-1] and x + w > width:
                lines.append([])
                x = 0.0
            lines[-1].append((x, word, f, colour))
            x += w + space
    return [line for line in lines if line]


def columns_of(
    sections: list[Any], columns: int, left: float, right: float, gutter: float
) -> tuple[float, list[list[Any]]]:
    """A Dashboard's sections shared out over its columns, top to bottom then left to
    right (the first columns take one more when they do not divide evenly), and the
    width of a column between `left` and `right`."""
    width = (right - left - gutter * (columns - 1)) / columns
    per = -(-len(sections) // columns)
    return width, [sections[i * per : (i + 1) * per] for i in range(columns)]


def by_kind(
    card: Any,
    masterplan: Callable[[Any], Any],
    threat: Callable[[Any], Image.Image],
    dashboard: Callable[[Any], Image.Image],
) -> Any:
    """A design's card painted by its painter for the card's kind: (image, the master
    plan's diagram order or None)."""
    if card.kind == "masterplan":
        return masterplan(card)
    if card.kind == "threat":
        return threat(card), None
    return dashboard(card), None
