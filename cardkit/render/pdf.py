"""Paint proof sheets with reportlab: fronts, optional duplex backs, crop marks, a ruler.

Output is byte-for-byte reproducible (reportlab's invariant mode) so proofs can be
compared and cached.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from cardkit.render import face, fonts, sheet
from cardkit.render.content import ProofCard
from cardkit.render.icons import Forms, Icon
from cardkit.render.sheet import Box, Layout
from cardkit.render.text_fit import fit

MM = 72 / 25.4
LEGEND_FLOOR = 0.6  # the legend's type shrinks to this fraction before icons are left out
INK, GREY, WARN, FACE = (0.1, 0.1, 0.1), (0.55, 0.55, 0.55), (0.80, 0.10, 0.10), (0.97, 0.95, 0.90)


def _crop_marks(c: Canvas, layout: Layout, used: int | None = None) -> None:
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(layout.crop_width)
    marks = layout.crop_marks if used is None else layout.marks_for(used)
    for x1, y1, x2, y2 in marks:
        c.line(x1, y1, x2, y2)


def _ruler(c: Canvas, layout: Layout, label: str) -> None:
    x1, y1, x2, y2 = layout.ruler
    c.saveState()
    if layout.vertical_ruler:  # up the left-hand band, ticks to the right, read bottom to top
        c.translate(x1, y1)
        c.rotate(90)
        c.scale(1, -1)
        x1, y1, x2 = 0.0, 0.0, y2 - y1
    c.setLineWidth(0.5)
    c.line(x1, y1, x2, y1)
    for index in range(11):
        x = x1 + index * (x2 - x1) / 10
        c.line(x, y1, x, y1 + (2.5 if index % 5 == 0 else 1.5) * MM)
    if layout.vertical_ruler:
        c.scale(1, -1)
        y1 = -2.5 * MM - 2
    c.setFont(fonts.REGULAR, 6)
    c.setFillColorRGB(*INK)
    c.drawString(x2 + 2 * MM, y1, label)
    c.restoreState()


def _legend(c: Canvas, layout: Layout, forms: Forms, also: dict[str, Icon] | None = None) -> None:
    """The icons used on this sheet (`also`: those on its back page), named, in the
    sheet's legend band; smaller type when they do not all fit, else a `+N` for the rest."""
    used, band = {**forms.on_page, **(also or {})}, layout.legend
    forms.on_page.clear()
    if not used or band is None:
        return
    c.saveState()
    if layout.legend_vertical:  # read bottom to top up the right-hand band
        c.translate(band.x + band.w, band.y)
        c.rotate(90)
        band = Box(0, 0, band.h, band.w)
    base = min(band.h - 0.5 * MM, 3.2 * MM)

    def width(label: str, shrink: float) -> float:
        return (base + 3 * MM + float(c.stringWidth(label, fonts.REGULAR, 5.5))) * shrink

    shrink = 1.0
    while shrink > LEGEND_FLOOR and sum(width(label, shrink) for label in used) > band.w:
        shrink -= 0.05
    size, x, y = base * shrink, band.x, band.y + 0.3 * MM
    c.setFont(fonts.REGULAR, 5.5 * shrink)
    c.setFillColorRGB(*INK)
    for shown, (label, icon) in enumerate(used.items()):
        if x + width(label, shrink) > band.x + band.w:
            c.drawString(x, y + size / 2 - 2 * shrink, f"+{len(used) - shown}")
            break
        forms.place(icon, x, y, size)
        c.drawString(x + size + 1, y + size / 2 - 2 * shrink, label)
        x += width(label, shrink)
    forms.on_page.clear()
    c.restoreState()


def _icons_on(faces: Sequence[tuple[ProofCard, Box, Box]]) -> dict[str, Icon]:
    """The icons these faces would place (painted on a scratch canvas): a back page's
    icons, for the legend on its front page, which is painted first."""
    scratch = Forms(Canvas(io.BytesIO(), invariant=1, initialFontName=fonts.REGULAR))
    for card, trim, outer in faces:
        face.paint(scratch.canvas, card, trim, outer, scratch, lambda message: None)
    return scratch.on_page


