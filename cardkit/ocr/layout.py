"""Layout: card templates as data, and the crops a template asks to be read.

Each game system may ship `ocr.yaml` beside its `__init__.py` (see docs/ocr.md for the
format). A template names a card kind, the card's physical size, fixed field values,
tone probes that tell it apart from look-alikes, and regions: a card-relative box,
the field it fills, how to read it (an OCR mode, or a reader plugin such as a token
counter) and how to prepare the crop.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
from PIL import Image, ImageFilter, ImageOps

from cardkit.errors import UsageError
from cardkit.ocr import channels
from cardkit.ocr.engine import PSM, Mode, OcrEngine

TEMPLATES_FILE = "ocr.yaml"
TARGET_X_HEIGHT = 25.0  # pixels: what tesseract reads best
MARGIN = 12  # pixels of white round a prepared region
PREP_STEPS = (
    "median",
    "binarize",
    "clear-border",
    "sharpen",
    "keep-colour",
    "no-invert",
    "small-caps",
)


@dataclass(frozen=True)
class Region:
    field: str  # a path in the draft, `/`-separated: `title`, `dashboard/bam`
    box: tuple[float, float, float, float]  # left, top, right, bottom as fractions of the card
    mode: Mode = "block"
    reader: str = "text"  # `text` (the engine), or `package.module:function` (a plugin)
    parse: str = "text"  # how fields.py turns the text into a value
    x_height: float = 0.0  # printed x-height as a fraction of the card's height; 0 = unknown
    prep: tuple[str, ...] = ()
    whitelist: str = ""
    vocabulary: str = ""  # name of a vocabulary in the template set
    probe: bool = False  # read while choosing the template (titles, type lines)
    when: tuple[tuple[str, str], ...] = ()  # read only if these fields' text match (regex)
    unless: tuple[tuple[str, str], ...] = ()  # ... and not if these match
    options: dict[str, Any] = dataclasses.field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class Tone:
    """Expect a dark or light area here: tells a template from a look-alike cheaply."""

    box: tuple[float, float, float, float]
    tone: str  # dark | light


@dataclass(frozen=True)
class Template:
    system: str
    name: str
    kind: str
    size_mm: tuple[float, float]  # upright width, height
    regions: tuple[Region, ...]
    fixed: dict[str, Any] = dataclasses.field(default_factory=dict, hash=False, compare=False)
    tones: tuple[Tone, ...] = ()
    keywords: tuple[str, ...] = ()  # words one of the probe regions should hold
    match: tuple[tuple[str, str], ...] = ()  # (field, regex) its reading must match to fit
    has_text: bool = True  # False for faces without rules text: nothing is invented for them
    hint: bool = False  # never chosen: sharpens a grammar reading of the kind of its name

    @property
    def aspect(self) -> float:
        return self.size_mm[0] / self.size_mm[1]

    @property
    def ident(self) -> str:
        return f"{self.system}/{self.name}"


@dataclass
class TemplateSet:
    system: str
    templates: list[Template]
    vocabularies: dict[str, list[str]]
    data: dict[str, Any]  # anything else the file declares (token palettes ...), for readers


def _box(raw: Any, where: str) -> tuple[float, float, float, float]:
    if not (isinstance(raw, list) and len(raw) == 4):
        raise UsageError(f"{where}: box must be [left, top, right, bottom]")
    left, top, right, bottom = (float(v) for v in raw)
    if not (0 <= left < right <= 1 and 0 <= top < bottom <= 1):
        raise UsageError(f"{where}: box {raw} is not inside the card (fractions 0..1)")
    return left, top, right, bottom


def _region(name: str, raw: dict[str, Any], where: str) -> Region:
    mode = raw.get("mode", "block")
    if mode not in PSM and raw.get("reader", "text") == "text":
        raise UsageError(f"{where}: unknown mode '{mode}' (one of {', '.join(PSM)})")
    prep = tuple(raw.get("prep", ()))
    unknown = [p for p in prep if p not in PREP_STEPS]
    if unknown:
        raise UsageError(f"{where}: unknown prep step {unknown[0]} (one of {PREP_STEPS})")
    known = {"field", "box", "mode", "reader", "parse", "x_height", "prep", "whitelist"}
    known |= {"vocabulary", "probe", "when", "unless"}
    return Region(
        field=str(raw.get("field", name)),
        box=_box(raw.get("box"), where),
        mode=mode,
        reader=str(raw.get("reader", "text")),
        parse=str(raw.get("parse", "text")),
        x_height=float(raw.get("x_height", 0)),
        prep=prep,
        whitelist=str(raw.get("whitelist", "")),
        vocabulary=str(raw.get("vocabulary", "")),
        probe=bool(raw.get("probe", False)),
        when=tuple((str(k), str(v)) for k, v in (raw.get("when") or {}).items()),
        unless=tuple((str(k), str(v)) for k, v in (raw.get("unless") or {}).items()),
        options={k: v for k, v in raw.items() if k not in known},
    )


def parse_templates(system: str, data: dict[str, Any], where: str) -> TemplateSet:
    templates = []
    for name, raw in (data.get("templates") or {}).items():
        at = f"{where}: template {name}"
        size = raw.get("size_mm")
        if not (isinstance(size, list) and len(size) == 2):
            raise UsageError(f"{at}: size_mm must be [width, height]")
        regions = tuple(
            _region(rname, rraw, f"{at}, region {rname}")
            for rname, rraw in (raw.get("regions") or {}).items()
        )
        tones = tuple(
            Tone(_box(t["box"], f"{at}, tone"), str(t["tone"])) for t in raw.get("tones", ())
        )
        templates.append(
            Template(
                system=system,
                name=str(name),
                kind=str(raw["kind"]),
                size_mm=(float(size[0]), float(size[1])),
                regions=regions,
                fixed=dict(raw.get("fixed") or {}),
                tones=tones,
                keywords=tuple(str(k) for k in raw.get("keywords", ())),
                match=tuple((str(k), str(v)) for k, v in (raw.get("match") or {}).items()),
                has_text=bool(raw.get("has_text", True)),
                hint=bool(raw.get("hint", False)),
            )
        )
    rest = {k: v for k, v in data.items() if k not in ("templates", "vocabularies")}
    vocabularies = {
        str(k): [str(w) for w in v] for k, v in (data.get("vocabularies") or {}).items()
    }
    return TemplateSet(system, templates, vocabularies, rest)


@cache
def template_sets() -> dict[str, TemplateSet]:
    """Every system's OCR templates, read once from its `ocr.yaml`."""
    from cardkit import systems
    from cardkit.files import yamlio

    out: dict[str, TemplateSet] = {}
    for module in systems.load():
        source = resources.files(module).joinpath(TEMPLATES_FILE)
        if not source.is_file():
            continue
        data = yamlio.load_text(source.read_text(encoding="utf-8"))
        name = str(module.NAME)
        out[name] = parse_templates(name, data, f"{module.__name__}/{TEMPLATES_FILE}")
    return out


