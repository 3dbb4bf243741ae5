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
from importlib import resources
from statistics import median
from typing import Any

import numpy as np
import yaml
from numpy.typing import NDArray
from PIL import Image

Box = tuple[float, float, float, float]  # left, top, right, bottom in card-relative units
Mask = NDArray[np.bool_]


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


def _pixels(image: Image.Image | NDArray[Any]) -> Image.Image:
    if isinstance(image, np.ndarray):
        image = Image.fromarray(image.astype(np.uint8))
    return image.convert("RGB")


def _window(mask: Mask, radius: int, axis: int, keep_all: bool) -> Mask:
    """Erosion (keep_all) or dilation along one axis with a window of 2*radius+1."""
    if radius <= 0:
        return mask
    counts = np.cumsum(
        np.pad(
            mask.astype(np.int32), [(radius + 1, radius) if a == axis else (0, 0) for a in range(2)]
        ),
        axis=axis,
    )
    upper = np.take(counts, range(2 * radius + 1, counts.shape[axis]), axis=axis)
    lower = np.take(counts, range(0, counts.shape[axis] - 2 * radius - 1), axis=axis)
    window = upper - lower
    return window == 2 * radius + 1 if keep_all else window > 0


def _close(mask: Mask, radius: int) -> Mask:
    """Dilate, then erode: seals pinholes in an icon's rim so its emblem counts as a hole."""
    grown = _window(_window(mask, radius, 0, False), radius, 1, False)
    return _window(_window(grown, radius, 0, True), radius, 1, True)


def _solid(mask: Mask, icon: float) -> Mask:
    """Icons as solid blobs: rims sealed, emblems filled, thin lines and text dropped."""
    return _open(fill_holes(_close(mask, max(1, round(icon / 20)))), max(1, round(icon / 8)))


def _open(mask: Mask, radius: int) -> Mask:
    eroded = _window(_window(mask, radius, 0, True), radius, 1, True)
    return _window(_window(eroded, radius, 0, False), radius, 1, False) & mask


def fill_holes(mask: Mask) -> Mask:
    """The mask with every enclosed gap filled: an icon's white emblem counts as the icon."""
    filled = mask.copy()
    height, width = mask.shape
    for part in components(~mask):
        if part.top > 0 and part.left > 0 and part.bottom < height - 1 and part.right < width - 1:
            for row, start, end in part.runs:
                filled[row, start:end] = True
    return filled


@dataclass
class _Component:
    area: int = 0
    left: int = 1 << 30
    right: int = -1
    top: int = 1 << 30
    bottom: int = -1
    x_sum: float = 0.0
    runs: list[tuple[int, int, int]] = field(default_factory=list)

    @property
    def width(self) -> int:
        return self.right - self.left + 1

    @property
    def height(self) -> int:
        return self.bottom - self.top + 1

    @property
    def centre(self) -> float:
        return self.x_sum / max(self.area, 1)


