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

from cardkit.ocr import casing, decide, fields, geometry, grammar, layout, line_finder, page
from cardkit.ocr import grammar_refine as refine
from cardkit.ocr.engine import OcrEngine, Reading
from cardkit.ocr.intake import Frame

ASPECT_TOLERANCE = 0.10  # a scan's aspect may differ this much (relative) from its template's
WARPED_TOLERANCE = 0.02  # ... and this much once its outline was squared to a card's aspect
OUTLINE_SLACK = 0.12  # an outline in a photo may differ this much from its card's aspect
ACCEPT = 0.80  # a probe score this good (with a keyword found) ends the search
KEYWORD = 0.50  # bonus for a keyword found: a template that finds its keywords beats one
# that has none (a card back reading a front's type line as its name)
NO_FIT = 0.30  # below this no template fits
# a line whose strokes lean this much (shear) is italic: italic type leans 0.15-0.35, roman
# -0.05-0.05, so the cut is half a light italic's lean (0.2 missed lines read at 150 dpi)
ITALIC = 0.1


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
    kept_text: str = ""  # lines of the whole-card read that no field claims
    settings: dict[str, Any] = field(default_factory=dict)
    card: Image.Image | None = None
    fallback: layout.Template | None = None  # the kind a scan no template fits is filed under
    lines: list[page.Line] = field(default_factory=list)  # the whole-card read, with layout
    grammar: grammar.Reading | None = None  # read by a kind's grammar, not by a template
    decision: decide.Decision | None = None  # the kind's evidence, when it was weighed

    @property
    def mean_confidence(self) -> float:
        read = [f.confidence for f in self.fields if f.value is not None]
        return sum(read) / len(read) if read else 0.0


def _aspect_fits(width: int, height: int, template: layout.Template, slack: float) -> bool:
    return abs(width / height - template.aspect) / template.aspect <= slack


@dataclass
class Straightened:
    """The card squared up: one image per card proportion its outline may have."""

    shapes: list[float | None]  # width/height to square the outline to; None: as it is
    settings: dict[str, Any]
    image: Image.Image
    outline: geometry.Outline | None = None

    def card(self, index: int) -> Image.Image:
        if self.outline is None:
            return self.image
        return geometry.warp(self.image, self.outline.corners, self.shapes[index])

    def preview(self) -> Image.Image:
        """A small copy of the nearest shape: enough to see which way the text runs."""
        if self.outline is None:
            return self.image
        return geometry.warp(self.image, self.outline.corners, self.shapes[0], geometry.WORK_SIZE)