def front(
    c: Canvas,
    card: ProofCard,
    trim: Box,
    bleed: float,
    forms: Forms,
    warn: Callable[[str], None] | None = None,
) -> None:
    """One card's face with `bleed` all round (for single-card pages: TTS, previews)."""
    face.paint(c, card, trim, trim.grown(bleed), forms, warn or (lambda message: None))


def back(c: Canvas, card: ProofCard, box: Box, outer: Box | float) -> None:
    """One card's back; `outer` is its painted area (or a bleed all round)."""
    if not isinstance(outer, Box):
        outer = box.grown(outer)
    c.setFillColorRGB(0.16, 0.18, 0.28)
    c.rect(outer.x, outer.y, outer.w, outer.h, stroke=0, fill=1)
    c.setStrokeColorRGB(0.45, 0.48, 0.6)
    c.setLineWidth(0.6)
    c.roundRect(
        box.x + 2 * MM, box.y + 2 * MM, box.w - 4 * MM, box.h - 4 * MM, 2 * MM, stroke=1, fill=0
    )
    c.setFillColorRGB(1, 1, 1)
    fitted = fit(card.back_title or card.deck, fonts.BOLD, box.w - 8 * MM, box.h * 0.6, 12, 6)
    c.setFont(fonts.BOLD, fitted.size)
    for i, line in enumerate(fitted.lines[: fitted.shown]):
        c.drawCentredString(box.x + box.w / 2, box.y + box.h / 2 - i * fitted.size * 1.2, line)


LayoutFor = Callable[[tuple[float, float]], Layout]


def _from_scan(
    c: Canvas, card: ProofCard, trim: Box, outer: Box, warn: Callable[[str], None]
) -> bool:
    """The card's own image (squared out of a photo), scaled to the trim, bleed grown
    from its edge pixels."""
    from reportlab.lib.utils import ImageReader

    from cardkit.render import scan_image as scan

    try:
        ref = scan.ScanRef(Path(card.scan), card.scan_region, card.scan_turn)
        image = scan.load(ref, trim.w / trim.h)
    except scan.ScanRefused as err:
        warn(f"{card.source}: {err}; printed as a drawn proxy")
        return False
    bleed = (
        trim.x - outer.x,
        trim.y - outer.y,
        outer.x + outer.w - trim.x - trim.w,
        outer.y + outer.h - trim.y - trim.h,
    )
    grown = scan.with_bleed(image, (trim.w, trim.h), bleed)
    c.drawImage(ImageReader(grown), outer.x, outer.y, outer.w, outer.h)
    return True


def sheets(
    cards: Sequence[ProofCard], layout_for: LayoutFor | Layout
) -> Iterator[tuple[Layout, list[ProofCard]]]:
    """Pages of cards: cards of one size share a layout, sizes in order of first use."""
    if isinstance(layout_for, Layout):
        fixed = layout_for
        groups: dict[tuple[float, float], list[ProofCard]] = {(0.0, 0.0): list(cards)}
        pick: LayoutFor = lambda size: fixed  # noqa: E731
    else:
        groups = {}
        for card in cards:
            groups.setdefault(sheet.card_size(card.system, card.kind), []).append(card)
        pick = layout_for
    for size, group in groups.items():
        layout = pick(size)
        for i in range(0, len(group), layout.per_page):
            yield layout, group[i : i + layout.per_page]


def two_sided(
    cards: Sequence[ProofCard], backs: str | None
) -> tuple[list[ProofCard], dict[str, ProofCard]]:
    """The cards printed as fronts, and (with backs) each two-sided card's other side by
    its front's `source`: a two-sided card prints its other side as its back."""
    sources = {card.source for card in cards}
    other_side = {c.back_of: c for c in cards if backs and c.back_of and c.back_of in sources}
    return [card for card in cards if card.back_of not in other_side], other_side


