"""Vector icons for proxies: data per system, drawn once per PDF as a form and reused.

Each system may keep an `icons.yaml` in its folder (cardkit/systems/<system>/):
a name, a label for the legend, a role (token, action, anchor), a shape, a fill
colour and an optional white glyph or emblem. This module knows the shapes; the
systems know their icons. `palette()` gives the fill colours as RGB so other code
(OCR token counting) can look for them in rendered or scanned cards.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

from cardkit.render import fonts

UNIT = 100.0  # icons are drawn in a 100 x 100 box, then scaled
RGB = tuple[float, float, float]


@dataclass(frozen=True)
class Icon:
    key: str
    label: str
    role: str
    shape: str
    fill: RGB
    glyph: str = ""
    emblem: str = ""
    aliases: tuple[str, ...] = field(default=())

    @property
    def rgb255(self) -> tuple[int, int, int]:
        r, g, b = (round(v * 255) for v in self.fill)
        return r, g, b


def hex_colour(text: str) -> RGB:
    value = text.lstrip("#")
    if not re.fullmatch(r"[0-9a-fA-F]{6}", value):
        raise ValueError(f"'{text}' is not a colour; write it like #1e6fd9")
    r, g, b = (int(value[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return r, g, b


def icon_file(system: str) -> Path | None:
    """The system's `icons.yaml`, found through the registry (a system outside cardkit too)."""
    from cardkit import systems

    try:
        return systems.get(system).data_file("icons.yaml")
    except systems.UnknownName:
        return None


@cache
def icon_set(system: str) -> dict[str, Icon]:
    """The system's icons by name and by alias (empty if the system declares none)."""
    from cardkit.files import yamlio

    path = icon_file(system)
    if path is None:
        return {}
    data: Any = yamlio.load_text(path.read_text(encoding="utf-8"))
    found: dict[str, Icon] = {}
    for key, spec in (data or {}).get("icons", {}).items():
        icon = Icon(
            key=str(key),
            label=str(spec["label"]),
            role=str(spec.get("role", "token")),
            shape=str(spec["shape"]),
            fill=hex_colour(str(spec["fill"])),
            glyph=str(spec.get("glyph", "")),
            emblem=str(spec.get("emblem", "")),
            aliases=tuple(str(a) for a in spec.get("aliases", [])),
        )
        if icon.shape not in SHAPES:
            raise ValueError(f"{path}: icon '{key}' has unknown shape '{icon.shape}'")
        found[icon.key] = icon
        for alias in icon.aliases:
            found.setdefault(alias, icon)
    return found


def palette(system: str, role: str | None = None) -> dict[str, tuple[int, int, int]]:
    """Fill colours as 0-255 RGB by icon name (aliases left out), optionally of one role."""
    return {
        key: icon.rgb255
        for key, icon in icon_set(system).items()
        if key == icon.key and (role is None or icon.role == role)
    }


@cache
def lookup(system: str, name: str) -> Icon:
    """The system's icon for `name`; an undeclared token gets a grey tile with its initial."""
    key = name.lower().replace("_", "-").replace(" ", "-")
    icons = icon_set(system)
    if key in icons:
        return icons[key]
    if key.endswith("s") and key[:-1] in icons:
        return icons[key[:-1]]
    return Icon(
        key, name.replace("_", " ").title(), "token", "square", (0.46, 0.46, 0.46), key[:1].upper()
    )


# -- shapes: each draws the icon's outline path in the 100-unit box --------------------


def _polygon(c: Canvas, points: list[tuple[float, float]]) -> None:
    path = c.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    c.drawPath(path, fill=1, stroke=1)


def _ring(
    count: int, outer: float, inner: float | None = None, turn: float = 90
) -> list[tuple[float, float]]:
    points = []
    steps = count * (2 if inner else 1)
    for index in range(steps):
        radius = inner if inner and index % 2 else outer
        angle = math.radians(turn + index * 360 / steps)
        points.append((50 + radius * math.cos(angle), 50 + radius * math.sin(angle)))
    return points


def _circle(c: Canvas) -> None:
    c.circle(50, 50, 45, stroke=1, fill=1)


def _square(c: Canvas) -> None:
    c.roundRect(7, 7, 86, 86, 12, stroke=1, fill=1)


def _grate(c: Canvas) -> None:
    c.circle(50, 50, 45, stroke=1, fill=1)
    c.setStrokeColorRGB(1, 1, 1)
    c.setLineWidth(6)
    for y in (30, 50, 70):
        half = math.sqrt(45**2 - (y - 50) ** 2) - 10
        c.line(50 - half, y, 50 + half, y)


