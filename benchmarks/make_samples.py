"""Regenerate scans/samples/: synthetic card images with truth files, licence-clean.

Each sample is a card from the repository's own cards/ drawn by the proof renderer
(cardkit proof, the same code path as the CLI), rasterised at 300 dpi with pdfium and
cropped to the card, then degraded four ways:

    clean    300 dpi, as a flatbed scan of a printed proxy
    150dpi   downsampled to 150 dpi
    skew2    rotated 2 degrees on a light scanner bed
    phone    a phone photo: on a table, in perspective, light from one side, blurred,
             noisy, JPEG quality 55

plus light-on-dark cards (the clean card inverted) and two-column dashboards. Every
image gets `<stem>.truth.yaml`, written from the YAML data the card was drawn from
(never from OCR). Everything is seeded: the same cardkit gives the same bytes.

    python benchmarks/make_samples.py [--out scans/samples]
"""

from __future__ import annotations

import argparse
import copy
import io
import tempfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import yaml
from PIL import Image, ImageDraw, ImageFilter, ImageOps

from cardkit.model import Document

ROOT = Path(__file__).resolve().parent.parent

DPI = 300


@dataclass
class Sample:
    """One card to draw: the document holding just that card, and its truth."""

    stem: str
    source: str  # the YAML file the card was drawn from
    truth: dict[str, Any]
    document: Document | None = None  # drawn by the proof renderer
    painted: bytes | None = None  # or a PDF page painted here (Dashboards)
    light_on_dark: bool = False
    degradations: tuple[str, ...] = ("clean", "150dpi", "skew2", "phone")


# ---------------------------------------------------------------- degradations


def _rng(stem: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(stem.encode()))


def downsample(card: Image.Image, dpi: int = 150) -> Image.Image:
    """A scan at a lower resolution: the 300 dpi card resampled."""
    size = (round(card.width * dpi / DPI), round(card.height * dpi / DPI))
    return card.resize(size, Image.Resampling.LANCZOS)


Corners = list[
    list[float]
]  # the card's corners in the image: top left, top right, bottom right, bottom left


def skew(card: Image.Image, degrees: float = 2.0) -> tuple[Image.Image, Corners]:
    """The card laid slightly crooked on a scanner bed (light grey), a margin around it."""
    bed = (238, 238, 236)
    margin = round(0.06 * card.width)
    framed = Image.new("RGB", (card.width + 2 * margin, card.height + 2 * margin), bed)
    framed.paste(card, (margin, margin), rounded_mask(card.size))
    rotated = framed.rotate(degrees, Image.Resampling.BICUBIC, expand=True, fillcolor=bed)
    cx, cy = framed.width / 2, framed.height / 2
    dx, dy = (rotated.width - framed.width) / 2, (rotated.height - framed.height) / 2
    cos, sin = np.cos(np.radians(degrees)), np.sin(np.radians(degrees))
    corners = []
    for x, y in _box_corners(card.size, margin):
        corners.append(
            [
                round(float(cx + (x - cx) * cos + (y - cy) * sin + dx), 1),
                round(float(cy - (x - cx) * sin + (y - cy) * cos + dy), 1),
            ]
        )
    return rotated, corners


def _box_corners(size: tuple[int, int], offset: float = 0) -> list[tuple[float, float]]:
    width, height = size
    return [
        (offset, offset),
        (offset + width, offset),
        (offset + width, offset + height),
        (offset, offset + height),
    ]


def rounded_mask(size: tuple[int, int], radius_mm: float = 3.0) -> Image.Image:
    """The card's outline: a rounded rectangle (poker cards have ~3 mm corners)."""
    mask = Image.new("L", size, 0)
    radius = round(radius_mm / 25.4 * DPI * size[0] / (63.5 / 25.4 * DPI))
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius, fill=255)
    return mask


def table(size: tuple[int, int], rng: np.random.Generator) -> Image.Image:
    """A wooden table top: brown with wavy grain and some blotches."""
    width, height = size
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    phase = rng.uniform(0, 6.28)
    wave = np.sin(y / rng.uniform(60, 90) + phase) * rng.uniform(8, 16)
    grain = np.sin((x + wave) / rng.uniform(5, 8)) * 0.5 + np.sin((x + 0.5 * wave) / 23.0) * 0.5
    shade = 0.85 + 0.12 * grain + rng.normal(0, 0.025, (height, width))
    base = np.array([128, 88, 56], dtype=np.float32)
    pixels = np.clip(shade[..., None] * base, 0, 255).astype(np.uint8)
    return Image.fromarray(pixels).filter(ImageFilter.GaussianBlur(0.8))


