"""A small painter for synthetic card images (benchmarks/make_samples_vc.py): boxes in
card-relative units, small-caps titles, outlined italic marks, the per-hero mark, in the
Vera fonts that ship with reportlab."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path
from typing import Any

import reportlab
from PIL import Image, ImageDraw, ImageFont

FONTS = Path(reportlab.__file__).parent / "fonts"
X_HEIGHT_EM = 0.55  # Vera's x-height as a share of its size
CAP_EM = 0.73  # Vera's cap height as a share of its size
INK, PAPER = (28, 26, 30), (246, 242, 230)
Box = tuple[float, float, float, float]


def font(x_height: float, face: str = "Vera") -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / f"{face}.ttf"), max(8, round(x_height / X_HEIGHT_EM)))


class Painter:
    """Draws on a card in card-relative boxes (fractions of width and height)."""

    def __init__(self, size: tuple[int, int], background: tuple[int, int, int]) -> None:
        self.image = Image.new("RGB", size, background)
        self.draw = ImageDraw.Draw(self.image)
        self.w, self.h = size

    def px(self, box: Box) -> tuple[float, float, float, float]:
        return (box[0] * self.w, box[1] * self.h, box[2] * self.w, box[3] * self.h)

    def fill(self, box: Box, colour: tuple[int, int, int], radius: float = 0) -> None:
        self.draw.rounded_rectangle(self.px(box), radius * self.h, fill=colour)

    def art(self, box: Box, seed: int) -> None:
        """Flat coloured shapes where the card's illustration is."""
        rng = random.Random(seed)
        left, top, right, bottom = self.px(box)
        self.draw.rectangle((left, top, right, bottom), fill=(70, 96, 120))
        for _ in range(18):
            x, y = rng.uniform(left, right), rng.uniform(top, bottom)
            r = rng.uniform(0.04, 0.16) * self.w
            colour = tuple(rng.randint(40, 200) for _ in range(3))
            shape = (max(left, x - r), max(top, y - r), min(right, x + r), min(bottom, y + r))
            if shape[0] < shape[2] and shape[1] < shape[3]:
                self.draw.ellipse(shape, fill=colour)

    def text(self, box: Box, text: str, f: Any, fill: Any, align: str = "centre") -> None:
        left, top, right, bottom = self.px(box)
        width = self.draw.textlength(text, font=f)
        ascent, descent = f.getmetrics()
        x = left + (right - left - width) / 2 if align == "centre" else left
        y = top + (bottom - top - ascent - descent) / 2
        self.draw.text((x, y), text, font=f, fill=fill)

    def small_caps(self, box: Box, text: str, x_height: float, fill: Any) -> None:
        """A title in small caps: capitals at cap height, the other letters as capitals at
        x-height (how both games print card titles)."""
        bold = str(FONTS / "VeraBd.ttf")
        big = ImageFont.truetype(bold, round(x_height * 1.25 / CAP_EM))
        small = ImageFont.truetype(bold, round(x_height / CAP_EM))
        left, top, _, bottom = self.px(box)
        base = (top + bottom) / 2 + x_height * 1.25 / 2  # the capitals centred in the box
        x = left
        for word_index, word in enumerate(text.split(" ")):
            if word_index:
                x += self.draw.textlength(" ", font=small)
            for index, char in enumerate(word):
                f = big if index == 0 or not char.isalpha() or char.isupper() else small
                self.draw.text((x, base), char.upper(), font=f, fill=fill, anchor="ls")
                x += self.draw.textlength(char.upper(), font=f)

    def paragraph(
        self, box: Box, lines: list[tuple[str, str]], x_height: float, fill: Any
    ) -> float:
        """Lines of (face, text) from the box's top, each wrapped to its width; returns where
        the next paragraph starts (a fraction of the height)."""
        left, top, right, _ = self.px(box)
        y = top
        for face, text in lines:
            f = font(x_height, face)
            chars = max(10, int((right - left) / (x_height * 1.15)))
            for line in textwrap.wrap(text, chars):
                while self.draw.textlength(line, font=f) > right - left and chars > 10:
                    chars -= 1
                    line = textwrap.wrap(text, chars)[0]
                self.draw.text((left, y), line, font=f, fill=fill)
                y += x_height / X_HEIGHT_EM * 1.22
            y += x_height * 0.8
        return y / self.h

    def outlined(self, box: Box, text: str, cap: float, slant: float = 0.22) -> None:
        """White italic glyphs with a black outline (stage marks, threat values)."""
        f = ImageFont.truetype(str(FONTS / "VeraBd.ttf"), round(cap / CAP_EM))
        left, top, right, bottom = (round(v) for v in self.px(box))
        layer = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
        ImageDraw.Draw(layer).text(
            (layer.width / 2, layer.height / 2),
            text,
            font=f,
            fill="white",
            anchor="mm",
            stroke_width=max(2, round(cap * 0.09)),
            stroke_fill="black",
        )
        sheared = layer.transform(
            layer.size, Image.Transform.AFFINE, (1, slant, -slant * layer.height / 2, 0, 1, 0)
        )
        self.image.paste(sheared, (left, top), sheared)

    def person(self, x: float, y: float, size: float, fill: Any) -> None:
        """The per-hero mark: a head over shoulders, `size` tall, its foot at (x, y)."""
        head = size * 0.42
        self.draw.ellipse(
            (x + size * 0.12, y - size, x + size * 0.12 + head, y - size + head), fill
        )
        self.draw.pieslice((x, y - size * 0.5, x + size * 0.66, y + size * 0.5), 180, 360, fill)