def crop(card: Image.Image, box: tuple[float, float, float, float]) -> Image.Image:
    w, h = card.size
    left, top, right, bottom = box
    return card.crop((round(left * w), round(top * h), round(right * w), round(bottom * h)))


def pixel_box(card: Image.Image, box: tuple[float, float, float, float]) -> list[int]:
    """The box in pixels as `[left, top, width, height]` (provenance's form)."""
    w, h = card.size
    left, top = round(box[0] * w), round(box[1] * h)
    return [left, top, round(box[2] * w) - left, round(box[3] * h) - top]


def light_on_dark(gray: np.ndarray) -> bool:
    """True when the background (the larger class under Otsu's threshold) is the darker."""
    import cv2

    threshold, _ = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    dark = gray <= threshold
    return bool(dark.mean() > 0.5)


def ink_gray(image: Image.Image, light_ink: bool = False) -> Image.Image:
    """Grey from each pixel's darkest channel (its brightest for light ink on dark): coloured
    ink (orange, blue, red words) keeps its contrast, where luminance fades it into the card."""
    array = np.asarray(image.convert("RGB"))
    return Image.fromarray(channels.brightest(array) if light_ink else channels.darkest(array))


def prepare(region_image: Image.Image, region: Region, card_height: int) -> Image.Image:
    """Grey, dark-on-light, x-height about 25 px, a white margin: what tesseract reads best."""
    inverted = "no-invert" not in region.prep and light_on_dark(
        np.asarray(region_image.convert("L"))
    )
    image = region_image if "keep-colour" in region.prep else ink_gray(region_image, inverted)
    if inverted:
        image = ImageOps.invert(image.convert("L"))
    if region.x_height:
        target = float(region.options.get("target_x_height", TARGET_X_HEIGHT))
        scale = target / max(1.0, region.x_height * card_height)
        scale = min(5.0, max(0.4, scale))
        if abs(scale - 1) > 0.08:
            size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
            image = image.resize(size, Image.Resampling.LANCZOS)
    image = even_light(image.convert("L"))
    if blank(image):  # paper and noise only: stretched, the noise would be read as marks
        return ImageOps.expand(Image.new("L", image.size, 255), border=MARGIN, fill=255)
    if "median" in region.prep:
        image = image.filter(ImageFilter.MedianFilter(3))
    image = ImageOps.autocontrast(image.convert("L"), cutoff=1)
    if "sharpen" in region.prep:
        image = image.filter(ImageFilter.SHARPEN)
    if {"binarize", "clear-border", "small-caps"} & set(region.prep):
        image = binarize(image, clear_border="clear-border" in region.prep)
    glyphs: tuple[Any, ...] = ()
    if "small-caps" in region.prep:
        from cardkit.ocr.smallcaps import raise_small_caps

        image, glyphs = raise_small_caps(image)
    prepared = ImageOps.expand(image, border=MARGIN, fill=255)
    if glyphs:  # where the raised glyphs stand, for casing.recase
        prepared.info["small_caps"] = glyphs
    return prepared


