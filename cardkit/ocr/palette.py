"""A box's token palette: how its placement diagrams print each token (a colour and a
shape), so that `slots.py` can name the icons it segments.

A palette comes from, in this order: `cardkit ocr --palette FILE`; a `palette.yaml` in
the scan's folder; the system's own icons (cardkit's proxies: colour alone). The file:

    provenance: written from the box's rulebook legend   # who wrote it, from what
    tolerance: {colour: 25, shape: 0.15}                 # optional (these are the defaults)
    tokens:
      civilian: {colour: "#2290b2", shape: triangle}
      thug: {colour: "#7030a0", shape: {extent: 0.64, solidity: 0.96, roundness: 0.86,
                                        aspect: 1.05, holes: 0}}

`colour` is the icon's fill (hex); `shape` a name (shapes.NAMES) or measures (shapes.py),
or left out (colour alone names the token). An icon is a token when its fill is within
`colour` of the token's (CIE ΔE, L 0-100) and its shape within `shape` of the token's
(shapes.Shape.distance); of several, the nearest. `cardkit palette` writes the file from
scans whose placements a person confirmed (calibrate, below).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import yaml

from cardkit.errors import CardkitError
from cardkit.ocr import shapes

COLOUR_TOLERANCE = 25.0  # CIE ΔE: a photo's light and white balance move a fill this far
SHAPE_TOLERANCE = 0.15  # shapes.Shape.distance
FILE = "palette.yaml"  # a palette beside the scans


class PaletteError(CardkitError):
    """A palette file that cannot be used: one line, `FILE:LINE:COL: what`."""


@dataclass(frozen=True)
class Token:
    name: str
    colour: tuple[float, float, float]  # CIE Lab
    shape: shapes.Shape | str | None = None  # measures, a named shape, or colour alone
    marked: bool = False  # a glyph or emblem inside the icon: its holes are not compared

    def shape_distance(self, icon: Any) -> float:
        if self.shape is None:
            return 0.0
        target = (
            shapes.named(self.shape, icon.height) if isinstance(self.shape, str) else self.shape
        )
        seen = icon.shape
        if self.marked:
            seen = shapes.Shape(
                seen.extent, seen.solidity, seen.roundness, seen.aspect, target.holes
            )
        return float(seen.distance(target))


@dataclass(frozen=True)
class BoxPalette:
    tokens: tuple[Token, ...]
    colour_tolerance: float = COLOUR_TOLERANCE
    shape_tolerance: float = SHAPE_TOLERANCE
    source: str = ""  # the file, or what it was made from
    provenance: str = ""

    def name(self, icon: Any) -> str:
        """The nearest token within both tolerances, else `unknown`."""
        best, score = "unknown", 2.0
        for token in self.tokens:
            colour = _delta(icon.colour, token.colour) / self.colour_tolerance
            shape = token.shape_distance(icon) / self.shape_tolerance
            if colour <= 1 and shape <= 1 and colour + shape < score:
                best, score = token.name, colour + shape
        return best


def _delta(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    return float(np.sqrt(sum((x - y) ** 2 for x, y in zip(a, b, strict=True))))


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """RGB in 0-255 as CIE Lab."""
    pixel = np.array([[rgb]], dtype=np.float32) / 255
    value = np.asarray(cv2.cvtColor(pixel, cv2.COLOR_RGB2LAB))[0, 0]
    return float(value[0]), float(value[1]), float(value[2])


def hex_colour(colour: tuple[float, float, float]) -> str:
    pixel = np.array([[colour]], dtype=np.float32)
    rgb = np.clip(np.asarray(cv2.cvtColor(pixel, cv2.COLOR_LAB2RGB))[0, 0] * 255, 0, 255)
    return "#" + "".join(f"{round(float(v)):02x}" for v in rgb)


# ---------------------------------------------------------------- the file


HEX = re.compile(r"#?([0-9a-fA-F]{6})")


def _where(path: Path, node: yaml.Node) -> str:
    return f"{path}:{node.start_mark.line + 1}:{node.start_mark.column + 1}"


def _mapping(path: Path, node: yaml.Node, what: str) -> dict[str, yaml.Node]:
    if not isinstance(node, yaml.MappingNode):
        raise PaletteError(f"{_where(path, node)}: {what} must be a mapping")
    return {str(k.value): v for k, v in node.value}


def _number(path: Path, node: yaml.Node, what: str) -> float:
    try:
        value = float(node.value) if isinstance(node, yaml.ScalarNode) else None
    except ValueError:
        value = None
    if value is None or not value >= 0:
        raise PaletteError(f"{_where(path, node)}: {what} must be a number of 0 or more")
    return value


def _shape(path: Path, node: yaml.Node) -> shapes.Shape | str:
    if isinstance(node, yaml.ScalarNode):
        if node.value not in shapes.NAMES:
            raise PaletteError(
                f"{_where(path, node)}: unknown shape {node.value!r} "
                f"(one of {', '.join(shapes.NAMES)}, or its measures)"
            )
        return str(node.value)
    measures = _mapping(path, node, "a shape")
    missing = [m for m in (*shapes.MEASURES, "holes") if m not in measures]
    if missing:
        raise PaletteError(f"{_where(path, node)}: the shape's measures lack {', '.join(missing)}")
    values = {m: _number(path, measures[m], m) for m in (*shapes.MEASURES, "holes")}
    return shapes.Shape(
        values["extent"],
        values["solidity"],
        values["roundness"],
        values["aspect"],
        int(values["holes"]),
    )


def parse(text: str, path: Path) -> BoxPalette:
    """A palette from its YAML text; a mistake stops with one line naming `path:line:col`."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise PaletteError(f"{where}: not YAML: {err.problem}") from None
    if root is None:
        raise PaletteError(f"{path}:1:1: empty palette (it needs `tokens:`)")
    top = _mapping(path, root, "a palette")
    unknown = [k for k in top if k not in ("tokens", "tolerance", "provenance", "system")]
    if unknown:
        raise PaletteError(f"{_where(path, root)}: unknown key {unknown[0]!r}")
    if "tokens" not in top:
        raise PaletteError(f"{_where(path, root)}: a palette needs `tokens:`")
    tolerance = _mapping(path, top["tolerance"], "tolerance") if "tolerance" in top else {}
    found = []
    for name, node in _mapping(path, top["tokens"], "tokens").items():
        spec = _mapping(path, node, f"token {name!r}")
        if "colour" not in spec:
            raise PaletteError(f"{_where(path, node)}: token {name!r} needs a colour (hex)")
        colour = spec["colour"]
        matched = HEX.fullmatch(str(getattr(colour, "value", "")))
        if not matched:
            raise PaletteError(f"{_where(path, colour)}: {name}: colour must be hex like '#2290b2'")
        rgb = bytes.fromhex(matched[1])
        shape = _shape(path, spec["shape"]) if "shape" in spec else None
        found.append(Token(name, lab((rgb[0], rgb[1], rgb[2])), shape))
    if not found:
        raise PaletteError(f"{_where(path, top['tokens'])}: no tokens")
    provenance = top.get("provenance")
    return BoxPalette(
        tuple(found),
        _number(path, tolerance["colour"], "colour") if "colour" in tolerance else COLOUR_TOLERANCE,
        _number(path, tolerance["shape"], "shape") if "shape" in tolerance else SHAPE_TOLERANCE,
        str(path),
        str(provenance.value) if isinstance(provenance, yaml.ScalarNode) else "",
    )


