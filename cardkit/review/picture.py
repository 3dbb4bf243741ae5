"""One card as `proof` draws it, as a PNG, with where each doubted field sits on it.

The proxy is painted by the proof renderer (render/face.py) on a card-sized page and
rasterised with pypdfium2; the pictures are kept in memory by what the card shows, so a
card that did not change is not drawn again. A doubted field is outlined on the part of
the card that shows its value (the placement diagram for token counts, the title, the
text, the stats...); a field the proxy does not show is pointed to on the UNCONFIRMED band.
"""

from __future__ import annotations

import hashlib
import io
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from cardkit.render.content import ProofCard

DPI = 144
SCAN_WIDTH = 700  # pixels: the scan beside the card is shown this wide at most
KEEP = 256  # pictures held in memory


@dataclass(frozen=True)
class Outline:
    field: str  # the doubted field, as the card names it (place, text)
    part: str  # the part of the card outlined: diagram, title, text, stats, tags, banner
    x: float  # fractions of the card's width and height, from its top left corner
    y: float
    w: float
    h: float


class _Cache:
    def __init__(self) -> None:
        self.items: OrderedDict[str, bytes] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
            return self.items.get(key)

    def put(self, key: str, value: bytes) -> None:
        with self.lock:
            self.items[key] = value
            while len(self.items) > KEEP:
                self.items.popitem(last=False)


_pictures = _Cache()


def key(card: ProofCard) -> str:
    """What the card shows, as a short hash: the same card draws the same picture."""
    values = {f.name: getattr(card, f.name) for f in fields(card)}
    values["unconfirmed"] = sorted(card.unconfirmed)
    shown = json.dumps(values, sort_keys=True, default=repr)
    return hashlib.sha256(f"{DPI}\n{shown}".encode()).hexdigest()[:24]


def size(card: ProofCard) -> tuple[float, float]:
    from cardkit.render import sheet

    return sheet.card_size(card.system, card.kind)


def png(card: ProofCard) -> bytes:
    """The card's proxy as a PNG (from the cache when it was drawn before)."""
    name = key(card)
    found = _pictures.get(name)
    if found is not None:
        return found
    from reportlab.pdfgen.canvas import Canvas

    from cardkit.render import fonts, pdf, sheet
    from cardkit.render.icons import Forms

    fonts.register()
    w, h = size(card)
    stream = io.BytesIO()
    canvas = Canvas(stream, pagesize=(w, h), invariant=1, initialFontName=fonts.REGULAR)
    pdf.front(canvas, card, sheet.Box(0, 0, w, h), 0.0, Forms(canvas))
    canvas.showPage()
    canvas.save()
    image = pdf.to_png(stream.getvalue(), dpi=DPI)[0].convert("RGB")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    _pictures.put(name, buffer.getvalue())
    return buffer.getvalue()


def _counts(value: Any) -> bool:
    """A mapping of slots to token counts ({left: {thug: 1}})."""
    return isinstance(value, dict) and any(
        isinstance(v, dict) and v and all(isinstance(n, int) for n in v.values())
        for v in value.values()
    )


def _part(card: ProofCard, value: Any) -> str:
    """The part of the proxy that shows this value, or the band that names the field."""
    if (_counts(value) or value == "none") and (card.placement or card.no_tokens):
        return "diagram"
    shown = "" if value is None or isinstance(value, dict | list) else str(value)
    if isinstance(value, bool):
        return "tags" if card.tags else "banner"
    if shown and shown == card.title:
        return "title"
    if shown and any(shown == v or shown in v.split() for _, v in card.stats):
        return "stats"
    if shown and shown in card.corner:
        return "title"
    if shown and card.text and shown[:40] in card.text:
        return "text"
    if shown and any(shown in tag for tag in card.tags):
        return "tags"
    return "banner"


def outlines(card: ProofCard, doubted: dict[str, Any]) -> list[Outline]:
    """Each doubted field (name -> its value) on the part of the card that shows it."""
    from cardkit.render import face, sheet

    w, h = size(card)
    regions = face.regions(card, sheet.Box(0, 0, w, h))
    found = []
    for name, value in sorted(doubted.items()):
        part = _part(card, value)
        box = getattr(regions, part, None) or regions.banner or regions.footer
        found.append(Outline(name, part, box.x / w, 1 - (box.y + box.h) / h, box.w / w, box.h / h))
    return found


def scan_png(
    path: Path, region: tuple[int, int, int, int] | None, turn: int, aspect: float
) -> bytes:
    """The card's own scan, squared (as `proof --from-scans` prints it), as a PNG."""
    from cardkit.render import scan_image as scan

    name = hashlib.sha256(f"{path}\n{path.stat().st_mtime_ns}\n{region}\n{turn}".encode())
    found = _pictures.get("scan-" + name.hexdigest())
    if found is not None:
        return found
    image = scan.load(scan.ScanRef(path, region, turn), aspect).convert("RGB")
    if image.width > SCAN_WIDTH:
        image = image.resize((SCAN_WIDTH, round(image.height * SCAN_WIDTH / image.width)))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    _pictures.put("scan-" + name.hexdigest(), buffer.getvalue())
    return buffer.getvalue()