def components(mask: Mask) -> list[_Component]:
    """8-connected components of a mask, by runs per row and union-find over them."""
    parent: list[int] = []

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    runs: list[tuple[int, int, int]] = []  # row, start, end (exclusive)
    previous: list[int] = []
    padded = np.zeros((mask.shape[0], mask.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    edges = np.diff(padded, axis=1)
    for row in range(mask.shape[0]):
        starts = np.flatnonzero(edges[row] == 1)
        ends = np.flatnonzero(edges[row] == -1)
        current = []
        for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
            index = len(runs)
            runs.append((row, start, end))
            parent.append(index)
            current.append(index)
            for other in previous:
                _, o_start, o_end = runs[other]
                if o_start <= end and start <= o_end:  # touching, diagonals included
                    a, b = find(index), find(other)
                    if a != b:
                        parent[max(a, b)] = min(a, b)
        previous = current
    found: dict[int, _Component] = {}
    for index, (row, start, end) in enumerate(runs):
        part = found.setdefault(find(index), _Component())
        part.area += end - start
        part.left, part.right = min(part.left, start), max(part.right, end - 1)
        part.top, part.bottom = min(part.top, row), max(part.bottom, row)
        part.x_sum += (start + end - 1) / 2 * (end - start)
        part.runs.append((row, start, end))
    return list(found.values())


def _flatten_light(rgb: Image.Image) -> NDArray[np.float32]:
    """RGB in 0-1 with uneven light divided out: each pixel over the local paper white.

    The paper white is the bright end (90th percentile) of coarse blocks, smoothed; a
    flatbed scan barely changes, a phone photo lit from one side becomes even.
    """
    pixels = np.asarray(rgb, dtype=np.float32) / 255
    height, width = pixels.shape[:2]
    block = max(8, min(height, width) // 2)
    rows, cols = max(1, height // block), max(1, width // block)
    grey = pixels.max(axis=2)
    white = np.empty((rows, cols), dtype=np.float32)
    for r in range(rows):
        for c in range(cols):
            cell = grey[
                r * height // rows : (r + 1) * height // rows,
                c * width // cols : (c + 1) * width // cols,
            ]
            white[r, c] = np.percentile(cell, 90)
    padded = np.pad(white, 1, mode="edge")
    white = np.max(
        [
            padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
        ],
        axis=0,
    )  # a block all icon takes its neighbours' paper
    smooth = Image.fromarray(white).resize((width, height), Image.Resampling.BILINEAR)
    light = np.clip(np.asarray(smooth, dtype=np.float32), 0.25, None)
    return np.clip(pixels / light[..., None], 0, 1)


def _masks(rgb: Image.Image, palette: Palette, names: set[str] | None = None) -> dict[str, Mask]:
    """Per token (or per named icon), the pixels whose colour is nearest that icon's fill."""
    pixels = _flatten_light(rgb)
    top = pixels.max(axis=2)
    low = pixels.min(axis=2)
    value = top
    saturation = np.where(top > 0, (top - low) / np.maximum(top, 1e-6), 0)
    hsv_image = np.asarray(Image.fromarray((pixels * 255).astype(np.uint8)).convert("HSV"))
    hue = hsv_image[..., 0].astype(np.float32) * (360 / 255)
    best = np.full(hue.shape, np.inf, dtype=np.float32)
    owner = np.full(hue.shape, -1, dtype=np.int16)
    for index, colour in enumerate(palette.colours):
        hue_gap = np.abs((hue - colour.hue + 180) % 360 - 180) / palette.hue_tolerance
        if colour.saturation < 0.15:
            hue_gap = np.zeros_like(hue_gap)  # a grey has no hue to speak of
        sat_gap = np.abs(saturation - colour.saturation) / palette.saturation_tolerance
        value_gap = np.abs(value - colour.value) / palette.value_tolerance
        distance = np.maximum(np.maximum(hue_gap, sat_gap), value_gap)
        ok = (distance <= 1) & (distance < best)
        best[ok] = distance[ok]
        owner[ok] = index
    return {
        colour.name: owner == index
        for index, colour in enumerate(palette.colours)
        if (colour.name in names if names is not None else colour.token)
    }


def _longest_run(row: NDArray[np.bool_]) -> int:
    edges = np.diff(np.concatenate(([0], row.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    return int((ends - starts).max()) if starts.size else 0


def find_diagram(image: Image.Image) -> tuple[int, int] | None:
    """The rows of the slot frames' top and bottom edges in a region, if there are frames.

    A frame edge is a row crossed by long unbroken grey or dark unsaturated lines: each
    slot's edge spans about a third of the diagram (an anchor slot has none). Text lines
    are made of short strokes.
    """
    pixels = _flatten_light(image.convert("RGB"))
    top, low = pixels.max(axis=2), pixels.min(axis=2)
    dark = (top < 0.86) & ((top - low) < 0.25)
    dark = _window(dark, max(1, image.height // 60), 0, False)  # a rule tilted by a degree or two
    candidates = np.flatnonzero(dark.mean(axis=1) >= 0.4)
    rows = [int(r) for r in candidates if _longest_run(dark[r]) >= 0.15 * image.width]
    if len(rows) < 2 or rows[-1] - rows[0] < 0.4 * image.height:
        return None
    return rows[0], rows[-1]


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
    parts = components(_solid(mask, area.height * least))
    tallest = max(parts, key=lambda p: p.height, default=None)
    share = tallest.height / area.height if tallest else 0.0
    if tallest is not None and share >= least:
        return True, min(1.0, 0.6 + share / (2 * least)), (tallest.bottom + 1) / area.height
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
    found: list[tuple[str, _Component]] = []
    for name, mask in _masks(diagram, palette).items():
        for part in components(_solid(mask, icon_h)):
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
