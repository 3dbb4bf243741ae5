"""The pipeline over one frame: geometry, the template that fits, every region read.

intake (a Frame) -> find the card and straighten it -> find the text's axis and deskew ->
try the templates whose shape fits, each way up, reading their probe regions -> keep the
best -> read every region -> fields. The engine is the only thing that reads text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from cardkit.ocr import fields, geometry, layout
from cardkit.ocr.engine import OcrEngine, Reading
from cardkit.ocr.intake import Frame

ASPECT_TOLERANCE = 0.10  # a scan's aspect may differ this much (relative) from its template's
ACCEPT = 0.80  # a probe score this good (with a keyword found) ends the search
KEYWORD = 0.50  # bonus for a keyword found: a template that finds its keywords beats one
# that has none (a card back reading a front's type line as its name)
NO_FIT = 0.30  # below this no template fits
ITALIC = 0.2  # a line whose strokes lean this much (shear) is italic


@dataclass
class Options:
    systems: tuple[str, ...] = ()  # empty: every system with templates
    threshold: float = 0.90  # fields read less surely than this are left unconfirmed
    vocabulary: dict[str, list[str]] = field(default_factory=dict)  # extra words per system


@dataclass
class CardRead:
    frame: Frame
    template: layout.Template | None
    rotation: int  # degrees counter-clockwise the scan was turned to stand upright
    skew: float
    fields: list[fields.FieldRead]
    score: float
    kept_text: str = ""  # what was read where no template fits
    settings: dict[str, Any] = field(default_factory=dict)
    card: Image.Image | None = None
    fallback: layout.Template | None = None  # the kind a scan no template fits is filed under

    @property
    def mean_confidence(self) -> float:
        read = [f.confidence for f in self.fields if f.value is not None]
        return sum(read) / len(read) if read else 0.0


def _aspect_fits(width: int, height: int, template: layout.Template) -> bool:
    return abs(width / height - template.aspect) / template.aspect <= ASPECT_TOLERANCE


def straighten(image: Image.Image, aspects: list[float]) -> tuple[Image.Image, dict[str, Any]]:
    """The card cut out of a photo and squared up; the scan itself when it is all card."""
    outline = geometry.find_outline(image)
    if outline is None:
        return geometry.trim(image), {"outline": "whole image"}
    width, height = geometry.side_lengths(outline.corners)
    measured = width / height
    candidates = [a for a in aspects if abs(measured - a) / a <= 0.12]
    candidates += [a for a in aspects if abs(measured - 1 / a) / (1 / a) <= 0.12]
    aspect = None
    if candidates:
        aspect = min(candidates, key=lambda a: min(abs(measured - a), abs(measured - 1 / a)))
        aspect = aspect if abs(measured - aspect) < abs(measured - 1 / aspect) else 1 / aspect
    return geometry.warp(image, outline.corners, aspect), {"outline": "found"}


def region_key(frame: str, rotation: int, region: layout.Region) -> str:
    """The engine key of one region read: what a replay file is indexed by."""
    where = ",".join(f"{v:.3f}" for v in region.box)
    return f"{frame}/{rotation}/{region.field}@{where}/{region.mode}"


class Reader:
    """Reads regions of one frame, caching what was read, so probes are not read twice."""

    def __init__(self, frame: Frame, engine: OcrEngine, options: Options) -> None:
        self.frame, self.engine, self.options = frame, engine, options
        self.cache: dict[str, Reading] = {}
        self.prepared: dict[str, Image.Image] = {}

    def read_text(
        self, card: Image.Image, region: layout.Region, rotation: int, template: layout.Template
    ) -> Reading:
        key = region_key(self.frame.name, rotation, region)
        if key not in self.cache:
            prepared = layout.prepare(layout.crop(card, region.box), region, card.height)
            self.prepared[key] = prepared
            self.cache[key] = self.engine.read(
                prepared, region.mode, key=key, whitelist=region.whitelist
            )
        return self.cache[key]

    def italic_lead(self, key: str, reading: Reading) -> tuple[Reading, Reading] | None:
        """The leading italic lines (flavour text) and the rest, when the region starts italic."""
        import numpy as np

        prepared = self.prepared.get(key)
        if prepared is None:
            return None
        array = np.asarray(prepared.convert("L"))
        lines = reading.lines
        lead = 0
        for line in lines:
            # word by word: a frame line read as `|` beside a word must not stand the line up
            slants = sorted(
                geometry.slant(
                    array[w.box[1] : w.box[1] + w.box[3], w.box[0] : w.box[0] + w.box[2]]
                )
                for w in line
                if sum(c.isalpha() for c in w.text) >= 3
            )
            if not slants or slants[len(slants) // 2] < ITALIC:
                break
            lead += 1
        if lead == 0:
            return None
        first = Reading(tuple(w for line in lines[:lead] for w in line))
        return first, Reading(tuple(w for line in lines[lead:] for w in line))

    def applies(
        self, card: Image.Image, region: layout.Region, rotation: int, template: layout.Template
    ) -> bool:
        """A region's `when` / `unless` conditions on what other regions read."""
        by_field = {r.field: r for r in template.regions}

        def seen(name: str, pattern: str) -> bool:
            other = by_field.get(name)
            if other is None:
                return False
            return bool(re.search(pattern, self.read_text(card, other, rotation, template).text))

        return all(seen(n, p) for n, p in region.when) and not any(
            seen(n, p) for n, p in region.unless
        )

    def probe(
        self, card: Image.Image, template: layout.Template, rotation: int
    ) -> tuple[float, bool]:
        """How well a template fits: its probe regions' confidence, and a keyword found."""
        probes = [
            r
            for r in template.regions
            if r.probe and r.reader == "text" and self.applies(card, r, rotation, template)
        ]
        if not probes:
            return 0.0, False
        by_field = {r.field: r for r in template.regions}
        for name, pattern in template.match:
            if name not in by_field:
                continue
            seen = self.read_text(card, by_field[name], rotation, template).text
            if not re.search(pattern, seen):
                return 0.0, False
        scores, keyword = [], False
        for region in probes:
            reading = self.read_text(card, region, rotation, template)
            text = reading.text.strip()
            letters = sum(c.isalnum() for c in text)
            quality = reading.confidence * min(1.0, letters / 3) if text else 0.0
            scores.append(quality)
            if any(fields.contains(text, k) for k in template.keywords):
                keyword = True
        score = sum(scores) / len(scores)
        return score + (KEYWORD if keyword else 0.0), keyword

    def read_region(
        self,
        card: Image.Image,
        region: layout.Region,
        rotation: int,
        template: layout.Template,
        sets: layout.TemplateSet,
    ) -> list[fields.FieldRead]:
        if not self.applies(card, region, rotation, template):
            return []
        box = layout.pixel_box(card, region.box)
        if region.reader != "text":
            context = layout.ReadContext(
                self.engine, f"{self.frame.name}/{region.field}", card, template, sets
            )
            result: fields.FieldRead = layout.reader(region.reader)(
                layout.crop(card, region.box), region, context
            )
            result.box = result.box or box
            return [result]
        reading = self.read_text(card, region, rotation, template)
        vocabulary = list(sets.vocabularies.get(region.vocabulary, []))
        if region.parse in ("text", "paragraphs", "line"):
            vocabulary += self.options.vocabulary.get(template.system, [])
        parts = [(region.field, reading)]
        split = region.options.get("split")
        lead = self.italic_lead(region_key(self.frame.name, rotation, region), reading)
        if split and lead is not None:
            # leading italic lines go to a sibling field (flavour text above the rules)
            sibling = "/".join([*region.field.split("/")[:-1], str(split)])
            parts = [(sibling, lead[0]), (region.field, lead[1])]
        out = []
        for name, part in parts:
            value, corrections = fields.parse(region.parse, part, vocabulary, name)
            digits = int(region.options.get("digits", 0))
            if digits and isinstance(value, int) and len(str(abs(value))) > digits:
                # a one-digit box read with the icon beside it (`2` + per-hero mark as `22`)
                value = int(str(value)[: digits + (value < 0)])
            confidence = part.confidence if value is not None else 0.0
            out.append(fields.FieldRead(name, value, confidence, part.text, corrections, box))
        return out