def straighten(image: Image.Image, aspects: list[float]) -> Straightened:
    """The card cut out of a photo, to be squared up to each card proportion (either way
    up) near its outline's, nearest first; the scan itself, trimmed of a plain margin, when
    it is all card. (In a photo a card's proportions are off by up to a tenth: a poker card
    turned sideways, 1.40, and a 150 x 100 mm board, 1.50, are both possible at 1.42.)"""
    outline = geometry.find_outline(image, aspects)
    if outline is None:
        return Straightened([None], {"outline": "whole image"}, geometry.trim(image))
    width, height = geometry.side_lengths(outline.corners)
    measured = width / height
    shapes = sorted({*aspects, *(1 / a for a in aspects)}, key=lambda a: abs(measured - a) / a)
    near: list[float | None] = [a for a in shapes if abs(measured - a) / a <= OUTLINE_SLACK]
    return Straightened(near or [None], {"outline": "found"}, image, outline)


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
            self.cache[key] = page.drop_proxy_marks(
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


def systems_in_path(path: Path, names: list[str]) -> tuple[str, ...]:
    """A folder on the scan's path named after a system (`scans/villainous/...`) names it."""
    parts = {part.casefold().replace("_", "-") for part in path.resolve().parts[:-1]}
    return tuple(name for name in names if name in parts)


def _rotations(axis: str) -> list[int]:
    return [0, 180, 270, 90] if axis == "horizontal" else [270, 90, 0, 180]


def _turns(
    image: Image.Image, templates: list[layout.Template], slack: float, axis: str
) -> list[int]:
    """The quarter turns under which some template's shape fits the image, in the order
    the text's axis says."""

    def fits(rotation: int) -> bool:
        w, h = (image.width, image.height) if rotation % 180 == 0 else (image.height, image.width)
        return any(_aspect_fits(w, h, t, slack) for t in templates)

    return [r for r in _rotations(axis) if fits(r)]


def _shape_order(shapes: list[float | None], aspects: list[float], axis: str) -> list[int]:
    """Which squared-up shapes to try first: those whose templates stand upright with the
    text's lines running the way the axis says, then the nearest."""
    upright = axis == "horizontal"

    def key(index: int) -> tuple[bool, int]:
        shape = shapes[index]
        direct = shape is None or any(abs(shape - a) < 1e-6 for a in aspects)
        return direct != upright, index

    return sorted(range(len(shapes)), key=key)


def read_frame(frame: Frame, engine: OcrEngine, options: Options) -> CardRead:
    sets = layout.template_sets()
    wanted = options.systems or systems_in_path(frame.source, list(sets))
    chosen = [s for s in sets.values() if not wanted or s.system in wanted]
    templates = [t for s in chosen for t in s.templates if not t.hint]
    aspects = sorted({t.aspect for t in templates})
    straight = straighten(frame.image, aspects)
    settings = straight.settings
    # a found outline was squared to a card's exact proportions, so only its templates fit
    slack = WARPED_TOLERANCE if straight.outline is not None else ASPECT_TOLERANCE
    axis, _clarity = geometry.text_axis(straight.preview())
    reader = Reader(frame, engine, options)
    best: tuple[float, layout.Template, int, Image.Image, str] | None = None
    sure, skew, level, level_turn = False, 0.0, straight.image, 0
    probed: dict[str, tuple[float, bool, str, str]] = {}  # each kind's best template read
    for index in _shape_order(straight.shapes, aspects, axis):
        image = straight.card(index)
        rotations = _turns(image, templates, slack, axis) or _rotations(axis)
        level, level_turn = geometry.rotate(image, rotations[0]), rotations[0]
        if straight.outline is None:  # a found outline's sides have set the card straight
            skew = geometry.skew_angle(level)
            if skew:
                level = geometry.trim(geometry.deskew(level, skew))
        reader.variant = f"~{index}" if index else ""
        for rotation in rotations:
            card = geometry.rotate(level, (rotation - rotations[0]) % 360)
            for template in templates:
                if not _aspect_fits(card.width, card.height, template, slack):
                    continue
                if not all(layout.tone_fits(card, tone) for tone in template.tones):
                    continue
                score, keyword = reader.probe(card, template, rotation)
                if score > probed.get(template.kind, (-1.0, False))[0]:
                    probed[template.kind] = (score, keyword, template.ident, template.system)
                if best is None or score > best[0]:
                    best = (score, template, rotation, card, reader.variant)
                    sure = keyword
                if keyword and score >= ACCEPT + KEYWORD:
                    break
            if best and sure:
                break  # a keyword was read this way up: the other turns will not read better
        if best and (sure or best[0] >= ACCEPT):
            break  # another shape of the outline is tried only when this one read badly
    settings.update({"axis": axis, "skew": skew, "templates_tried": len(reader.cache)})
    weighed = None
    heard = tuple(reader.cache.values())
    # every kind weighed, even when a template read its keyword (a stray word of rules
    # text can be one): on that template's card, else every way up from the axis's
    if best is not None and sure:
        weighed = _weigh(
            frame, engine, options, chosen, best[3], best[2], [best[2]], best, best[4], (), probed
        )
    else:
        weighed = _weigh(
            frame,
            engine,
            options,
            chosen,
            level,
            level_turn,
            _rotations(axis),
            best,
            "",
            heard,
            probed,
        )
    decision, kind, lines, level, level_turn = weighed
    if kind is not None and decision is not None:
        done = CardRead(frame, None, level_turn, skew, [], decision.best.score, "", settings)
        done.card, done.lines, done.decision = level, lines, decision
        done.grammar = grammar.read(kind, lines, level.height)
        refine.title_band(done.grammar, level, engine, f"{frame.name}/{level_turn}")
        refine.sharpen(done.grammar, reader, level, level_turn, sets[kind.system])
        refine.near_numbers(done.grammar, level, engine, f"{frame.name}/{level_turn}")
        refine.flag_marks(done.grammar, level, engine, f"{frame.name}/{level_turn}")
        refine.placement(done.grammar, level)
        done.kept_text = "\n".join(done.grammar.kept)
        return done
    if best is None or best[0] < NO_FIT:
        # no template fits: keep what a whole-card read gives, under the kind whose shape fits
        card, turned = level, level_turn  # as the kinds were weighed: a read is weighed here
        lines = weighed[2] if weighed else page.read_page(card, engine, f"{frame.name}/{turned}")
        shaped = [t for t in templates if _aspect_fits(card.width, card.height, t, slack)]
        fallback = best[1] if best else next(iter(shaped or templates), None)
        text = "\n".join(line.text for line in lines)
        done = CardRead(frame, None, turned, skew, [], 0.0, text, settings, card, fallback)
        done.lines = lines
        done.decision = weighed[0] if weighed else None
        return done
    score, template, rotation, card, reader.variant = best
    if reader.variant:
        settings["shape"] = round(card.width / card.height, 3)
    set_of = sets[template.system]
    read = [
        f for r in template.regions for f in reader.read_region(card, r, rotation, template, set_of)
    ]
    # the whole card once more, with layout: what no field claims is kept, so the draft
    # holds at least what a plain read of the card gives
    if weighed and rotation == weighed[4] and weighed[3].size == card.size:
        lines = weighed[2]  # the card was read this way up while its kind was weighed
    else:
        lines = page.read_page(card, engine, f"{frame.name}/{rotation}{reader.variant}")
    claimed = [f.value for f in read if f.value is not None] + [f.text for f in read]
    kept = "\n".join(page.unclaimed(lines, claimed))
    done = CardRead(frame, template, rotation, skew, read, score, kept, settings, card)
    done.lines = lines
    done.decision = weighed[0] if weighed else None
    return done


Weighed = tuple[decide.Decision | None, grammar.Kind | None, list[page.Line], Image.Image, int]


def _weigh(
    frame: Frame,
    engine: OcrEngine,
    options: Options,
    chosen: list[layout.TemplateSet],
    level: Image.Image,
    level_turn: int,
    turns: list[int],
    best: tuple[float, layout.Template, int, Image.Image, str] | None,
    reader_variant: str = "",
    reader_cache: tuple[Reading, ...] = (),
    probed: dict[str, tuple[float, bool, str, str]] | None = None,
) -> Weighed:
    """Every kind of every candidate system scored on the card's whole-card read (see
    decide.py); the grammar kind to read the card by, when one wins with evidence. The
    card is read stood up as its text's axis says, then (while no kind's headings are
    found) the other ways up: a square card's axis is a guess."""
    hinted = set(options.systems or systems_in_path(frame.source, [s.system for s in chosen]))
    every = [k for s in chosen for k in grammar.grammars().get(s.system, ()) if k.rules]
    found: tuple[int, float, list[page.Line], Image.Image, int, list[grammar.Kind], bool] | None
    found = None
    for turn in turns:
        card = geometry.rotate(level, (turn - level_turn) % 360)
        kinds = [k for k in every if grammar.shape_fits(k, card.width, card.height)]
        if found is not None and not kinds:
            continue
        key = f"{frame.name}/{turn}{reader_variant}"
        lines = page.first_read(card, engine, key)
        upright = full = page.stands_upright(lines)
        if full:  # a card read on its side is not read again: this way up is wrong
            lines = page.read_more(card, engine, key, lines)
            upright = page.stands_upright(lines)
        seen = max((len(grammar.evidence(k, lines)) for k in kinds), default=0)
        if not upright:
            seen = 0  # lines read down the card: tesseract read it on its side
        worth = sum(ln.confidence * len(ln.text) for ln in lines)
        if found is None or (seen, worth) > found[:2]:
            found = (seen, worth, lines, card, turn, kinds, full)
        if seen or not every:
            break
    assert found is not None
    _, _, lines, card, turn, kinds, full = found
    if not full:  # every way up read on its side: the one kept is read in full
        lines = page.read_more(card, engine, f"{frame.name}/{turn}{reader_variant}", lines)
    if kinds and not any(grammar.evidence(k, lines) for k in kinds):
        # no kind's headings read: the engine's layout analysis may have taken a sparse
        # card for a picture; the lines found by shape, each read alone, are added
        found = line_finder.read_lines(card, engine, f"{frame.name}/{turn}/lines", lines)
        lines = line_finder.merged(lines, found)
    # what the templates' regions read counts as evidence too (a coloured header the
    # whole-card read missed), though only the page's lines are given to fields
    heard = lines + [
        page.Line(" ".join(w.text for w in ln), 1.0, (0, 0, 1, 1), 1.0)
        for reading in reader_cache
        for ln in reading.lines
    ]
    # the template first: a tie goes to it (where a template fits its design it reads
    # better than the grammar; the grammar wins only with more evidence)
    candidates = []
    if best is not None:
        template = best[1]
        score = min(1.0, best[0] / (ACCEPT + KEYWORD))
        score += decide.HINT if template.system in hinted else 0
        what = f"its probe regions read at {best[0]:.2f}" + (
            f", a keyword of {', '.join(template.keywords)} read"
            if best[0] >= KEYWORD
            else f", no keyword of {', '.join(template.keywords)}"
        )
        keyword = best[0] >= KEYWORD
        candidates.append(decide.Candidate(template.ident, template.kind, score, what, keyword))
    for other, (read, said, ident, system) in (probed or {}).items():
        if best is not None and other == best[1].kind:
            continue  # the best template's kind is in already: every other kind's best too
        score = min(1.0, read / (ACCEPT + KEYWORD)) + (decide.HINT if system in hinted else 0)
        what = f"its probe regions read at {read:.2f}" + (", a keyword read" if said else "")
        candidates.append(decide.Candidate(ident, other, score, what, said))
    # read down the card, its labels say nothing (lines of words only: a lone digit, an
    # icon read as a letter stand as tall as wide either way)
    wordy = [ln for ln in lines if sum(c.isalpha() for c in ln.text) >= 3]
    upright = page.stands_upright(wordy or lines)
    for kind in kinds:
        seen_here = grammar.evidence(kind, heard) if upright else []
        score = len(seen_here) / max(1, len(kind.evidence))
        score += decide.HINT if kind.system in hinted else 0
        what = f"read {', '.join(seen_here)}" if seen_here else "none of its headings read"
        ident = f"grammar {kind.ident}"
        candidates.append(decide.Candidate(ident, kind.kind, score, what, bool(seen_here)))
    decision = decide.decide(candidates)
    won = next((k for k in kinds if decision and f"grammar {k.ident}" == decision.best.ident), None)
    if (
        won is None
        or not upright
        or len(grammar.evidence(won, heard)) / max(1, len(won.evidence)) < decide.LEAST
    ):
        return decision, None, lines, card, turn
    return decision, won, lines, card, turn