def perspective_coefficients(
    target: list[tuple[float, float]], source: list[tuple[float, float]]
) -> list[float]:
    """PIL's 8 coefficients mapping output points `target` back to input points `source`."""
    rows, values = [], []
    for (x, y), (u, v) in zip(target, source, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        values += [u, v]
    return [float(c) for c in np.linalg.solve(np.array(rows), np.array(values))]


def phone(card: Image.Image, stem: str) -> tuple[Image.Image, Corners]:
    """A phone photo of the card on a table: perspective, uneven light, blur, noise, JPEG 55."""
    rng = _rng(stem)
    width, height = 1050, 1400
    if card.width > card.height:  # a landscape card (a Dashboard) is photographed landscape
        width, height = height, width
    scale = 0.74 * min(width / card.width, height / card.height)
    w, h = card.width * scale, card.height * scale
    cx, cy = width / 2 + rng.uniform(-30, 30), height / 2 + rng.uniform(-30, 30)
    tilt = rng.uniform(0.04, 0.08) * w  # the far edge looks narrower
    jitter = [(rng.uniform(-12, 12), rng.uniform(-12, 12)) for _ in range(4)]
    corners = [
        (cx - w / 2 + tilt, cy - h / 2),
        (cx + w / 2 - tilt, cy - h / 2),
        (cx + w / 2, cy + h / 2),
        (cx - w / 2, cy + h / 2),
    ]
    target = [(x + dx, y + dy) for (x, y), (dx, dy) in zip(corners, jitter, strict=True)]
    source = [(0.0, 0.0), (card.width, 0.0), (card.width, card.height), (0.0, card.height)]
    coefficients = perspective_coefficients(target, source)
    rgba = card.convert("RGBA")
    rgba.putalpha(rounded_mask(card.size))
    warped = rgba.transform(
        (width, height), Image.Transform.PERSPECTIVE, coefficients, Image.Resampling.BICUBIC
    )
    scene = table((width, height), rng).convert("RGBA")
    shadow = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    shadow.putalpha(
        warped.getchannel("A").filter(ImageFilter.GaussianBlur(12)).point(lambda a: a // 2)
    )
    scene.alpha_composite(shadow, (8, 10))
    scene.alpha_composite(warped)
    pixels = np.asarray(scene.convert("RGB"), dtype=np.float32)
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(angle) * (x / width - 0.5) + np.sin(angle) * (y / height - 0.5)) * 0.45
    spot = np.exp(-(((x - width * 0.35) / width) ** 2 + ((y - height * 0.3) / height) ** 2) * 3)
    light = np.clip(0.9 + ramp + 0.12 * spot, 0.55, 1.1)
    pixels *= light[..., None] * np.array([1.0, 0.98, 0.93], dtype=np.float32)  # warm lamp
    blurred = Image.fromarray(pixels.clip(0, 255).astype(np.uint8)).filter(
        ImageFilter.GaussianBlur(1.1)
    )
    noisy = np.asarray(blurred, dtype=np.float32) + rng.normal(0, 5, (height, width, 3))
    out = io.BytesIO()
    Image.fromarray(noisy.clip(0, 255).astype(np.uint8)).save(out, "JPEG", quality=55)
    return Image.open(io.BytesIO(out.getvalue())), [[round(x, 1), round(y, 1)] for x, y in target]


def _whole(image: Image.Image) -> tuple[Image.Image, Corners]:
    return image, [[float(x), float(y)] for x, y in _box_corners(image.size)]


DEGRADE: dict[str, Callable[[Image.Image, str], tuple[Image.Image, Corners]]] = {
    "clean": lambda card, stem: _whole(card),
    "150dpi": lambda card, stem: _whole(downsample(card)),
    "skew2": lambda card, stem: skew(card),
    "phone": phone,
}

SUFFIX = {"phone": ".jpg", "skew2": ".jpg"}
QUALITY = {"phone": 55, "skew2": 85}  # a phone's JPEG; a flatbed scan saved as JPEG
DPI_OF = {"clean": 300, "150dpi": 150, "skew2": 300}


def save(image: Image.Image, stem: Path, degradation: str) -> Path:
    """The degraded image as its scanner or phone would store it: PNG or JPEG, with its dpi."""
    target = stem.with_name(stem.name + SUFFIX.get(degradation, ".png"))
    if target.suffix == ".png":
        image.save(target, dpi=(DPI_OF[degradation],) * 2, optimize=True)
    elif degradation in DPI_OF:
        image.save(target, quality=QUALITY[degradation], dpi=(DPI_OF[degradation],) * 2)
    else:
        image.save(target, quality=QUALITY[degradation])
    return target


# ---------------------------------------------------------------- rendering


def render(document: Document) -> Image.Image:
    """The document's one card drawn by `cardkit proof` (library call), at 300 dpi, cropped."""
    from cardkit.render.proof import ProofOptions, make_proof

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "card.pdf"
        make_proof([document], out, ProofOptions())
        return crop_card(rasterise(out.read_bytes()))


def _longest_run(flags: np.ndarray) -> tuple[int, int]:
    """First and last index of the longest run of True."""
    best, start = (0, -1), None
    for index, flag in enumerate([*flags.tolist(), False]):
        if flag and start is None:
            start = index
        elif not flag and start is not None:
            if index - start > best[1] - best[0] + 1:
                best = (start, index - 1)
            start = None
    return best


def crop_card(page: Image.Image) -> Image.Image:
    """The card on a proof page: the longest band of rows, then of columns, that is mostly
    non-white (crop marks, the ruler and the legend are thin or short; the card is solid)."""
    ink = np.asarray(page.convert("L")) < 250
    top, bottom = _longest_run(ink.mean(axis=1) > 0.15)
    left, right = _longest_run(ink[top : bottom + 1].mean(axis=0) > 0.6)
    top, bottom = _longest_run(ink[:, left : right + 1].mean(axis=1) > 0.6)
    return page.crop((left, top, right + 1, bottom + 1))


# ---------------------------------------------------------------- which cards, and their truth


def load(path: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / path).read_text(encoding="utf-8"))
    return data