def load(path: Path) -> BoxPalette:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise PaletteError(f"{path}: cannot read the palette ({err})") from None
    return _cached(str(path.resolve()), text)


@cache
def _cached(path: str, text: str) -> BoxPalette:
    return parse(text, Path(path))


def dump(palette: BoxPalette) -> str:
    """The palette as its file's YAML (shapes as measures, the nearest name beside)."""
    said = yaml.safe_dump(palette.provenance, width=1000).strip().removesuffix("...").strip()
    lines = [
        '# A box palette for cardkit ocr (docs/ocr.md, "Box palettes").',
        f"provenance: {said}",
        f"tolerance: {{colour: {palette.colour_tolerance:g}, shape: {palette.shape_tolerance:g}}}",
        "tokens:" if palette.tokens else "tokens: {}  # none learnt",
    ]
    for token in palette.tokens:
        spec = f"colour: '{hex_colour(token.colour)}'"
        note = ""
        if isinstance(token.shape, str):
            spec += f", shape: {token.shape}"
        elif token.shape is not None:
            measures = ", ".join(f"{k}: {v}" for k, v in token.shape.as_data().items())
            spec += f", shape: {{{measures}}}"
            note = f"  # like a {shapes.nearest(token.shape, 48)[0]}"
        lines.append(f"  {token.name}: {{{spec}}}{note}")
    return "\n".join(lines) + "\n"


def for_scan(scan: Path, given: str | None) -> BoxPalette | None:
    """The palette a scan is read with: the one given, else `palette.yaml` beside it."""
    if given:
        return load(Path(given))
    beside = scan.parent / FILE
    return load(beside) if beside.is_file() else None


@cache
def builtin(system: str) -> BoxPalette:
    """The system's own token icons (cardkit's proxies: their fill and shape, a glyph or
    emblem inside them not compared). Another design's icons seldom match them: such a
    box needs its own palette."""
    from cardkit.render.icons import icon_set

    found = []
    for key, icon in icon_set(system).items():
        if icon.role == "token" and key == icon.key:
            red, green, blue = (v * 255 for v in icon.fill)
            shape = icon.shape if icon.shape in shapes.NAMES else None
            marked = bool(icon.glyph or icon.emblem)
            found.append(Token(key, lab((red, green, blue)), shape, marked))
    return BoxPalette(tuple(found), source=f"{system}'s own icons (icons.yaml)")
