"""Card images for print-on-demand services and proxy tools: one PNG per card face.

Each face is painted by the proof painter (`render.pdf.front` / `back`, the same calls
that fill a proof sheet) on a page of the card's trim size plus its bleed, and that page
is rasterised by pdfium at the asked resolution. A poker card (63.5 x 88.9 mm) with
1/8 in bleed at 300 dpi is 825 x 1125 px; with 0.12 in (MakePlayingCards' template)
822 x 1122 px. Pages go through in chunks, one picture in memory at a time, so memory
stays flat however many cards there are. Identical faces (copies) are one file with a
`copies` count in the manifest.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cardkit.errors import UsageError
from cardkit.files import yamlio
from cardkit.model import spreadsheet_safe
from cardkit.render import face as painter
from cardkit.render import fonts, pdf, sheet
from cardkit.render.content import ProofCard
from cardkit.render.icons import Forms
from cardkit.rulebook.words import slug

DPI_RANGE = (72, 1200)
CHUNK = 64  # faces per intermediate PDF: small enough to keep memory flat
MANIFEST = "manifest.csv"
COLUMNS = ("file", "card", "face", "copies", "document", "kind", "source")


@dataclass(frozen=True)
class Face:
    """One picture to write: a card's front, its other side, or a deck's shared back."""

    file: str  # relative to the output folder
    card: ProofCard
    face: str  # front | back
    copies: int
    shared_back: bool = False  # the deck's back (pdf.back), not a printed side
    label: str = ""  # the card's name in the manifest: its front's title, on both faces


@dataclass
class ImageExport:
    folder: Path
    faces: list[Face] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def manifest(self) -> Path:
        return self.folder / MANIFEST


def pixels(card: tuple[float, float], bleed: float, dpi: int) -> tuple[int, int]:
    """The picture's size for a card of `card` points with `bleed` points all round."""
    return round((card[0] + 2 * bleed) / 72 * dpi), round((card[1] + 2 * bleed) / 72 * dpi)


def plan(cards: Sequence[ProofCard], backs: bool) -> list[Face]:
    """The files to write, in card order: copies of one face share a file; with `backs`,
    a two-sided card's other side is its back and every other card gets its deck's back."""
    fronts, other_side = pdf.two_sided(cards, "long" if backs else None)
    groups: dict[str, tuple[ProofCard, int]] = {}
    for card in fronts:
        key = repr(card)
        first, count = groups.get(key, (card, 0))
        groups[key] = (first, count + 1)
    taken: set[str] = set()

    def name(card: ProofCard, face: str) -> str:
        stem = slug(f"{card.doc_id} {card.title}") if card.doc_id else slug(card.title)
        candidate, n = stem, 1
        while f"{candidate}-{face}" in taken:
            n += 1
            candidate = f"{stem}-{n}"
        taken.add(f"{candidate}-{face}")
        return f"{candidate}-{face}.png"

    faces: list[Face] = []
    deck_backs: dict[tuple[str, str, str], str] = {}
    for card, copies in groups.values():
        front = name(card, "front")
        faces.append(Face(front, card, "front", copies))
        if not backs:
            continue
        if card.source in other_side:
            stem = front.removesuffix("-front.png")
            file = f"{stem}-back.png"
            faces.append(Face(file, other_side[card.source], "back", copies, label=card.title))
            continue
        deck = (card.system, card.kind, card.back_title or card.deck)
        if deck not in deck_backs:  # one picture per deck back, listed once per card
            deck_backs[deck] = f"back-{slug(deck[2])}-{slug(card.kind)}.png"
        faces.append(Face(deck_backs[deck], card, "back", copies, shared_back=True))
    return faces


def _page(item: Face, bleed: float, dpi: int) -> tuple[tuple[int, int], float, float]:
    """The picture's pixels, and the page's width and height in points: the page is
    made a whole number of pixels, so pdfium renders it to the size with no resampling."""
    size = pixels(sheet.card_size(item.card.system, item.card.kind), bleed, dpi)
    # a hair under the whole pixel, so pdfium's rounding up gives exactly `size`
    return size, (size[0] - 1e-3) * 72 / dpi, (size[1] - 1e-3) * 72 / dpi