def confirmed(card: dict[str, Any]) -> dict[str, Any]:
    """The card as printed: no unconfirmed marks or gap notes (a printed card has none)."""
    card = copy.deepcopy(card)
    card.pop("unconfirmed", None)
    card.pop("gap", None)
    if isinstance(card.get("place"), dict):
        card["place"].pop("text", None)
    return card


def document(path: str, data: dict[str, Any]) -> Document:
    return Document(ROOT / path, path, data, lambda *args, **kwargs: (1, 1))


def one_card(path: str, section: str, card: dict[str, Any]) -> Document:
    """A copy of the villain document holding only this card (the others dropped)."""
    data = copy.deepcopy(load(path))
    data.pop("dashboard", None)
    for key in ("masterplan", "threats"):
        data[key] = {"cards": [card] if key == section else []}
    data.pop("sheets", None)
    data.pop("gaps", None)
    return document(path, data)


def slots(place: Any) -> dict[str, dict[str, int]] | str | None:
    if place == "none":
        return "none"
    if not isinstance(place, dict):
        return None
    return {s: dict(place.get(s, {})) for s in ("left", "villain", "right")}


def masterplan_truth(path: str, name: str, card: dict[str, Any]) -> dict[str, Any]:
    effects = [{"name": e.get("name"), "text": e["text"]} for e in card.get("effects", [])]
    movement = card.get("movement") or card.get("move_text") or ""
    printed = " ".join(
        t
        for t in (
            movement,
            " ".join((f"{e['name']}: " if e["name"] else "") + e["text"] for e in effects),
            card.get("text", ""),
        )
        if t
    )
    place = card.get("place")
    truth: dict[str, Any] = {
        "game": "marvel-united",
        "card": "masterplan",
        "title": f"{name} {card['n']}",
        "name": name,
        "n": card["n"],
        "move": card.get("move", "*"),
        "bam": bool(card.get("bam")),
        "movement": movement or None,
        "effects": effects,
        "text": printed,
        "place": slots(place),
    }
    if isinstance(place, dict) and place.get("anchor"):
        truth["anchor"] = place["anchor"]
    return truth


def threat_truth(name: str, card: dict[str, Any]) -> dict[str, Any]:
    return {
        "game": "marvel-united",
        "card": "threat",
        "title": card["name"],
        "villain": name,
        "name": card["name"],
        "text": card["text"],
        "health": card.get("health"),
        "copies": card.get("copies", 1),
    }


# ---------------------------------------------------------------- dashboards

