"""Paint proof sheets with reportlab: fronts, optional duplex backs, crop marks, a ruler.

Output is byte-for-byte reproducible (reportlab's invariant mode) so proofs can be
compared and cached.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from cardkit.render import diagram, fonts
from cardkit.render.content import ProofCard
from cardkit.render.icons import Forms
from cardkit.render.sheet import Box, Layout
from cardkit.render.text import fit

MM = 72 / 25.4
INK, GREY, WARN, FACE = (0.1, 0.1, 0.1), (0.55, 0.55, 0.55), (0.80, 0.10, 0.10), (0.97, 0.95, 0.90)


def _crop_marks(c: Canvas, layout: Layout) -> None:
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(layout.crop_width)
    for x1, y1, x2, y2 in layout.crop_marks:
        c.line(x1, y1, x2, y2)


def _ruler(c: Canvas, layout: Layout, label: str) -> None:
    x1, y, x2, _ = layout.ruler
    c.setLineWidth(0.5)
    c.line(x1, y, x2, y)
    for index in range(11):
        x = x1 + index * (x2 - x1) / 10
        c.line(x, y, x, y + (2.5 if index % 5 == 0 else 1.5) * MM)
    c.setFont(fonts.REGULAR, 6)
    c.setFillColorRGB(*INK)
    c.drawString(x2 + 2 * MM, y, label)


def _legend(c: Canvas, layout: Layout, forms: Forms) -> None:
    """The icons used on this sheet, named, in the band above the grid."""
    if not forms.on_page:
        return
    top = max(t.y + t.h for t in layout.trims) + layout.bleed + layout.band_gap
    room = layout.paper.h - layout.margin - top
    size = min(room - 0.5 * MM, 3.2 * MM)
    if size < 2 * MM:
        forms.on_page.clear()
        return
    x = min(t.x for t in layout.trims) - layout.bleed
    c.setFont(fonts.REGULAR, 5.5)
    c.setFillColorRGB(*INK)
    for label, icon in forms.on_page.items():
        forms.place(icon, x, top + 0.3 * MM, size)
        c.drawString(x + size + 1, top + 0.3 * MM + size / 2 - 2, label)
        x += size + 3 * MM + c.stringWidth(label, fonts.REGULAR, 5.5)
    forms.on_page.clear()


def placement_box(card: ProofCard, trim: Box) -> Box | None:
    """Where the card's placement diagram goes (None when it has none)."""
    if not (card.placement or card.no_tokens):
        return None
    pad, height = 3 * MM, 16 * MM
    top = trim.y + trim.h - pad - 24 - (10 if card.tags else 0)
    return Box(trim.x + pad, top - height, trim.w - 2 * pad, height)