def _chevrons(c: Canvas) -> None:
    _polygon(c, [(8, 10), (50, 50), (8, 90), (30, 90), (72, 50), (30, 10)])
    _polygon(c, [(38, 10), (80, 50), (38, 90), (58, 90), (96, 50), (58, 10)])


SHAPES: dict[str, Any] = {
    "circle": _circle,
    "square": _square,
    "grate": _grate,
    "diamond": lambda c: _polygon(c, [(50, 4), (96, 50), (50, 96), (4, 50)]),
    "triangle": lambda c: _polygon(c, [(50, 94), (96, 10), (4, 10)]),
    "hexagon": lambda c: _polygon(c, _ring(6, 46, turn=0)),
    "octagon": lambda c: _polygon(c, _ring(8, 46, turn=22.5)),
    "star": lambda c: _polygon(c, _ring(5, 48, 20)),
    "burst": lambda c: _polygon(c, _ring(12, 48, 31, turn=0)),
    "arrow": lambda c: _polygon(
        c, [(6, 36), (56, 36), (56, 12), (95, 50), (56, 88), (56, 64), (6, 64)]
    ),
    "chevrons": _chevrons,
    "shield": lambda c: _polygon(c, [(10, 90), (90, 90), (90, 45), (50, 5), (10, 45)]),
}


def _emblem(c: Canvas, emblem: str) -> None:
    c.setFillColorRGB(1, 1, 1)
    c.setStrokeColorRGB(1, 1, 1)
    if emblem == "person":
        c.circle(50, 64, 13, stroke=0, fill=1)
        path = c.beginPath()
        path.moveTo(26, 22)
        path.curveTo(26, 52, 74, 52, 74, 22)
        path.close()
        c.drawPath(path, fill=1, stroke=0)
    elif emblem == "cross":
        c.setLineWidth(13)
        c.setLineCap(1)
        c.line(30, 30, 70, 70)
        c.line(30, 70, 70, 30)


def draw(c: Canvas, icon: Icon) -> None:
    """Paint `icon` into the 100-unit box at the origin (no form, no scaling)."""
    r, g, b = icon.fill
    c.setFillColorRGB(r, g, b)
    c.setStrokeColorRGB(r * 0.6, g * 0.6, b * 0.6)
    c.setLineWidth(4)
    c.setLineJoin(1)
    SHAPES[icon.shape](c)
    if icon.emblem:
        _emblem(c, icon.emblem)
    if icon.glyph:
        fonts.register()
        size = {1: 58, 2: 42, 3: 32}.get(len(icon.glyph), 23)
        c.setFillColorRGB(1, 1, 1)
        c.setFont(fonts.BOLD, size)
        baseline = 50 - size * 0.36 - (12 if icon.shape == "triangle" else 0)
        c.drawCentredString(50, baseline, icon.glyph)


class Forms:
    """Icons placed on one canvas: each defined as a PDF form on first use, then reused."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self.defined: set[str] = set()
        self.on_page: dict[str, Icon] = {}  # for the sheet's legend
        self.names: dict[Icon, str] = {}

    def place(self, icon: Icon, x: float, y: float, size: float) -> None:
        """Draw `icon` with its lower left corner at (x, y), `size` points square."""
        name = self.names.get(icon)
        if name is None:
            name = "ck_" + re.sub(r"[^A-Za-z0-9]", "_", f"{icon.key}_{icon.shape}_{icon.fill}")
            self.names[icon] = name
        self._put(name, lambda c: draw(c, icon), x, y, size / UNIT, UNIT, UNIT)
        self.on_page.setdefault(icon.label, icon)

    def stamp(
        self, key: str, w: float, h: float, paint: Callable[[Canvas], None], x: float, y: float
    ) -> None:
        """A drawing that repeats from card to card (a diagram's frame): one form, placed."""
        self._put("ck_" + re.sub(r"[^A-Za-z0-9]", "_", key), paint, x, y, 1.0, w, h)

    def _put(
        self,
        name: str,
        paint: Callable[[Canvas], None],
        x: float,
        y: float,
        scale: float,
        w: float,
        h: float,
    ) -> None:
        c = self.canvas
        if name not in self.defined:
            c.beginForm(name, 0, 0, w, h)
            paint(c)
            c.endForm()
            self.defined.add(name)
        # one `q cm Do Q` in the page stream: the form leaves the canvas's own state alone
        c._code.append(f"q {fp_str(scale, 0, 0, scale, x, y)} cm")
        c.doForm(name)
        c._code.append("Q")