# The proof renderer prints a Dashboard as one block of labelled paragraphs; the printed
# card has headed sections, in one or two columns, and an unlabeled player-count table in
# the lower left. This painter lays that out from the same data, in the renderer's font.
MM = 72 / 25.4


def dashboard_size() -> tuple[float, float]:
    """The Dashboard's size in points, from the renderer's formats.yaml (150 x 100 mm if absent)."""
    from cardkit.render.units import points

    formats = yaml.safe_load((ROOT / "cardkit" / "render" / "formats.yaml").read_text())
    size = formats["cards"].get("marvel-united/dashboard", {"width": "150mm", "height": "100mm"})
    return points(str(size["width"])), points(str(size["height"]))


def _flat(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return " ".join(_flat(v) for v in value)
    if isinstance(value, dict):
        return _flat(value.get("text", ""))
    return ""


def dashboard_sections(dashboard: dict[str, Any]) -> list[dict[str, str]]:
    """Headed sections in the data's order, headings as the importer reads them."""
    from cardkit.games.marvel_united.dashboard import _SIMPLE

    labels = {key: label for label, key in _SIMPLE.items()}
    found = []
    for key, value in dashboard.items():
        if key in labels:
            found.append({"heading": labels[key], "text": _flat(value)})
        elif key == "villainous_plot" and isinstance(value, dict):
            name = value.get("name")
            heading = f"Villainous Plot - {name}" if name else "Villainous Plot"
            found.append({"heading": heading, "text": _flat(value)})
    return found


def paint_dashboard(
    name: str, sections: list[dict[str, str]], heroes: dict[str, Any], columns: int
) -> bytes:
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    regular, bold = "SampleSans", "SampleSans-Bold"
    pdfmetrics.registerFont(TTFont(regular, "Vera.ttf"))
    pdfmetrics.registerFont(TTFont(bold, "VeraBd.ttf"))
    width, height = dashboard_size()
    stream = io.BytesIO()
    c = Canvas(stream, pagesize=(width, height), invariant=1)
    c.setFillColorRGB(0.97, 0.95, 0.90)
    c.setStrokeColorRGB(0.55, 0.55, 0.55)
    c.setLineWidth(0.4)
    c.roundRect(0.3, 0.3, width - 0.6, height - 0.6, 3 * MM, stroke=1, fill=1)
    c.setFillColorRGB(0.1, 0.1, 0.1)
    pad, gutter = 6 * MM, 5 * MM
    c.setFont(bold, 16)
    c.drawString(pad, height - pad - 14, name)
    column_w = (width - 2 * pad - (columns - 1) * gutter) / columns
    top = height - pad - 26
    per_column = -(-len(sections) // columns)
    for column in range(columns):
        x, y = pad + column * (column_w + gutter), top
        for section in sections[column * per_column : (column + 1) * per_column]:
            for line in simpleSplit(section["heading"], bold, 9, column_w):
                c.setFont(bold, 9)
                y -= 10
                c.drawString(x, y, line)
            size = 7.5
            c.setFont(regular, size)
            for line in simpleSplit(section["text"], regular, size, column_w):
                y -= size * 1.25
                c.drawString(x, y, line)
            y -= 7
    counts = heroes.get("heroes", {}) if isinstance(heroes, dict) else {}
    cell_w, cell_h = 8 * MM, 6 * MM
    for index, (players, value) in enumerate(counts.items()):
        x = pad + index * cell_w
        c.setLineWidth(0.6)
        c.rect(x, pad + cell_h, cell_w, cell_h, stroke=1, fill=0)
        c.rect(x, pad, cell_w, cell_h, stroke=1, fill=0)
        c.setFont(bold, 10)
        c.drawCentredString(x + cell_w / 2, pad + cell_h + 2 * MM, str(players))
        c.setFont(regular, 10)
        c.drawCentredString(x + cell_w / 2, pad + 2 * MM, "" if value is None else str(value))
    c.showPage()
    c.save()
    return stream.getvalue()


def rasterise(pdf_bytes: bytes) -> Image.Image:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(pdf_bytes)
    try:
        return pdf[0].render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        pdf.close()


# Cards chosen for what they exercise: effects, BAM!, no BAM!, "*" moves with movement
# text, no tokens placed, 1-4 icons per slot, mixed tokens in a slot, the Villain's slot,
# Lizard's Sewer anchor; threats with and without Health.
BOX = "cards/marvel-united"
MASTERPLAN = [
    ("multiverse-ks-promos/klaw", 1),
    ("multiverse-ks-promos/crossbones", 1),
    ("multiverse-ks-promos/lizard", 1),
    ("multiverse-ks-promos/hobgoblin", 3),
    ("multiverse-ks-promos/mole-man", 4),
    ("ks-promos/baron-zemo", 5),
    ("ks-promos/baron-zemo", 12),
    ("ks-promos/corvus-glaive", 9),
    ("ks-promos/corvus-glaive", 5),
    ("ks-promos/baron-zemo", 3),
    ("multiverse-ks-promos/knull", 3),
    ("multiverse-ks-promos/mole-man", 1),
]
THREATS = [
    ("multiverse-ks-promos/knull", "Venom T-Rex"),
    ("ks-promos/baron-zemo", "Screaming Mimi"),
    ("ks-promos/corvus-glaive", "Hidden Traps"),
]
LIGHT_ON_DARK = [("multiverse-ks-promos/knull", "Symbiote Dragon")]
DASHBOARDS = [("multiverse-ks-promos/klaw", 1), ("multiverse-ks-promos/crossbones", 2)]


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-").replace("--", "-")


def samples() -> list[Sample]:
    found = []
    for villain, number in MASTERPLAN:
        path = f"{BOX}/{villain}.yaml"
        data = load(path)
        card = confirmed(next(c for c in data["masterplan"]["cards"] if c["n"] == number))
        stem = f"mu-{data['id']}-mp{number:02d}"
        truth = masterplan_truth(path, str(data["name"]), card)
        found.append(Sample(stem, path, truth, one_card(path, "masterplan", card)))
    for villain, title in THREATS + LIGHT_ON_DARK:
        path = f"{BOX}/{villain}.yaml"
        data = load(path)
        card = confirmed(next(c for c in data["threats"]["cards"] if c["name"] == title))
        card["copies"] = 1  # one copy is one card
        dark = (villain, title) in LIGHT_ON_DARK
        stem = f"mu-{data['id']}-threat-{_slug(title)}" + ("-dark" if dark else "")
        truth = threat_truth(str(data["name"]), card)
        found.append(Sample(stem, path, truth, one_card(path, "threats", card), light_on_dark=dark))
    for villain, columns in DASHBOARDS:
        path = f"{BOX}/{villain}.yaml"
        data = load(path)
        sections = dashboard_sections(data["dashboard"])
        heroes = data["dashboard"].get("player_count", {})
        truth = {
            "game": "marvel-united",
            "card": "dashboard",
            "title": data["name"],
            "name": data["name"],
            "columns": columns,
            "sections": sections,
            "text": " ".join(f"{s['heading']} {s['text']}" for s in sections),
            "player_count": {int(k): v for k, v in heroes.get("heroes", {}).items()},
        }
        painted = paint_dashboard(str(data["name"]), sections, heroes, columns)
        found.append(Sample(f"mu-{data['id']}-dashboard", path, truth, painted=painted))
    return found


def write_truth(path: Path, truth: dict[str, Any], source: str) -> None:
    header = (
        f"# Truth for {path.name.removesuffix('.truth.yaml')}: by benchmarks/make_samples.py\n"
        f"# from {source}, the data the card was drawn from (not from OCR).\n"
    )
    path.write_text(
        header
        + yaml.safe_dump(
            truth, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
        ),
        encoding="utf-8",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "scans" / "samples")
    args = parser.parse_args()
    folder = (
        args.out / "marvel-united"
    )  # a folder named after the system: cardkit ocr tries its templates
    folder.mkdir(parents=True, exist_ok=True)
    written = 0
    for sample in samples():
        if sample.document is not None:
            card = render(sample.document)
        else:
            assert sample.painted is not None
            card = rasterise(sample.painted)
        if sample.light_on_dark:
            card = ImageOps.invert(card)
        for degradation in sample.degradations:
            stem = f"{sample.stem}-{degradation}"
            image, corners = DEGRADE[degradation](card, stem)
            save(image, folder / stem, degradation)
            truth = {
                **sample.truth,
                "degradation": degradation,
                "dpi": DPI_OF.get(degradation),
                "light_on_dark": sample.light_on_dark,
                "orientation": 0,
                "corners": corners,
            }
            write_truth(folder / f"{stem}.truth.yaml", truth, sample.source)
            written += 1
    size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
    print(f"wrote {written} samples to {folder} ({size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