def blank(image: Image.Image, least: float = 40.0) -> bool:
    """No ink in a grey region: even its darkest specks (after a 3-pixel median, which a
    stroke survives and photo noise does not) are within `least` grey levels of the paper."""
    import cv2

    grey = np.asarray(image.convert("L"))
    if grey.size == 0:
        return True
    counts = cv2.calcHist([cv2.medianBlur(grey, 3)], [0], None, [256], [0, 256]).ravel()
    share = np.cumsum(counts) / counts.sum()
    darkest = int(np.searchsorted(share, 0.001))  # the 0.1% darkest, from a histogram: fast
    paper = int(np.searchsorted(share, 0.5))
    return paper - darkest < least


def even_light(image: Image.Image, uneven: float = 24.0) -> Image.Image:
    """Dark ink on paper lit unevenly (a photo under a lamp): each pixel divided by the paper
    white around it (the brightest nearby, wider than a stroke), so one threshold fits the
    whole region. A region whose paper varies less than `uneven` grey levels is left as is.
    The paper is estimated on a copy a quarter the size (light varies slowly)."""
    import cv2

    grey = np.asarray(image)
    h, w = grey.shape[:2]
    if min(h, w) < 16:
        return image
    small = cv2.resize(grey, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    size = max(3, round(TARGET_X_HEIGHT * 0.6 / 4)) | 1  # wider than a bold stroke
    paper = cv2.blur(cv2.dilate(small, np.ones((size, size), np.uint8)), (size, size))
    low, high = np.percentile(paper, [5, 95])
    if high - low < uneven:
        return image
    paper = cv2.resize(paper, (w, h), interpolation=cv2.INTER_LINEAR)
    flat = grey.astype(np.float32) / np.maximum(paper.astype(np.float32), 1.0) * 255.0
    return Image.fromarray(np.clip(flat, 0, 255).astype(np.uint8))


def binarize(image: Image.Image, *, clear_border: bool = False) -> Image.Image:
    """Black ink on white (Otsu); with clear_border, ink touching the crop's edge is dropped:
    frame lines and ornaments the crop cut through, never the centred text it was made for."""
    import cv2

    _, binary = cv2.threshold(
        np.asarray(image.convert("L")), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU
    )
    if clear_border:
        _, labels, stats, _ = cv2.connectedComponentsWithStats(255 - binary, connectivity=8)
        h, w = binary.shape
        left, top, width, height = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
        touching = (left == 0) | (top == 0) | (left + width >= w) | (top + height >= h)
        touching[0] = False
        binary = binary.copy()
        binary[touching[labels]] = 255
    return Image.fromarray(binary)


def tone_fits(card: Image.Image, tone: Tone) -> bool:
    value = float(np.asarray(crop(card, tone.box).convert("L")).mean())
    return value < 110 if tone.tone == "dark" else value >= 110


# Region readers other than the engine's text: `package.module:function`, imported on use.
# A reader is called as reader(crop, region, context) and returns a fields.FieldRead.
Reader = Callable[..., Any]


@cache
def reader(spec: str) -> Reader:
    module_name, _, function = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
        found: Reader = getattr(module, function)
    except (ImportError, AttributeError):
        raise UsageError(f"OCR template names reader '{spec}', which cannot be imported") from None
    return found


@dataclass
class ReadContext:
    """What a region reader gets besides its crop."""

    engine: OcrEngine
    key: str  # `<frame>/<field>`: the engine key for this region
    card: Image.Image  # the whole upright card
    template: Template
    templates: TemplateSet