def front(c: Canvas, card: ProofCard, trim: Box, bleed: float, forms: Forms) -> None:
    if bleed:
        c.setFillColorRGB(*FACE)
        outer = trim.grown(bleed)
        c.rect(outer.x, outer.y, outer.w, outer.h, stroke=0, fill=1)
    c.setFillColorRGB(*FACE)
    c.setStrokeColorRGB(*GREY)
    c.setLineWidth(0.4)
    c.roundRect(trim.x, trim.y, trim.w, trim.h, 3 * MM, stroke=1, fill=1)
    pad = 3 * MM
    inner = Box(trim.x + pad, trim.y + pad, trim.w - 2 * pad, trim.h - 2 * pad)
    top = inner.y + inner.h
    c.setFillColorRGB(*INK)
    size, lines = fit(card.title, fonts.BOLD, inner.w * 0.68, 20, largest=10, smallest=6)
    c.setFont(fonts.BOLD, size)
    for i, line in enumerate(lines[:2]):
        c.drawString(inner.x, top - size - i * size * 1.1, line)
    if card.corner:
        c.setFont(fonts.BOLD, 9)
        c.drawRightString(inner.x + inner.w, top - 9, card.corner)
    cursor = top - 24
    if card.tags:
        c.setFont(fonts.ITALIC, 7)
        c.drawString(inner.x, cursor, "  ·  ".join(card.tags))
    box = placement_box(card, trim)
    if box is not None:
        cursor = box.y - 4
        if card.no_tokens:
            c.setFont(fonts.REGULAR, 7)
            c.drawString(inner.x, box.y + box.h / 2, "No tokens placed.")
        else:
            doubtful = "place" in card.unconfirmed
            diagram.draw(c, forms, card.system, card.placement or {}, card.anchor, doubtful, box)
    elif card.tags:
        cursor -= 10
    footer = 9 + (9 if card.unconfirmed else 0)
    text_box = Box(inner.x, inner.y + footer, inner.w, cursor - inner.y - footer)
    if card.text and text_box.h > 8:
        c.setFillColorRGB(*INK)
        size, lines = fit(card.text, fonts.REGULAR, text_box.w, text_box.h, largest=8, smallest=4.5)
        c.setFont(fonts.REGULAR, size)
        for i, line in enumerate(lines):
            y = text_box.y + text_box.h - (i + 1) * size * 1.18
            if y < text_box.y - 0.5:
                break  # the smallest size still overflows: cut rather than spill off the card
            c.drawString(text_box.x, y, line)
    if card.unconfirmed:
        c.setFillColorRGB(*WARN)
        c.rect(inner.x, inner.y + 9, inner.w, 8, stroke=0, fill=1)
        c.setFillColorRGB(1, 1, 1)
        c.setFont(fonts.BOLD, 6)
        c.drawCentredString(
            inner.x + inner.w / 2,
            inner.y + 11.2,
            "UNCONFIRMED: " + ", ".join(sorted(card.unconfirmed)),
        )
    c.setFillColorRGB(*GREY)
    c.setFont(fonts.REGULAR, 5)
    c.drawString(inner.x, inner.y, card.deck)


def back(c: Canvas, card: ProofCard, box: Box, bleed: float) -> None:
    outer = box.grown(bleed)
    c.setFillColorRGB(0.16, 0.18, 0.28)
    c.rect(outer.x, outer.y, outer.w, outer.h, stroke=0, fill=1)
    c.setStrokeColorRGB(0.45, 0.48, 0.6)
    c.setLineWidth(0.6)
    c.roundRect(
        box.x + 2 * MM, box.y + 2 * MM, box.w - 4 * MM, box.h - 4 * MM, 2 * MM, stroke=1, fill=0
    )
    c.setFillColorRGB(1, 1, 1)
    size, lines = fit(card.deck, fonts.BOLD, box.w - 8 * MM, 40, largest=12, smallest=7)
    c.setFont(fonts.BOLD, size)
    for i, line in enumerate(lines):
        c.drawCentredString(box.x + box.w / 2, box.y + box.h / 2 - i * size * 1.2, line)


def render(
    cards: Sequence[ProofCard],
    layout: Layout,
    *,
    backs: str | None = None,
    back_offset: tuple[float, float] = (0.0, 0.0),
    title: str = "cardkit proof",
) -> bytes:
    """The PDF bytes: a front page per sheet, each followed by its back page when asked."""
    stream = io.BytesIO()
    fonts.register()
    c = Canvas(
        stream,
        pagesize=(layout.paper.w, layout.paper.h),
        invariant=1,
        pageCompression=1,
        initialFontName=fonts.REGULAR,
    )
    forms = Forms(c)
    c.setTitle(title)
    c.setCreator("cardkit")
    pages = [
        list(cards[i : i + layout.per_page]) for i in range(0, len(cards), layout.per_page)
    ] or [[]]
    for number, sheet in enumerate(pages, start=1):
        for card, trim in zip(sheet, layout.trims, strict=False):
            front(c, card, trim, layout.bleed, forms)
        _legend(c, layout, forms)
        _crop_marks(c, layout)
        _ruler(c, layout, f"100 mm: print at 100% scale · sheet {number}/{len(pages)} · fronts")
        c.showPage()
        if backs:
            for card, box in zip(sheet, layout.backs(backs, back_offset), strict=False):
                back(c, card, box, layout.bleed)
            _crop_marks(c, layout)
            _ruler(c, layout, f"sheet {number}/{len(pages)} · backs ({backs}-edge flip)")
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
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        count = len(document) if pages is None else min(pages, len(document))
        return [document[i].render(scale=dpi / 72).to_pil() for i in range(count)]
    finally:
        document.close()
