"""Count the token icons of a placement diagram, per slot, from a card image.

A Marvel United master plan card shows three slots (left, the Villain's, right) with
Civilian, Thug and other token icons in them. The count per slot is read by colour:

1. the diagram region is cut from the card (card-relative box, from the template);
2. every pixel gets the nearest token colour of the system's palette by hue, when it
   is saturated and bright enough (hue survives uneven light and white balance);
3. each colour mask is opened (eroded, then dilated) to drop thin lines and text;
4. connected components are found; a component holding several touching icons is
   split by its area against the area of one icon (the median single icon of the
   diagram, else the palette's icon size), and by its width against the icon's;
5. components are assigned to slots by their centre.

The palette (colours, tolerances, icon size, slot bounds) is data per system:
`cardkit/systems/<system>/token_palette.yaml`. Every count carries a confidence in
[0, 1]: how close the measured icon multiples were to whole numbers, and whether the
area and width readings agreed.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from statistics import median
from typing import Any

import cv2
import numpy as np
import yaml
from numpy.typing import NDArray
from PIL import Image

from cardkit.ocr import blobs, channels

Box = tuple[float, float, float, float]  # left, top, right, bottom in card-relative units
Mask = blobs.Mask


COLOURLESS = 6  # levels of 255: channels of a grey picture agree within this (JPEG noise)


@dataclass(frozen=True)
class Colour:
    """An icon's fill as hue (degrees), saturation and value (0-1); only tokens are counted."""

    name: str
    hue: float
    saturation: float
    value: float
    token: bool  # False: another icon that may share the diagram (an anchor such as the Sewer)


@dataclass(frozen=True)
class Palette:
    system: str
    colours: tuple[Colour, ...]
    slots: tuple[tuple[str, float, float], ...]  # name, left, right: fractions of the diagram
    icon_height: float  # one icon's height as a fraction of the diagram's height
    icon_aspect: float = 1.0  # width / height of one icon
    hue_tolerance: float = 14.0  # degrees either side
    saturation_tolerance: float = 0.3
    value_tolerance: float = 0.4
    region: Box | None = None  # where the diagram sits on the card, when the palette knows

    @property
    def tokens(self) -> list[str]:
        return [c.name for c in self.colours if c.token]


@dataclass(frozen=True)
class SlotCount:
    slot: str
    token: str
    count: int
    confidence: float


@dataclass
class TokenReading:
    """Counts per slot and token, each with a confidence; zero counts are left out."""

    counts: list[SlotCount] = field(default_factory=list)
    region: tuple[int, int, int, int] = (0, 0, 0, 0)  # pixels: left, top, right, bottom
    frames: tuple[int, int] | None = None  # the slot frames' top and bottom rows in the region
    confidence: float = 1.0  # the lowest of the counts' (1.0 for an empty diagram)

    def place(self) -> dict[str, dict[str, int]]:
        """The counts in the data model's shape: {left: {civilian: 1}, ...}."""
        found: dict[str, dict[str, int]] = {}
        for item in self.counts:
            found.setdefault(item.slot, {})[item.token] = item.count
        return found


