"""The pipeline over one frame: geometry, the template that fits, every region read.

intake (a Frame) -> find the card and straighten it (straighten.py) -> find the text's
axis and deskew -> try the templates whose shape fits, each way up, reading their probe
regions (region_reader.py) -> weigh every kind on the whole-card read (kind_choice.py) ->
read by the winning kind's grammar, or every region of the best template -> fields. The
engine is the only thing that reads text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from cardkit.ocr import (
    columns,
    decide,
    fields,
    geometry,
    grammar,
    kind_choice,
    layout,
    numbers,
    page,
    page_text,
    palette,
    slots,
    tag_headings,
)
from cardkit.ocr import grammar_refine as refine
from cardkit.ocr.engine import OcrEngine
from cardkit.ocr.intake import Frame
from cardkit.ocr.kind_choice import systems_in_path
from cardkit.ocr.region_reader import ACCEPT, ITALIC, KEYWORD, Reader, region_key
from cardkit.ocr.straighten import Straightened, straighten

# re-exported: the names other modules (and replay files' keys) knew from here
__all__ = [
    "ITALIC",
    "CardRead",
    "Options",
    "Reader",
    "Straightened",
    "read_frame",
    "region_key",
    "straighten",
    "systems_in_path",
]

ASPECT_TOLERANCE = 0.10  # a scan's aspect may differ this much (relative) from its template's
WARPED_TOLERANCE = 0.02  # ... and this much once its outline was squared to a card's aspect
NO_FIT = 0.30  # below this no template fits


@dataclass
class Options:
    systems: tuple[str, ...] = ()  # empty: every system with templates
    threshold: float = 0.90  # fields read less surely than this are left unconfirmed
    vocabulary: dict[str, list[str]] = field(default_factory=dict)  # extra words per system
    palette: str | None = None  # a box palette file for placement icons (palette.py)


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


def _early_read(
    frame: Frame, engine: OcrEngine, level: Image.Image, level_turn: int, turn: int
) -> tuple[Image.Image, list[page.Line]]:
    """The page's first read of the card turned to `turn`, as kind_choice.weigh reads it
    first (the same card, key and read: it is handed to weigh, not read again)."""
    card = geometry.rotate(level, (turn - level_turn) % 360)
    return level, page.first_read(card, engine, f"{frame.name}/{turn}")


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
    probed: dict[str, tuple[float, bool, str, str, int]] = {}  # each kind's best probe
    by_axis: dict[int, tuple[tuple[float, layout.Template, int, Image.Image, str], bool]] = {}
    order = _shape_order(straight.shapes, aspects, axis)
    first = _rotations(axis)[0]  # the way up the kinds are weighed on first
    early: tuple[Image.Image, list[page.Line]] | None = None  # the first way up's page read
    for index in order:
        image = straight.card(index)
        rotations = _turns(image, templates, slack, axis) or _rotations(axis)
        level, level_turn = geometry.rotate(image, rotations[0]), rotations[0]
        if straight.outline is None:  # a found outline's sides have set the card straight
            skew = geometry.skew_angle(level)
            if skew:
                level = geometry.trim(geometry.deskew(level, skew))
        reader.variant = f"~{index}" if index else ""
        for rotation in rotations:
            if index == order[-1] and not sure and (rotation - first) % 360:
                # a way up not the one the kinds are weighed on first: that one is read
                # now (once: the weighing is handed it), and when it reads across the
                # card surely, this and the other ways up are not probed (upside down or
                # on its side: what their regions read is no template's fit)
                early = early or _early_read(frame, engine, level, rotations[0], first)
                if kind_choice.surely_across(early[1]):
                    break
            card = geometry.rotate(level, (rotation - rotations[0]) % 360)
            for template in templates:
                if not _aspect_fits(card.width, card.height, template, slack):
                    continue
                if not all(layout.tone_fits(card, tone) for tone in template.tones):
                    continue
                score, keyword = reader.probe(card, template, rotation)
                if score > probed.get(template.kind, (-1.0, False, "", "", 0))[0]:
                    probed[template.kind] = (
                        score,
                        keyword,
                        template.ident,
                        template.system,
                        rotation,
                    )
                here = (score, template, rotation, card, reader.variant)
                quarter = rotation % 180
                if quarter not in by_axis or score > by_axis[quarter][0][0]:
                    by_axis[quarter] = (here, keyword)
                if best is None or score > best[0]:
                    best = here
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
        weighed = kind_choice.weigh(
            frame,
            engine,
            options,
            chosen,
            best[3],
            best[2],
            [best[2]],
            best,
            best[4],
            probed=probed,
            sure=True,
        )
        if not kind_choice.upright(weighed[2]):
            weighed = None  # its words run down the card: the keyword was read on its side
    if weighed is None:
        weighed = kind_choice.weigh(
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
            probed=probed,
            early={first: early[1]} if early and early[0] is level else None,
        )
    decision, kind, lines, level, level_turn = weighed
    if best is not None and (best[2] - level_turn) % 180 and kind_choice.upright(lines):
        # the card's words read across it this way up: a template that fits only with the
        # card on its side read its probes across the lines; the best upright one stands
        best, sure = by_axis.get(level_turn % 180, (None, False))
    if kind is not None and decision is not None:
        done = CardRead(frame, None, level_turn, skew, [], decision.best.score, "", settings)
        lines = tag_headings.added(kind, lines, level, engine, f"{frame.name}/{level_turn}")
        done.card, done.lines, done.decision = level, lines, decision
        placed = "placement" in kind.structures
        diagram = slots.diagram_boxes(level, slots.words_of(lines)) if placed else []
        done.grammar = grammar.read(kind, lines, level.height, list(diagram))
        done.grammar = columns.reread(done.grammar, level, engine, f"{frame.name}/{level_turn}")
        refine.title_band(done.grammar, level, engine, f"{frame.name}/{level_turn}")
        refine.sharpen(done.grammar, reader, level, level_turn, sets[kind.system])
        refine.near_numbers(done.grammar, level, engine, f"{frame.name}/{level_turn}")
        refine.unlabelled_numbers(done.grammar, level, engine, f"{frame.name}/{level_turn}")
        refine.flag_marks(done.grammar, level, engine, f"{frame.name}/{level_turn}")
        refine.placement(done.grammar, level, palette.for_scan(frame.source, options.palette))
        numbers.refine(done.grammar, level, engine, f"{frame.name}/{level_turn}")
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
    kept = "\n".join(page_text.unclaimed(lines, claimed))
    done = CardRead(frame, template, rotation, skew, read, score, kept, settings, card)
    done.lines = lines
    done.decision = weighed[0] if weighed else None
    return done
