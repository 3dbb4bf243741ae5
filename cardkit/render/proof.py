"""`cardkit proof` as a library call: documents in, a PDF (and PNG previews) out."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from cardkit.errors import CardkitError, UsageError
from cardkit.files import yamlio
from cardkit.model import Document
from cardkit.render import content, forms, pdf, sheet
from cardkit.render.units import pair, points

PNG_DPI = (36, 600)  # the range --png-dpi accepts


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
    gutter: str | None = None  # None: each card keeps its bleed unless sharing cuts fits more
    png_dpi: int = 100
    selection: content.Selection = field(default_factory=content.Selection)
    from_scans: bool = False  # cards naming their scan print from it
    margin: str | None = None  # nothing is drawn this close to the edge (formats.yaml default)


@dataclass
class ProofResult:
    cards: int
    per_sheet: int
    pngs: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    forms: list[Path] = field(default_factory=list)
    shortfalls: list[str] = field(default_factory=list)  # sheets holding fewer than they could


def layouts(options: ProofOptions) -> pdf.LayoutFor:
    bleed = points(options.bleed)
    gutter = None if options.gutter is None else points(options.gutter)
    if bleed < 0:
        raise UsageError(f"--bleed cannot be negative ('{options.bleed}')")
    if bleed > points("10mm"):
        raise UsageError(f"--bleed {options.bleed} is more than 10mm; a bleed is 2-5mm")

    margin = None if options.margin is None else points(options.margin)
    if margin is not None and not 0 <= margin <= points("1in"):
        raise UsageError(f"--margin takes 0 to 1in, not '{options.margin}'")

    @cache
    def layout_for(size: tuple[float, float]) -> sheet.Layout:
        return sheet.layout(options.paper, size, bleed, gutter, margin)

    return layout_for


def _check_dpi(dpi: int) -> None:
    if not PNG_DPI[0] <= dpi <= PNG_DPI[1]:
        raise UsageError(f"--png-dpi takes {PNG_DPI[0]} to {PNG_DPI[1]}, not {dpi}")


def write_pngs(data: bytes, folder: Path, stem: str, dpi: int, pages: int | None) -> list[Path]:
    """Each page as `<stem>-NNN.png`, one page in memory at a time, each written atomically."""
    _check_dpi(dpi)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for number, image in enumerate(pdf.iter_png(data, dpi, pages), start=1):
        target = folder / f"{stem}-{number:03d}.png"
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", dpi=(dpi, dpi))
        image.close()
        yamlio.atomic_write(target, buffer.getvalue())
        written.append(target)
    return written


def _about_selected(
    warnings: list[str], documents: list[Document], cards: list[content.ProofCard]
) -> list[str]:
    """The warnings that concern the cards printed: one about a document none of whose cards
    was selected (`--id klaw` in a tree with decklists) is not the user's business now."""
    paths = sorted({doc.display_path for doc in documents}, key=len, reverse=True)
    printed = {path for path in paths for card in cards if card.source.startswith(path)}

    def about(warning: str) -> str | None:
        return next((path for path in paths if warning.startswith(path)), None)

    return [w for w in warnings if (path := about(w)) is None or path in printed]


def make_proof(documents: list[Document], out: Path, options: ProofOptions) -> ProofResult:
    offset = pair(options.back_offset)
    _check_dpi(options.png_dpi)
    layout_for = layouts(options)
    warnings: list[str] = []
    collected = content.collect(documents, warnings.append, options.from_scans)
    cards = content.chosen(collected, documents, options.selection)
    warnings = _about_selected(warnings, documents, cards)
    specs = [
        (doc.id or "form", spec)
        for doc in documents
        if options.selection.keeps_document(doc.id or "", str(doc.data.get("box", "")))
        for make in [content.hook(doc.system, "form")]
        if make is not None
        for spec in [make(doc)]
        if spec is not None and not options.alignment  # a test sheet, not the forms
    ]
    sizes = [sheet.card_size(card.system, card.kind) for card in cards] or [
        sheet.card_size(system) for system in sorted({doc.system for doc in documents})
    ]
    sizes = sizes or [sheet.card_size("")]
    layout = layout_for(max(set(sizes), key=sizes.count))  # the size most cards have
    if options.alignment:
        data = pdf.alignment(layout, options.flip, offset)
    elif not cards and not specs:
        raise CardkitError("no printable cards in those files (or none selected)")
    elif not cards:
        data = b""
    else:
        data = pdf.render(
            cards,
            layout_for,
            backs=options.flip if options.backs else None,
            back_offset=offset,
            warn=warnings.append,
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    if data:
        yamlio.atomic_write(out, data)
    printed, _ = pdf.two_sided(cards, options.flip if options.backs else None)  # a back: no card
    result = ProofResult(len(printed), layout.per_page, warnings=list(dict.fromkeys(warnings)))
    if not options.alignment:  # a sheet holding fewer cards than its paper: why, what to do
        used = dict.fromkeys(sheet.card_size(card.system, card.kind) for card in cards)
        result.shortfalls = [layout_for(s).shortfall for s in used if layout_for(s).shortfall]
    for name, spec in specs:  # fillable forms beside the proofs: proofs-campaign-log.pdf
        target = out.with_name(f"{out.stem}-{name}.pdf")
        yamlio.atomic_write(target, forms.render(spec, options.paper))
        result.forms.append(target)
    if options.png is not None and data:
        result.pngs = write_pngs(data, options.png, out.stem, options.png_dpi, options.png_pages)
    return result