def systems_in_path(path: Path, names: list[str]) -> tuple[str, ...]:
    """A folder on the scan's path named after a system (`scans/villainous/...`) names it."""
    parts = {part.casefold().replace("_", "-") for part in path.resolve().parts[:-1]}
    return tuple(name for name in names if name in parts)


def _rotations(axis: str) -> list[int]:
    return [0, 180, 270, 90] if axis == "horizontal" else [270, 90, 0, 180]


def read_frame(frame: Frame, engine: OcrEngine, options: Options) -> CardRead:
    sets = layout.template_sets()
    wanted = options.systems or systems_in_path(frame.source, list(sets))
    chosen = [s for s in sets.values() if not wanted or s.system in wanted]
    templates = [t for s in chosen for t in s.templates]
    image, settings = straighten(frame.image, sorted({t.aspect for t in templates}))
    axis, _clarity = geometry.text_axis(image)
    rotations = _rotations(axis)
    upright = geometry.rotate(image, rotations[0])
    skew = geometry.skew_angle(upright)
    settings.update({"axis": axis, "skew": skew})
    reader = Reader(frame, engine, options)
    best: tuple[float, layout.Template, int, Image.Image] | None = None
    sure = False
    for rotation in rotations:
        card = geometry.rotate(image, rotation)
        if rotation == rotations[0] and skew:
            card = geometry.deskew(card, skew)
            if settings["outline"] != "found":
                # a warped outline is all card: trimming would cut the card's own plain margin
                card = geometry.trim(card)
        for template in templates:
            if not _aspect_fits(card.width, card.height, template):
                continue
            if not all(layout.tone_fits(card, tone) for tone in template.tones):
                continue
            score, keyword = reader.probe(card, template, rotation)
            if best is None or score > best[0]:
                best = (score, template, rotation, card)
                sure = keyword
            if keyword and score >= ACCEPT + KEYWORD:
                break
        if best and sure:
            break  # a keyword was read this way up: the other turns will not read better
    settings["templates_tried"] = len(reader.cache)
    if best is None or best[0] < NO_FIT:
        # no template fits: keep what a whole-card read gives, under the kind whose shape fits
        card = geometry.rotate(image, rotations[0])
        reading = engine.read(card, "auto", key=f"{frame.name}/page")
        shaped = [t for t in templates if _aspect_fits(card.width, card.height, t)]
        fallback = best[1] if best else next(iter(shaped or templates), None)
        text = "\n".join(
            " ".join(w.text for w in line if not fields.noise(w.text, w.confidence))
            for line in reading.lines
        )
        return CardRead(frame, None, rotations[0], skew, [], 0.0, text, settings, card, fallback)
    score, template, rotation, card = best
    set_of = sets[template.system]
    read = [
        f for r in template.regions for f in reader.read_region(card, r, rotation, template, set_of)
    ]
    return CardRead(frame, template, rotation, skew, read, score, "", settings, card)
