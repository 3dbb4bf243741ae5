"""Fillable PDF forms (AcroForm): a campaign log as a page of labelled fields.

A system says what a form holds (`FormSpec`: a title and its fields, each a text box
of some lines or a checkbox); this module lays the fields out down A4/Letter pages and
writes them as AcroForm fields a PDF reader can fill and save. Labels are drawn in the
embedded Vera font; the fields' own text uses the viewer's Helvetica (reportlab's form
fields take only the standard PDF fonts, which a viewer always has).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from cardkit.render import fonts
from cardkit.render.sheet import paper_size
from cardkit.render.text_fit import fit

MM = 72 / 25.4


@dataclass(frozen=True)
class FormField:
    label: str
    help: str = ""  # what goes in it, printed small under the label
    lines: int = 1  # a text box this many lines tall; 0 = a checkbox


@dataclass(frozen=True)
class FormSpec:
    title: str
    fields: tuple[FormField, ...]
    subtitle: str = ""


def field_name(label: str, taken: set[str]) -> str:
    """A stable AcroForm name from a label: `Player Information` -> `player_information`."""
    base = re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_") or "field"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


def render(spec: FormSpec, paper: str = "a4") -> bytes:
    fonts.register()
    width, height = paper_size(paper)
    stream = io.BytesIO()
    c = Canvas(stream, pagesize=(width, height), invariant=1, initialFontName=fonts.REGULAR)
    c.setTitle(spec.title)
    c.setCreator("cardkit")
    margin = 15 * MM
    taken: set[str] = set()

    def heading() -> float:
        c.setFont(fonts.BOLD, 16)
        c.drawString(margin, height - margin - 16, spec.title)
        c.setFont(fonts.REGULAR, 8)
        c.drawString(margin, height - margin - 28, spec.subtitle)
        return height - margin - 40

    y = heading()
    for item in spec.fields:
        hint = fit(item.help, fonts.ITALIC, width - 2 * margin, 60, 7, 6) if item.help else None
        need = 12 + (len(hint.lines) * hint.size * 1.2 if hint else 0) + max(1, item.lines) * 14 + 8
        if y - need < margin:
            c.showPage()
            y = heading()
        c.setFillColorRGB(0.1, 0.1, 0.1)
        c.setFont(fonts.BOLD, 10)
        name = field_name(item.label, taken)
        c.setStrokeColorRGB(0.3, 0.3, 0.3)
        c.setLineWidth(0.6)
        if item.lines == 0:  # the box is drawn on the page too, so a printout can be filled by hand
            c.rect(margin, y - 12, 11, 11, stroke=1, fill=0)
            c.acroForm.checkbox(
                name=name, tooltip=item.label, x=margin, y=y - 12, size=11, buttonStyle="check"
            )
            c.drawString(margin + 16, y - 10, item.label)
            y -= 22
            continue
        c.drawString(margin, y - 10, item.label)
        y -= 14
        if hint:
            c.setFont(fonts.ITALIC, hint.size)
            c.setFillColorRGB(0.35, 0.35, 0.35)
            for line in hint.lines:
                y -= hint.size * 1.2
                c.drawString(margin, y, line)
            y -= 2
        box_h = item.lines * 14 + 4
        c.rect(margin, y - box_h, width - 2 * margin, box_h, stroke=1, fill=0)
        c.acroForm.textfield(
            name=name,
            tooltip=item.label,
            x=margin,
            y=y - box_h,
            width=width - 2 * margin,
            height=box_h,
            fontName="Helvetica",
            fontSize=10,
            borderWidth=0.6,
            fieldFlags="multiline" if item.lines > 1 else "",
        )
        y -= box_h + 8
    c.showPage()
    c.save()
    return stream.getvalue()