def _pages(
    faces: Sequence[Face], bleed: float, dpi: int, warn: Callable[[str], None]
) -> Iterator[bytes]:
    """PDFs of up to CHUNK faces, one face a page at its own size plus bleed."""
    from reportlab.pdfgen.canvas import Canvas

    fonts.register()
    for start in range(0, len(faces), CHUNK):
        stream = io.BytesIO()
        canvas = Canvas(stream, invariant=1, pageCompression=0, initialFontName=fonts.REGULAR)
        forms = Forms(canvas)
        for item in faces[start : start + CHUNK]:
            w, h = sheet.card_size(item.card.system, item.card.kind)
            _, page_w, page_h = _page(item, bleed, dpi)
            canvas.setPageSize((page_w, page_h))
            trim = sheet.Box((page_w - w) / 2, (page_h - h) / 2, w, h)  # bleed within a pixel
            outer = sheet.Box(0, 0, page_w, page_h)
            if item.shared_back:
                pdf.back(canvas, item.card, trim, outer)
            else:
                painter.paint(canvas, item.card, trim, outer, forms, warn)
            forms.on_page.clear()
            canvas.showPage()
        canvas.save()
        yield stream.getvalue()


def _no_fsync(fd: int) -> None:
    """Images are renamed into place one by one (atomic) and the folder synced once at the
    end: an fsync per picture would cost more than painting it."""


def export(
    cards: Sequence[ProofCard],
    out: Path,
    *,
    dpi: int = 300,
    bleed: float = 0.0,
    backs: bool = False,
) -> ImageExport:
    """Write each face's PNG (atomically) and `manifest.csv` into `out`."""
    import pypdfium2 as pdfium

    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise UsageError(f"--dpi takes {DPI_RANGE[0]} to {DPI_RANGE[1]}, not {dpi}")
    if not cards:
        raise UsageError("no printable cards in those files")
    result = ImageExport(out)
    faces = plan(cards, backs)
    unique = list({face.file: face for face in faces}.values())  # a deck back is drawn once
    out.mkdir(parents=True, exist_ok=True)
    done = 0
    for data in _pages(unique, bleed, dpi, result.warnings.append):
        document = pdfium.PdfDocument(data)
        try:
            for index in range(len(document)):
                item = unique[done + index]
                size = _page(item, bleed, dpi)[0]
                page = document[index]
                try:
                    bitmap = page.render(scale=dpi / 72, rev_byteorder=True, may_draw_forms=False)
                    image = bitmap.to_pil()
                finally:
                    page.close()
                if image.size != size:  # float rounding: a pixel row at most
                    image = image.crop((0, 0, *size))
                if image.mode != "RGB":
                    image = image.convert("RGB")
                buffer = io.BytesIO()
                # zlib level 1, run-length strategy: flat card colours, twice as fast
                image.save(buffer, format="PNG", compress_level=1, compress_type=3, dpi=(dpi, dpi))
                image.close()
                yamlio.atomic_write(out / item.file, buffer.getvalue(), fsync=_no_fsync)
        finally:
            done += len(document)
            document.close()
    result.faces = faces
    yamlio.atomic_write(result.manifest, manifest_text(faces))  # syncs the folder too
    result.warnings = list(dict.fromkeys(result.warnings))
    return result


def manifest_text(faces: Sequence[Face]) -> str:
    """file, card, face, copies (then document, kind, source): a row per face."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for face in faces:
        card = face.card
        writer.writerow(
            [
                face.file,
                _cell(face.label or card.title),
                face.face,
                face.copies,
                card.doc_id,
                card.kind,
                _cell(card.source),
            ]
        )
    return buffer.getvalue()


def _cell(value: str) -> str:
    """A text cell a spreadsheet will not run as a formula (`model.spreadsheet_safe`)."""
    return str(spreadsheet_safe(value))
