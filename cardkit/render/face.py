"""The front of a proxy card: title, corner value, tags, stats, icon rows, placement
diagram, text with inline icons, the UNCONFIRMED band and the footer.

`regions` is pure geometry (tested for overlaps and containment); `paint` draws.
Text shrinks to fit down to a readable floor; past it the card says how many lines
are not shown and a warning names the card. Characters the font cannot draw are
a warning naming the card, too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from cardkit.render import diagram, fonts
from cardkit.render.content import ProofCard
from cardkit.render.icons import Forms, lookup
from cardkit.render.sheet import Box
from cardkit.render.text_fit import (
    ICON,
    ICON_WIDTH,
    LEADING,
    STYLE,
    end_state,
    fit,
    plain,
    spans,
    stringWidth,
)

MM = 72 / 25.4
INK, GREY, WARN, FACE = (0.1, 0.1, 0.1), (0.55, 0.55, 0.55), (0.80, 0.10, 0.10), (0.97, 0.95, 0.90)
TITLE_FLOOR, TEXT_FLOOR = 6.0, 5.0  # the smallest sizes still readable on a card
Warn = Callable[[str], None]


@dataclass(frozen=True)
class Regions:
    inner: Box
    title: Box
    tags: Box | None
    stats: Box | None
    icons: Box | None
    diagram: Box | None
    text: Box
    banner: Box | None
    footer: Box

    def boxes(self) -> list[Box]:
        found = [self.title, self.tags, self.stats, self.icons, self.diagram, self.text]
        return [b for b in [*found, self.banner, self.footer] if b is not None]


def regions(card: ProofCard, trim: Box) -> Regions:
    """Where each part of the card goes, top to bottom; the text takes what is left."""
    pad = 3 * MM if min(trim.w, trim.h) > 40 * MM else 2 * MM
    inner = Box(trim.x + pad, trim.y + pad, trim.w - 2 * pad, trim.h - 2 * pad)
    scale = min(1.6, max(1.0, min(trim.w, trim.h) / (63.5 * MM)))
    footer = Box(inner.x, inner.y, inner.w, 2.4 * MM)
    banner = (
        Box(inner.x, footer.y + footer.h + 0.6 * MM, inner.w, 3 * MM) if card.unconfirmed else None
    )
    floor = (banner.y + banner.h if banner else footer.y + footer.h) + 1 * MM
    gap = 1.2 * MM
    wanted = {  # the parts above the text: height, and the gap below each
        "title": (9 * MM * scale, gap),
        "tags": (3.6 * MM * scale, gap) if card.tags else None,
        "stats": (5 * MM * scale, gap) if card.stats else None,
        "icons": (7 * MM * scale * len(card.icon_rows), gap) if card.icon_rows else None,
        "diagram": (16 * MM * scale, 2 * MM) if (card.placement or card.no_tokens) else None,
    }
    room = inner.y + inner.h - floor
    needed = sum(h + g for part in wanted.values() if part for h, g in [part])
    shrink = min(1.0, room / needed) if needed > 0 else 1.0  # a small card: all parts shrink
    cursor = inner.y + inner.h
    boxes: dict[str, Box | None] = {}
    for name, part in wanted.items():
        if part is None:
            boxes[name] = None
            continue
        height, below = part[0] * shrink, part[1] * shrink
        boxes[name] = Box(inner.x, cursor - height, inner.w, height)
        cursor -= height + below
    title, tags, stats = boxes["title"], boxes["tags"], boxes["stats"]
    icons, placed = boxes["icons"], boxes["diagram"]
    assert title is not None
    text = Box(inner.x, floor, inner.w, max(0.0, cursor - floor))
    return Regions(inner, title, tags, stats, icons, placed, text, banner, footer)


def draw_line(
    c: Canvas,
    forms: Forms,
    system: str,
    x: float,
    y: float,
    line: str,
    font: str,
    size: float,
    state: tuple[bool, bool] = (False, False),
) -> tuple[bool, bool]:
    """One line of text; `{icon}` words become icons sitting on the baseline, bold and
    italic spans print in their faces. Returns the style the line ends in."""
    if STYLE.search(line) or state != (False, False):
        for chunk, face in spans(line, font, state):
            c.setFont(face, size)
            _draw_plain(c, forms, system, x, y, chunk, face, size)
            x += stringWidth(chunk, face, size)
        c.setFont(font, size)
        return end_state(line, state)
    _draw_plain(c, forms, system, x, y, line, font, size)
    return state


def _draw_plain(
    c: Canvas, forms: Forms, system: str, x: float, y: float, line: str, font: str, size: float
) -> None:
    if "{" not in line:
        c.drawString(x, y, line)
        return
    position = 0
    for match in ICON.finditer(line):
        chunk = line[position : match.start()]
        if chunk:
            c.drawString(x, y, chunk)
            x += stringWidth(chunk, font, size)
        icon_size = size * 1.0
        forms.place(lookup(system, match[1]), x + size * 0.05, y - size * 0.12, icon_size)
        c.setFont(font, size)
        x += size * ICON_WIDTH
        position = match.end()
    if position < len(line):
        c.drawString(x, y, line[position:])


def _board(c: Canvas, card: ProofCard, trim: Box, forms: Forms, warn: Warn) -> None:
    """A board: its title, its parts (locations) side by side, each painted as a card of
    its own, and its text (an objective) in a band below them."""
    pad, gap = 3 * MM, 2 * MM
    inner = Box(trim.x + pad, trim.y + pad, trim.w - 2 * pad, trim.h - 2 * pad)
    title = Box(inner.x, inner.y + inner.h - 8 * MM, inner.w, 8 * MM)
    _title(c, card, title, warn)
    below = Box(inner.x, inner.y, inner.w, 14 * MM if card.text else 3 * MM)
    own = card.unconfirmed - {f for panel in card.panels for f in panel.unconfirmed}
    if own:  # the board's own open fields; each part marks its own
        band = Box(inner.x, below.y + below.h, inner.w, 3 * MM)
        _banner(c, own, band)
        below = Box(below.x, below.y, below.w, below.h + 3.6 * MM)
    if card.text:
        _text(c, forms, card, Box(inner.x, inner.y + 2.4 * MM, inner.w, 11 * MM), warn, 1.0)
    c.setFillColorRGB(*GREY)
    c.setFont(fonts.REGULAR, 5)
    c.drawString(inner.x, inner.y + 0.5, card.deck)
    top = title.y - 1 * MM
    bottom = below.y + below.h + 1 * MM
    count = len(card.panels)
    width = (inner.w - (count - 1) * gap) / count
    for index, panel in enumerate(card.panels):
        box = Box(inner.x + index * (width + gap), bottom, width, top - bottom)
        paint(c, panel, box, box, forms, warn)


def _banner(c: Canvas, fields: frozenset[str], b: Box) -> None:
    c.setFillColorRGB(*WARN)
    c.rect(b.x, b.y, b.w, b.h, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.setFont(fonts.BOLD, 6)
    words = "UNCONFIRMED: " + ", ".join(sorted(fields))
    while len(words) > 8 and stringWidth(words, fonts.BOLD, 6) > b.w - 2:
        words = words[:-2] + "…"
    c.drawCentredString(b.x + b.w / 2, b.y + 2.3, words)


def paint(c: Canvas, card: ProofCard, trim: Box, outer: Box, forms: Forms, warn: Warn) -> None:
    if card.panels:
        if outer != trim:
            c.setFillColorRGB(*FACE)
            c.rect(outer.x, outer.y, outer.w, outer.h, stroke=0, fill=1)
        c.setFillColorRGB(*FACE)
        c.setStrokeColorRGB(*GREY)
        c.setLineWidth(0.4)
        c.roundRect(trim.x, trim.y, trim.w, trim.h, 3 * MM, stroke=1, fill=1)
        _board(c, card, trim, forms, warn)
        return
    if outer != trim:
        c.setFillColorRGB(*FACE)
        c.rect(outer.x, outer.y, outer.w, outer.h, stroke=0, fill=1)
    c.setFillColorRGB(*FACE)
    c.setStrokeColorRGB(*GREY)
    c.setLineWidth(0.4)
    c.roundRect(trim.x, trim.y, trim.w, trim.h, 3 * MM, stroke=1, fill=1)
    r = regions(card, trim)
    missing = fonts.missing_glyphs(plain(" ".join((card.title, card.text, *card.tags, card.deck))))
    if missing:
        codes = ", ".join(f"U+{ord(ch):04X}" for ch in missing[:5])
        warn(f"{card.source}: the font has no glyph for {codes}: those characters print as boxes")
    _title(c, card, r.title, warn)
    if r.tags is not None:
        _row_of_tags(c, forms, card, r.tags)
    if r.stats is not None:
        _stats(c, forms, card, r.stats)
    if r.icons is not None:
        _icon_rows(c, forms, card, r.icons)
    if r.diagram is not None:
        if card.no_tokens:
            c.setFillColorRGB(*INK)
            c.setFont(fonts.REGULAR, 7)
            c.drawString(r.diagram.x, r.diagram.y + r.diagram.h / 2, "No tokens placed.")
        else:
            doubtful = "place" in card.unconfirmed
            diagram.draw(
                c, forms, card.system, card.placement or {}, card.anchor, doubtful, r.diagram
            )
    if card.text:
        _text(c, forms, card, r.text, warn, min(1.5, max(1.0, trim.h / (88.9 * MM))))
    if r.banner is not None:
        _banner(c, card.unconfirmed, r.banner)
    c.setFillColorRGB(*GREY)
    c.setFont(fonts.REGULAR, 5)
    footer = card.deck
    while len(footer) > 8 and stringWidth(footer, fonts.REGULAR, 5) > r.footer.w:
        footer = footer[:-2] + "…"
    c.drawString(r.footer.x, r.footer.y + 0.5, footer)


def _title(c: Canvas, card: ProofCard, box: Box, warn: Warn) -> None:
    corner_w = stringWidth(card.corner, fonts.BOLD, 9) + 2 * MM if card.corner else 0
    fitted = fit(card.title, fonts.BOLD, box.w - corner_w, box.h, largest=11, smallest=TITLE_FLOOR)
    lines = fitted.lines[: fitted.shown]
    if fitted.cut:
        lines[-1] = lines[-1][: max(1, len(lines[-1]) - 1)] + "…"
        warn(f"{card.source}: the title is too long for the card; shown up to '…'")
    c.setFillColorRGB(*INK)
    c.setFont(fonts.BOLD, fitted.size)
    for i, line in enumerate(lines):
        c.drawString(box.x, box.y + box.h - (i + 1) * fitted.size * LEADING + 1, line)
    if card.corner:
        c.setFont(fonts.BOLD, 9)
        c.drawRightString(box.x + box.w, box.y + box.h - 9, card.corner)


def _row_of_tags(c: Canvas, forms: Forms, card: ProofCard, box: Box) -> None:
    c.setFillColorRGB(*INK)
    c.setFont(fonts.ITALIC, 7)
    x = box.x
    for tag in card.tags:
        if tag == "BAM!":  # the icon, then its name (the icon alone is small at this size)
            forms.place(lookup(card.system, "bam"), x, box.y, box.h)
            x += box.h + 1
        c.drawString(x, box.y + 1.5, tag)
        x += stringWidth(tag, fonts.ITALIC, 7) + 2 * MM


def _stats(c: Canvas, forms: Forms, card: ProofCard, box: Box) -> None:
    width = box.w / max(1, len(card.stats))
    for index, (label, value) in enumerate(card.stats):
        x = box.x + index * width
        c.setFillColorRGB(0.22, 0.24, 0.32)
        c.roundRect(x + 0.5, box.y, width - 1, box.h, 1 * MM, stroke=0, fill=1)
        c.setFillColorRGB(1, 1, 1)
        size = min(9, box.h * 0.6)
        c.setFont(fonts.BOLD, size)
        left = x + (width - stringWidth(value, fonts.BOLD, size)) / 2  # `{per_hero}`: an icon
        draw_line(c, forms, card.system, left, box.y + box.h * 0.42, value, fonts.BOLD, size)
        c.setFont(fonts.REGULAR, 4.5)
        c.drawCentredString(x + width / 2, box.y + 1.2, label)


def _icon_rows(c: Canvas, forms: Forms, card: ProofCard, box: Box) -> None:
    row_h = box.h / len(card.icon_rows)
    for index, row in enumerate(card.icon_rows):
        y = box.y + box.h - (index + 1) * row_h
        size = min(row_h * 0.8, (box.w / max(1, len(row))) * 0.8)
        x = box.x
        for item in row:
            name, _, value = item.partition(":")
            forms.place(lookup(card.system, name), x, y + row_h * 0.1, size)
            if value:
                c.setFillColorRGB(*INK)
                c.setFont(fonts.BOLD, 6)
                c.drawString(x + size * 0.95, y + row_h * 0.1, value)
            x += size * 1.25


def _text(c: Canvas, forms: Forms, card: ProofCard, box: Box, warn: Warn, scale: float) -> None:
    fitted = fit(card.text, fonts.REGULAR, box.w, box.h, largest=9.5 * scale, smallest=TEXT_FLOOR)
    lines = fitted.lines[: fitted.shown]
    if fitted.cut:
        lines = lines[:-1] if lines else lines
        warn(
            f"{card.source}: the text does not fit at {TEXT_FLOOR} pt; "
            f"{fitted.cut + (1 if fitted.shown else 0)} lines are not shown on the proxy"
        )
    c.setFillColorRGB(*INK)
    c.setFont(fonts.REGULAR, fitted.size)
    y = box.y + box.h
    state = (False, False)
    for line in lines:
        y -= fitted.size * LEADING
        state = draw_line(
            c,
            forms,
            card.system,
            box.x,
            y + fitted.size * 0.2,
            line,
            fonts.REGULAR,
            fitted.size,
            state,
        )
    if fitted.cut:
        y -= fitted.size * LEADING
        c.setFillColorRGB(*WARN)
        c.setFont(fonts.BOLD, fitted.size)
        hidden = fitted.cut + (1 if fitted.shown else 0)
        c.drawString(box.x, y + fitted.size * 0.2, f"[{hidden} more lines: see the source file]")
