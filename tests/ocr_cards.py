"""Synthetic card images for the OCR tests, drawn here with text we wrote ourselves.

Layouts follow the Villainous template boxes (fractions of the card); fonts are the Vera
faces that ship with reportlab, so the tests need nothing beyond the package's own
dependencies. Nothing here comes from a real card.
"""

from __future__ import annotations

import os
import random
import textwrap
from dataclasses import dataclass

import numpy as np
import reportlab
from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONTS = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
X_HEIGHT_EM = 0.55  # Vera's x-height as a share of its size


@dataclass
class CardText:
    title: str
    ability: str
    type: str
    strength: int | None = None
    cost: int | None = None


def font(x_height_px: float, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "VeraBd.ttf" if bold else "Vera.ttf"
    return ImageFont.truetype(os.path.join(FONTS, name), max(8, round(x_height_px / X_HEIGHT_EM)))


def _centred(draw: ImageDraw.ImageDraw, box: tuple[float, ...], text: str, f, fill) -> None:
    left, top, right, bottom = box
    width = draw.textlength(text, font=f)
    ascent, descent = f.getmetrics()
    x = left + (right - left - width) / 2
    y = top + (bottom - top - ascent - descent) / 2
    draw.text((x, y), text, font=f, fill=fill)


def villainous_card(
    card: CardText, width: int = 720, dark: bool = False, seed: int = 1
) -> Image.Image:
    """A Villainous-like card: art on top, a text panel below (dark for the villain deck)."""
    height = round(width * 88.9 / 63.5)
    rng = random.Random(seed)
    image = Image.new("RGB", (width, height), (60, 90, 70))
    draw = ImageDraw.Draw(image)
    for _ in range(40):  # "art": coloured blobs
        x, y = rng.uniform(0, width), rng.uniform(0, height * 0.5)
        r = rng.uniform(10, 80)
        colour = tuple(rng.randint(30, 220) for _ in range(3))
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
    panel = (110, 22, 28) if dark else (245, 240, 226)
    ink = (232, 200, 120) if dark else (30, 28, 30)
    draw.rectangle((0, round(height * 0.51), width, height), fill=panel)
    W, H = width, height

    def box(b: tuple[float, float, float, float]) -> tuple[float, ...]:
        return (b[0] * W, b[1] * H, b[2] * W, b[3] * H)

    _centred(draw, box((0.10, 0.530, 0.90, 0.610)), card.title, font(0.024 * H), ink)
    body = font(0.019 * H)
    lines = textwrap.wrap(card.ability, width=30)
    line_h = 0.019 * H / X_HEIGHT_EM * 1.25
    top = 0.635 * H + (0.27 * H - line_h * len(lines)) / 2
    for i, line in enumerate(lines):
        _centred(
            draw, (0.08 * W, top + i * line_h, 0.92 * W, top + (i + 1) * line_h), line, body, ink
        )
    if card.strength is not None:
        b = box((0.025, 0.875, 0.165, 0.985))
        _centred(draw, b, str(card.strength), font(0.03 * H, bold=True), ink)
    if card.cost is not None:
        b = box((0.095, 0.060, 0.170, 0.125))
        draw.ellipse((b[0] - 12, b[1] - 12, b[2] + 12, b[3] + 12), fill=panel)
        _centred(draw, b, str(card.cost), font(0.025 * H, bold=True), ink)
    accent = (230, 60, 60) if dark else (230, 150, 40)
    _centred(draw, box((0.335, 0.915, 0.665, 0.995)), card.type, font(0.021 * H, bold=True), accent)
    return image


def on_table(card: Image.Image, seed: int = 2, turn: float = 0.0) -> Image.Image:
    """The card photographed on a plain table: margins, a little perspective, blur, noise."""
    rng = np.random.default_rng(seed)
    w, h = card.size
    canvas_w, canvas_h = round(w * 1.6), round(h * 1.45)
    table = Image.new("RGB", (canvas_w, canvas_h), (150, 120, 90))
    dx, dy = canvas_w * 0.2, canvas_h * 0.16
    # corners of the card on the table: a slight trapezoid (camera not square on)
    corners = [
        (dx + 20, dy + 10),
        (dx + w - 10, dy + 30),
        (dx + w + 15, dy + h - 5),
        (dx - 10, dy + h + 10),
    ]
    import cv2

    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src, np.array(corners, dtype=np.float32))
    warped = cv2.warpPerspective(np.asarray(card), matrix, (canvas_w, canvas_h))
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, (canvas_w, canvas_h))
    photo = np.where(mask[..., None] > 0, warped, np.asarray(table)).astype(np.float32)
    photo += rng.normal(0, 6, photo.shape)
    image = Image.fromarray(np.clip(photo, 0, 255).astype(np.uint8)).filter(
        ImageFilter.GaussianBlur(0.8)
    )
    return image.rotate(turn, expand=True, fillcolor=(150, 120, 90)) if turn else image
