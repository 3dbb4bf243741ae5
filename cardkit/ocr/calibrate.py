"""A box palette learnt from cards whose placements a person confirmed.

Each sample is an upright card and its placement as confirmed ({left: {civilian: 1},
villain: {thug: 1, civilian: 1}, ...}). Its slots and icons are found as when reading
(slots.py), without names; a slot whose icons are all one token (as many as confirmed)
names them; a slot of several tokens is named after: each icon goes to the known token
nearest its colour, the rest to the one token not yet known. A slot whose icon count is
not the confirmed one teaches nothing and is reported. Each token's colour is the median
of its icons' fills, its shape the median of their measures; the tolerances widen to take
in every icon seen (half as far again), never below the defaults.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import median
from typing import Any

from PIL import Image

from cardkit.ocr import palette, shapes, slot_icons, slots


class _Unnamed:
    def name(self, icon: Any) -> str:
        return "unknown"


@dataclass
class Learnt:
    palette: palette.BoxPalette
    notes: list[str] = field(default_factory=list)  # what a sample could not teach, and why
    icons: int = 0  # icons that taught a token


def _mixed(
    icons: list[slot_icons.Icon], counts: dict[str, int], known: dict[str, list[slot_icons.Icon]]
) -> dict[str, list[slot_icons.Icon]] | None:
    """A slot of several tokens: icons to the known tokens nearest in colour, the rest to
    the one unknown token (None when more than one is unknown)."""
    unknown = [t for t in counts if t not in known]
    if len(unknown) > 1:
        return None
    left = list(icons)
    out: dict[str, list[slot_icons.Icon]] = {}
    for token in (t for t in counts if t in known):
        centre = _centre(known[token])
        left.sort(key=lambda icon: palette._delta(icon.colour, centre))
        out[token], left = left[: counts[token]], left[counts[token] :]
    if unknown:
        out[unknown[0]] = left
    return out


def _centre(icons: list[slot_icons.Icon]) -> tuple[float, float, float]:
    return (
        median(i.colour[0] for i in icons),
        median(i.colour[1] for i in icons),
        median(i.colour[2] for i in icons),
    )


def learn(
    samples: list[tuple[str, Image.Image, dict[str, dict[str, int]]]], provenance: str
) -> Learnt:
    """The palette from (name, upright card, confirmed placement) samples."""
    known: dict[str, list[slot_icons.Icon]] = {}
    later: list[tuple[list[slot_icons.Icon], dict[str, int]]] = []
    notes: list[str] = []
    for name, card, place in samples:
        found = slots.read_placement(card, _Unnamed())
        if found is not None and not found.oriented:
            slots.marker_from(found, place)
        if found is None or not found.oriented:
            why = "no row of slots found" if found is None else "no slot marked"
            notes.append(f"{name}: {why}")
            continue
        by_slot = {s.name: s.found for s in found.slots if s.name}
        for slot in sorted({*by_slot, *(k for k, v in place.items() if v)}):
            counts = {t: int(n) for t, n in (place.get(slot) or {}).items() if n}
            icons = by_slot.get(slot, [])
            if sum(counts.values()) != len(icons):
                notes.append(
                    f"{name}: {slot}: {len(icons)} icons found, {sum(counts.values())} confirmed"
                )
            elif len(counts) == 1:
                known.setdefault(next(iter(counts)), []).extend(icons)
            elif counts:
                later.append((icons, counts))
    for icons, counts in later:
        split = _mixed(icons, counts, known)
        if split is None:
            notes.append(f"a slot of {', '.join(counts)}: no token of it known alone")
            continue
        for token, part in split.items():
            known.setdefault(token, []).extend(part)
    tokens, colour_gap, shape_gap = [], palette.COLOUR_TOLERANCE, palette.SHAPE_TOLERANCE
    for token, icons in sorted(known.items()):
        centre = _centre(icons)
        extent, solidity, roundness, aspect = (
            median(getattr(i.shape, m) for i in icons) for m in shapes.MEASURES
        )
        holes = round(median(i.shape.holes for i in icons))
        shape = shapes.Shape(extent, solidity, roundness, aspect, holes)
        tokens.append(palette.Token(token, centre, shape))
        colour_gap = max(colour_gap, 1.5 * max(palette._delta(i.colour, centre) for i in icons))
        shape_gap = max(shape_gap, 1.5 * max(i.shape.distance(shape) for i in icons))
    made = palette.BoxPalette(
        tuple(tokens), round(colour_gap, 1), round(shape_gap, 3), "calibrated", provenance
    )
    return Learnt(made, notes, sum(len(v) for v in known.values()))


def upright(scan: Any, systems: tuple[str, ...]) -> Image.Image:
    """The scan's card as the reader stands it up (intake, outline, turn): calibration
    sees the slots where reading will."""
    from cardkit.ocr import intake, pipeline
    from cardkit.ocr.engine import make_engine

    frame = intake.load(scan)[0]
    read = pipeline.read_frame(frame, make_engine("tesseract", "eng"), pipeline.Options(systems))
    return read.card if read.card is not None else frame.image


def placement_field(system: str, kind: str) -> str | None:
    """The draft field a kind's placement diagram is read into (its grammar's `slots`)."""
    from cardkit.ocr import grammar

    for found in grammar.grammars().get(system, ()):
        if found.kind == kind:
            return next((r.field for r in found.rules if r.how == "slots"), None)
    return None
