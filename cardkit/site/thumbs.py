"""build/thumbs/: a small PNG of every card's proxy, for the build report.

The thumbnails are cut from the proof sheets the build has just printed
(build/proofs.pdf): the cards are laid out again with the same options (the same
`pdf.sheets` order the printer used) to know which page and box each card sits in, and
only the pages holding a card whose thumbnail is missing are rasterised (pypdfium2).

A thumbnail's file name is a hash of what the card shows (its ProofCard), the code that
paints it and the resolution, so a card that did not change keeps its file from the
last build, and copies of one card share one file. Unconfirmed values are marked on the
proxy itself (the proof's red band and `?` badges); the report lists them beside it.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from cardkit.model import Document
from cardkit.render import content, pdf
from cardkit.render.content import ProofCard
from cardkit.render.proof import ProofOptions, layouts
from cardkit.render.sheet import Box, Layout
from cardkit.render.units import pair

DPI = 60
FOLDER = "thumbs"
BUILD_OPTIONS = ProofOptions(backs=True)  # as the build prints build/proofs.pdf


@dataclass(frozen=True)
class Thumb:
    """One card in the report: its thumbnail, where it is written, what is unsure in it."""

    name: str  # file name under thumbs/
    title: str
    deck: str
    path: str  # the card file, as the build shows paths
    line: int
    box: str
    group: str  # the document's group, as its game declares it (systems.group_of)
    group_label: str  # what its game calls a group ("" for none)
    unconfirmed: tuple[str, ...]


def _name(card: ProofCard, code: str) -> str:
    """The thumbnail's file name: a hash of every value of the card (sets in order, so it
    is the same in every run), the code that paints it and the resolution."""
    values = {f.name: getattr(card, f.name) for f in fields(card)}
    values["unconfirmed"] = sorted(card.unconfirmed)
    shown = json.dumps(values, sort_keys=True, default=repr)
    return hashlib.sha256(f"{code}\n{DPI}\n{shown}".encode()).hexdigest()[:20] + ".png"


def plan(documents: list[Document], code: str) -> list[Thumb]:
    """The report's cards: one per card, not per printed copy."""
    from cardkit import systems

    thumbs: list[Thumb] = []
    for doc in documents:
        group, label = systems.group_of(doc), systems.group_label(doc.kind)
        seen: set[tuple[object, ...]] = set()
        for card in content.collect([doc]):
            name = _name(card, code)
            identity = (card.pointer, card.title, card.kind)
            if identity in seen:
                continue
            seen.add(identity)
            line = doc.locate(card.pointer)[0] if card.pointer else 1
            thumbs.append(
                Thumb(
                    name=name,
                    title=card.title,
                    deck=card.deck,
                    path=doc.display_path,
                    line=line,
                    box=card.box or str(doc.data.get("box", "")),
                    group=group,
                    group_label=label,
                    unconfirmed=tuple(sorted(card.unconfirmed)),
                )
            )
    return thumbs


def draw(
    proofs: Path, documents: list[Document], wanted: set[str], code: str, out: Path
) -> list[str]:
    """Write the thumbnails named in `wanted` into `out`, cut from `proofs` (printed from
    `documents` with BUILD_OPTIONS); returns the names written.

    `out` is inside the build's staging folder, which replaces build/ in one step: the files
    are written plainly and flushed with one sync, not each with its own atomic write (480
    fsyncs cost ~10 s on a loaded disk)."""
    import pypdfium2 as pdfium

    todo: dict[int, list[tuple[str, Layout, Box]]] = {}
    options = BUILD_OPTIONS
    flip = options.flip if options.backs else None
    fronts, other_side = pdf.two_sided(content.collect(documents), flip)
    for sheet, (grid, on_sheet) in enumerate(pdf.sheets(fronts, layouts(options))):
        for index, card in enumerate(on_sheet):
            page = sheet * 2 if flip else sheet
            if _name(card, code) in wanted:
                todo.setdefault(page, []).append((_name(card, code), grid, grid.trims[index]))
            behind = other_side.get(card.source)
            if flip and behind is not None and _name(behind, code) in wanted:
                mirrored = grid.mirror(grid.trims[index], flip, pair(options.back_offset))
                todo.setdefault(page + 1, []).append((_name(behind, code), grid, mirrored))
    written: list[str] = []
    if todo:
        out.mkdir(parents=True, exist_ok=True)
    document = pdfium.PdfDocument(proofs)
    try:
        for number, boxes in sorted(todo.items()):
            page = document[number]
            try:
                image = page.render(scale=DPI / 72).to_pil().convert("RGB")
            finally:
                page.close()
            for name, grid, trim in boxes:
                if name not in written:
                    (out / name).write_bytes(_cut(image, grid, trim))
                    written.append(name)
    finally:
        document.close()
    if written:
        os.sync()  # once for all: the folder is new, swapped in whole by the build
    return written


def _cut(image: Any, grid: Layout, trim: Box) -> bytes:
    """The card's trim box out of a page image, as a small palette PNG."""
    from PIL import Image

    scale = DPI / 72
    top = grid.paper.h - trim.y - trim.h  # PDF counts from the bottom, images from the top
    box = (trim.x, top, trim.x + trim.w, top + trim.h)
    crop = image.crop(tuple(round(v * scale) for v in box))
    buffer = io.BytesIO()
    crop.quantize(colors=128, method=Image.Quantize.FASTOCTREE).save(buffer, format="PNG")
    return buffer.getvalue()