def hsv(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """Hue in degrees, saturation and value in 0-1, from RGB in 0-1."""
    h, s, v = colorsys.rgb_to_hsv(*rgb)
    return h * 360, s, v


def palette_from_data(
    system: str, icons: dict[str, tuple[str, tuple[float, float, float]]], data: dict[str, Any]
) -> Palette:
    """A palette from icon colours ({name: (role, rgb 0-1)}) and the OCR settings (YAML data).

    Icons of role "token" are counted; the others (the Villain's marker, the Sewer,
    BAM!) are known so that their pixels are not taken for a token of a near hue.
    """
    colours = tuple(
        Colour(name, *hsv(rgb), token=role == "token") for name, (role, rgb) in icons.items()
    )
    slots = tuple(
        (str(name), float(bounds[0]), float(bounds[1])) for name, bounds in data["slots"].items()
    )
    region = data.get("region")
    tolerance = data.get("tolerance", {})
    return Palette(
        system=system,
        colours=colours,
        slots=slots,
        icon_height=float(data["icon"]["height"]),
        icon_aspect=float(data["icon"].get("aspect", 1.0)),
        hue_tolerance=float(tolerance.get("hue", 14.0)),
        saturation_tolerance=float(tolerance.get("saturation", 0.3)),
        value_tolerance=float(tolerance.get("value", 0.4)),
        region=(float(region[0]), float(region[1]), float(region[2]), float(region[3]))
        if region
        else None,
    )


@cache
def load_palette(system: str) -> Palette:
    """The system's token palette: icon colours from the proxies' icons.yaml (the same data
    the renderer paints with), OCR settings from token_palette.yaml, both in its folder."""
    from cardkit import systems
    from cardkit.render.icons import icon_set

    module = systems.get(system).module
    text = resources.files(module).joinpath("token_palette.yaml").read_text(encoding="utf-8")
    icons = {key: (icon.role, icon.fill) for key, icon in icon_set(system).items()}
    if not any(role == "token" for role, _ in icons.values()):
        raise ValueError(f"{system} declares no token icons (icons.yaml)")
    return palette_from_data(system, icons, yaml.safe_load(text))


def _solid(mask: Mask, icon: float) -> Mask:
    """Icons as solid blobs: rims sealed, emblems filled, thin lines and text dropped."""
    closed = blobs.close(mask, max(1, round(icon / 20)))
    return blobs.opened(blobs.fill_holes(closed), max(1, round(icon / 8)))


def _pixels(image: Image.Image | NDArray[Any]) -> Image.Image:
    if isinstance(image, np.ndarray):
        image = Image.fromarray(image.astype(np.uint8))
    return image.convert("RGB")


def _masks(rgb: Image.Image, palette: Palette, names: set[str] | None = None) -> dict[str, Mask]:
    """Per token (or per named icon), the pixels whose colour is nearest that icon's fill.

    Hue, saturation and value are taken in 256 steps, so each colour's distance is a table
    look-up per channel (a hue step is 1.4 degrees, a tenth of the tolerance); distances
    are kept in 64ths of the tolerance."""
    pixels = (blobs.flatten_light(rgb) * 255).astype(np.uint8)
    channels = cv2.split(cv2.cvtColor(pixels, cv2.COLOR_RGB2HSV_FULL))  # hue 0-255, sat, value
    steps = np.arange(256, dtype=np.float32) / 255
    best = np.full(pixels.shape[:2], 255, dtype=np.uint8)
    owner = np.full(pixels.shape[:2], -1, dtype=np.int16)
    for index, colour in enumerate(palette.colours):
        turn = np.abs(steps * 360 - colour.hue)
        gaps = [
            np.minimum(turn, 360 - turn) / palette.hue_tolerance,
            np.abs(steps - colour.saturation) / palette.saturation_tolerance,
            np.abs(steps - colour.value) / palette.value_tolerance,
        ]
        if colour.saturation < 0.15:
            gaps[0] = np.zeros_like(gaps[0])  # a grey has no hue to speak of
        tables = [np.clip(np.round(g * 64), 0, 255).astype(np.uint8) for g in gaps]
        distance = cv2.max(
            cv2.max(cv2.LUT(channels[0], tables[0]), cv2.LUT(channels[1], tables[1])),
            cv2.LUT(channels[2], tables[2]),
        )
        ok = (distance <= 64) & (distance < best)
        best[ok] = distance[ok]
        owner[ok] = index
    return {
        colour.name: owner == index
        for index, colour in enumerate(palette.colours)
        if (colour.name in names if names is not None else colour.token)
    }


def find_diagram(image: Image.Image) -> tuple[int, int] | None:
    """The rows of the slot frames' top and bottom edges in a region, if there are frames.

    A frame edge is a thin rule: a row crossed by a long unbroken grey or dark unsaturated
    line (each slot's edge spans about a third of the diagram; an anchor slot has none)
    with no such line a few rows above or below it. A line of text, blurred together in a
    photo, is as long but as tall as its letters, and not a rule.
    """
    pixels = blobs.flatten_light(image.convert("RGB"))
    top, low = blobs.channel_range(pixels)
    ink = blobs.grow_rows((top < 0.86) & ((top - low) < 0.25), 1)  # a rule tilted a little
    long = blobs.opened_rows(ink, max(3, round(0.15 * image.width)))
    gap = max(4, image.height // 40)
    above = np.concatenate([np.zeros(gap, bool), long[:-gap]])
    below = np.concatenate([long[gap:], np.zeros(gap, bool)])
    rows = np.flatnonzero(long & ~above & ~below).tolist()
    if len(rows) < 2 or rows[-1] - rows[0] < 0.4 * image.height:
        return None
    return int(rows[0]), int(rows[-1])


def _stacks(parts: list[blobs.Component]) -> list[tuple[int, int]]:
    """(top, bottom) of the parts stacked over each other: an icon cut in two by the white
    word printed across it (BAM!, blurred in a photo) is one icon."""
    stacks: list[tuple[int, int, int, int]] = []  # left, right, top, bottom
    for part in sorted(parts, key=lambda p: p.top):
        for index, (left, right, top, bottom) in enumerate(stacks):
            overlap = min(right, part.right) - max(left, part.left)
            if overlap >= 0.5 * min(part.width, right - left + 1):
                stacks[index] = (
                    min(left, part.left),
                    max(right, part.right),
                    top,
                    max(bottom, part.bottom),
                )
                break
        else:
            stacks.append((part.left, part.right, part.top, part.bottom))
    return [(top, bottom) for _, _, top, bottom in stacks]


def colourless(image: Image.Image) -> bool:
    """A picture without colour (a greyscale scan or photocopy, or one saved in colour from
    grey): its channels agree within COLOURLESS levels in all but a few pixels. A card
    printed in pale colours still differs by more; what is told by colour is then not
    known, rather than absent."""
    rgb = np.asarray(image.convert("RGB"))[::4, ::4].astype(np.int16)  # a sample is enough
    chroma = channels.brightest(rgb) - channels.darkest(rgb)
    return float(np.percentile(chroma, 99.9)) <= COLOURLESS


def find_mark(
    image: Image.Image | NDArray[Any],
    palette: Palette,
    name: str,
    region: Box | None = None,
    least: float = 0.5,
) -> tuple[bool, float, float]:
    """Whether the icon `name` (BAM!, say) is printed in `region`, how sure that is, and
    the blob's bottom edge as a fraction of the region's height (0 when absent).

    Present: a blob of the icon's colour at least `least` of the region's height. Absent:
    hardly a pixel of it. Anything between is reported with a low confidence.
    """
    rgb = _pixels(image)
    area = rgb.crop(_pixel_box(rgb.size, region))
    mask = _masks(area, palette, {name}).get(name)
    if mask is None or area.height < 4:
        return False, 0.0, 0.0
    parts = blobs.components(_solid(mask, area.height * least))
    tallest = max(_stacks(parts), key=lambda p: p[1] - p[0], default=None)
    share = (tallest[1] - tallest[0] + 1) / area.height if tallest else 0.0
    if tallest is not None and share >= least:
        return True, min(1.0, 0.6 + share / (2 * least)), (tallest[1] + 1) / area.height
    if mask.mean() < 0.002:
        return False, 1.0, 0.0
    return False, 0.5, 0.0


def _multiple(measured: float, unit: float) -> tuple[int, float]:
    """How many units a measure holds, and how close to a whole number it was (1 = exact)."""
    ratio = measured / unit if unit > 0 else 0.0
    count = max(1, round(ratio))
    return count, max(0.0, 1.0 - 2 * abs(ratio - count) / max(1.0, count**0.5))


def _pixel_box(size: tuple[int, int], region: Box | None) -> tuple[int, int, int, int]:
    width, height = size
    if region is None:
        return 0, 0, width, height
    left, top, right, bottom = region
    return (
        max(0, round(left * width)),
        max(0, round(top * height)),
        min(width, round(right * width)),
        min(height, round(bottom * height)),
    )


def count_tokens(
    image: Image.Image | NDArray[Any], palette: Palette, region: Box | None = None
) -> TokenReading:
    """Token icons per slot in the diagram at `region` (card-relative; the palette's if None).

    The image is the card, upright and cropped to its outline (what the geometry stage
    gives); with region=None and no region in the palette, the whole image is the diagram.
    """
    rgb = _pixels(image)
    box = _pixel_box(rgb.size, region if region is not None else palette.region)
    diagram = rgb.crop(box)
    width, height = diagram.size
    reading = TokenReading(region=box)
    if width < 6 or height < 6:
        reading.confidence = 0.0
        return reading
    icon_h = palette.icon_height * height
    frames = find_diagram(diagram)
    low, high = frames if frames is not None else (0, height)
    reading.frames = frames
    found: list[tuple[str, blobs.Component]] = []
    for name, mask in _masks(diagram, palette).items():
        for part in blobs.components(_solid(mask, icon_h)):
            middle = (part.top + part.bottom) / 2
            if part.area >= 0.15 * icon_h * icon_h * palette.icon_aspect and low <= middle <= high:
                found.append((name, part))
    singles = [
        (name, p)
        for name, p in found
        if abs(p.width / max(p.height, 1) - palette.icon_aspect) < 0.25 * palette.icon_aspect
        and 0.6 * icon_h <= p.height <= 1.4 * icon_h
    ]
    if singles:
        icon_h = median(p.height for _, p in singles)  # the icons as drawn on this card
    fills = {  # how much of its height squared one icon of each token covers
        token: median(p.area / p.height**2 for n, p in singles if n == token)
        for token in {n for n, _ in singles}
    }
    totals: dict[tuple[str, str], list[float]] = {}
    for name, part in found:
        rows = max(1, round(part.height / icon_h))
        size = part.height / rows  # icons shrink to fit a full slot: measure each by its own
        by_width, width_fit = _multiple(part.width * rows, size * palette.icon_aspect)
        if name in fills:  # split by area against one icon of this token at this size
            count, area_fit = _multiple(part.area, fills[name] * size * size)
            confidence = min(area_fit, 0.5 + 0.5 * width_fit) * (1.0 if count == by_width else 0.6)
        else:  # no single icon of this token to compare with: its width in icon heights
            count, confidence = by_width, 0.8 * width_fit
        centre = part.centre / width
        slot = next((s for s, lo, hi in palette.slots if lo <= centre < hi), None)
        if slot is None:
            continue  # outside every slot: a legend or a decoration, not a placement
        entry = totals.setdefault((slot, name), [0, 1.0])
        entry[0] += count
        entry[1] = min(entry[1], confidence)
    order = {s: i for i, (s, _, _) in enumerate(palette.slots)}
    reading.counts = [
        SlotCount(slot, token, int(n), round(c, 3))
        for (slot, token), (n, c) in sorted(totals.items(), key=lambda kv: order[kv[0][0]])
    ]
    reading.confidence = min((c.confidence for c in reading.counts), default=1.0)
    return reading