def render(
    cards: Sequence[ProofCard],
    layout: Layout | LayoutFor,
    *,
    backs: str | None = None,
    back_offset: tuple[float, float] = (0.0, 0.0),
    title: str = "cardkit proof",
    warn: Callable[[str], None] | None = None,
) -> bytes:
    """The PDF bytes: a front page per sheet, each followed by its back page when asked.

    `layout` is one layout for every card, or a function from a card size to its layout
    (each size gets its own sheets). Warnings (text cut, missing glyphs) go to `warn`.
    """
    say = warn or (lambda message: None)
    cards, other_side = two_sided(cards, backs)
    stream = io.BytesIO()
    fonts.register()
    pages = list(sheets(cards, layout)) or [
        (layout if isinstance(layout, Layout) else layout((180.0, 252.0)), [])
    ]
    first = pages[0][0]
    c = Canvas(
        stream,
        pagesize=(first.paper.w, first.paper.h),
        invariant=1,
        pageCompression=1,
        initialFontName=fonts.REGULAR,
    )
    forms = Forms(c)
    c.setTitle(title)
    c.setCreator("cardkit")
    for number, (grid, sheet_cards) in enumerate(pages, start=1):
        c.setPageSize((grid.paper.w, grid.paper.h))
        forms.on_page.clear()  # the legend names this sheet's icons, front and back
        for index, card in enumerate(sheet_cards):
            outer = grid.bleeds[index] if grid.bleeds else grid.trims[index].grown(grid.bleed)
            if not (card.scan and _from_scan(c, card, grid.trims[index], outer, say)):
                face.paint(c, card, grid.trims[index], outer, forms, say)
        back_faces = [
            (other_side[card.source], grid.trims[index], grid.trims[index])
            for index, card in enumerate(sheet_cards)
            if backs and card.source in other_side
        ]
        _legend(c, grid, forms, _icons_on(back_faces) if back_faces else None)
        _crop_marks(c, grid, len(sheet_cards))
        x1, y1, x2, y2 = grid.ruler
        ruler_mm = round(max(x2 - x1, y2 - y1) / 72 * 25.4)
        _ruler(c, grid, f"{ruler_mm} mm at 100% · sheet {number}/{len(pages)} · fronts")
        c.showPage()
        if backs:
            for index, card in enumerate(sheet_cards):
                outer = grid.bleeds[index] if grid.bleeds else grid.trims[index].grown(grid.bleed)
                trim = grid.mirror(grid.trims[index], backs, back_offset)
                outer = grid.mirror(outer, backs, back_offset)
                if card.source in other_side:
                    face.paint(c, other_side[card.source], trim, outer, forms, say)
                else:
                    back(c, card, trim, outer)
            _crop_marks(c, grid)  # backs are mirrored: every line, as the printer may shift
            _ruler(c, grid, f"sheet {number}/{len(pages)} · backs ({backs}-edge flip)")
            forms.on_page.clear()  # named in the front page's legend
            c.showPage()
    c.save()
    return stream.getvalue()


def alignment(layout: Layout, flip: str, back_offset: tuple[float, float]) -> bytes:
    """A duplex test sheet: crosshairs at each card's centre, front and back.

    Print it double-sided and hold it to the light; where the crosshairs disagree,
    measure the difference and pass it as --back-offset.
    """
    stream = io.BytesIO()
    fonts.register()
    c = Canvas(
        stream,
        pagesize=(layout.paper.w, layout.paper.h),
        invariant=1,
        initialFontName=fonts.REGULAR,
    )
    for side, boxes in (("front", layout.trims), ("back", layout.backs(flip, back_offset))):
        c.setLineWidth(0.4)
        for box in boxes:
            cx, cy = box.x + box.w / 2, box.y + box.h / 2
            c.rect(box.x, box.y, box.w, box.h, stroke=1, fill=0)
            c.line(cx - 10 * MM, cy, cx + 10 * MM, cy)
            c.line(cx, cy - 10 * MM, cx, cy + 10 * MM)
            c.circle(cx, cy, 4 * MM, stroke=1, fill=0)
        _crop_marks(c, layout)
        _ruler(c, layout, f"alignment test · {side} · {flip}-edge flip")
        c.showPage()
    c.save()
    return stream.getvalue()


def to_png(pdf: bytes, dpi: int = 100, pages: int | None = None) -> list[Any]:
    """Rasterise the pages (all, or the first `pages`) with pdfium, for previews and tests."""
    return list(iter_png(pdf, dpi, pages))


def iter_png(pdf: bytes, dpi: int = 100, pages: int | None = None) -> Iterator[Any]:
    """One page image at a time, so a long proof never holds every page in memory."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        count = len(document) if pages is None else min(pages, len(document))
        for i in range(count):
            page = document[i]
            try:
                yield page.render(scale=dpi / 72).to_pil()
            finally:
                page.close()
    finally:
        document.close()
