"""`cardkit proof` as a library call: documents in, a PDF (and PNG previews) out."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cardkit import yamlio
from cardkit.errors import CardkitError
from cardkit.model import Document
from cardkit.render import content, pdf, sheet
from cardkit.render.units import pair, points


@dataclass(frozen=True)
class ProofOptions:
    paper: str = "a4"
    bleed: str = "0mm"
    backs: bool = False
    flip: str = "long"
    back_offset: str = "0mm,0mm"
    alignment: bool = False  # a duplex test sheet instead of the cards
    png: Path | None = None
    png_pages: int | None = None  # only the first N pages as PNG (a preview)


@dataclass
class ProofResult:
    cards: int
    per_sheet: int
    pngs: list[Path] = field(default_factory=list)


def make_proof(documents: list[Document], out: Path, options: ProofOptions) -> ProofResult:
    offset = pair(options.back_offset)
    cards = content.collect(documents)
    systems = {card.system for card in cards} or {doc.system for doc in documents}
    sizes = {sheet.card_size(system) for system in systems}
    if len(sizes) > 1:
        raise CardkitError("these cards have different sizes; proof one system at a time")
    size = sizes.pop() if sizes else sheet.card_size("default")
    layout = sheet.layout(options.paper, size, points(options.bleed))
    if options.alignment:
        data = pdf.alignment(layout, options.flip, offset)
    elif not cards:
        raise CardkitError("no printable cards in those files")
    else:
        data = pdf.render(
            cards, layout, backs=options.flip if options.backs else None, back_offset=offset
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    yamlio.atomic_write(out, data)
    result = ProofResult(len(cards), layout.per_page)
    if options.png is not None:
        options.png.mkdir(parents=True, exist_ok=True)
        for number, image in enumerate(pdf.to_png(data, pages=options.png_pages), start=1):
            target = options.png / f"{out.stem}-{number:03d}.png"
            image.save(target)
            result.pngs.append(target)
    return result
