"""A template's regions read from one frame: how well a template fits (its probe regions),
and every region's fields. Region reads are cached, so probes are not read twice."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PIL import Image

from cardkit.ocr import casing, fields, geometry, layout, page_text
from cardkit.ocr import grammar_refine as refine
from cardkit.ocr.engine import OcrEngine, Reading
from cardkit.ocr.intake import Frame

if TYPE_CHECKING:
    from cardkit.ocr.pipeline import Options

ACCEPT = 0.80  # a probe score this good (with a keyword found) ends the search
KEYWORD = 0.50  # bonus for a keyword found: a template that finds its keywords beats one
# that has none (a card back reading a front's type line as its name)
# a line whose strokes lean this much (shear) is italic: italic type leans 0.15-0.35, roman
# -0.05-0.05, so the cut is half a light italic's lean (0.2 missed lines read at 150 dpi)
ITALIC = 0.1


def region_key(frame: str, rotation: int, region: layout.Region, variant: str = "") -> str:
    """The engine key of one region read: what a replay file is indexed by (`variant`
    names a second squared-up shape of the same card)."""
    where = ",".join(f"{v:.3f}" for v in region.box)
    return f"{frame}/{rotation}{variant}/{region.field}@{where}/{region.mode}"


class Reader:
    """Reads regions of one frame, caching what was read, so probes are not read twice."""

    def __init__(self, frame: Frame, engine: OcrEngine, options: Options) -> None:
        self.frame, self.engine, self.options = frame, engine, options
        self.cache: dict[str, Reading] = {}
        self.prepared: dict[str, Image.Image] = {}
        self.variant = ""  # which squared-up shape of the card is read (keys tell them apart)

    def key(self, rotation: int, region: layout.Region) -> str:
        return region_key(self.frame.name, rotation, region, self.variant)

    def read_text(
        self, card: Image.Image, region: layout.Region, rotation: int, template: layout.Template
    ) -> Reading:
        key = self.key(rotation, region)
        if key not in self.cache:
            prepared = layout.prepare(layout.crop(card, region.box), region, card.height)
            self.prepared[key] = prepared
            self.cache[key] = page_text.drop_proxy_marks(
                self.engine.read(prepared, region.mode, key=key, whitelist=region.whitelist)
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
        prepared = self.prepared.get(self.key(rotation, region))
        raised = prepared.info.get("small_caps") if prepared is not None else None
        if raised:  # small capitals given back their printed case
            reading = casing.recase(reading, raised, layout.MARGIN)
        vocabulary = list(sets.vocabularies.get(region.vocabulary, []))
        if region.parse in ("text", "paragraphs", "line"):
            vocabulary += self.options.vocabulary.get(template.system, [])
        parts = [(region.field, reading)]
        split = region.options.get("split")
        lead = self.italic_lead(self.key(rotation, region), reading)
        if split and lead is not None:
            # leading italic lines go to a sibling field (flavour text above the rules)
            sibling = "/".join([*region.field.split("/")[:-1], str(split)])
            parts = [(sibling, lead[0]), (region.field, lead[1])]
        out = []
        for name, part in parts:
            value, corrections = fields.parse(region.parse, part, vocabulary, name)
            digits = int(region.options.get("digits", 0))
            confidence = part.confidence if value is not None else 0.0
            if digits and isinstance(value, int) and len(str(abs(value))) > digits:
                # a one-digit box read with the icon beside it (`2` + per-hero mark as `22`),
                # or a number of two digits (threat 10): which, the digits do not say
                value = int(str(value)[: digits + (value < 0)])
                confidence = min(confidence, refine.DOUBTED_NUMBER)
            out.append(fields.FieldRead(name, value, confidence, part.text, corrections, box))
        return out
