"""Print a card from its own scan: cropped to the card, scaled to trim, bleed from its edges.

A document names its image in `provenance.scan` (with an optional pixel `region`). The
path is taken relative to the repository (the folder holding `cards/`) and must stay
inside it: an absolute path, a `..` part, or a symlink leading out is refused with a
line naming the file, and the card prints as a drawn proxy instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from PIL import Image, ImageOps

MAX_PIXELS = 40_000_000  # a bigger image is refused rather than decoded


class ScanRefused(ValueError):
    """The scan cannot be used; the message says why, naming the path."""


@dataclass(frozen=True)
class ScanRef:
    path: Path  # resolved, inside the repository
    region: tuple[int, int, int, int] | None = None  # left, top, width, height in pixels


def repository_root(document: Path) -> Path:
    """The folder that holds the `cards/` folder the document sits in, else the nearest
    folder above it with a `scans/` folder or a `.git` (a draft under build/drafts/),
    else the document's own folder."""
    for parent in document.resolve().parents:
        if parent.name == "cards":
            return parent.parent
        if (parent / "scans").is_dir() or (parent / ".git").exists():
            return parent
    return document.resolve().parent


def resolve(document: Path, scan: str, region: Any = None) -> ScanRef:
    """The scan's path, checked to stay inside the repository."""
    written = PurePosixPath(scan.replace("\\", "/"))
    if written.is_absolute() or scan.startswith("~") or (len(scan) > 1 and scan[1] == ":"):
        raise ScanRefused(f"scan '{scan}' is an absolute path; give it relative to the repository")
    if ".." in written.parts:
        raise ScanRefused(f"scan '{scan}' climbs out with '..'; give it inside the repository")
    root = repository_root(document)
    target = (root / Path(*written.parts)).resolve()
    if not target.is_relative_to(root.resolve()):
        raise ScanRefused(f"scan '{scan}' leads outside the repository (a symlink)")
    if not target.is_file():
        raise ScanRefused(f"scan '{scan}' is not a file")
    box = None
    if isinstance(region, dict) and all(k in region for k in ("x", "y", "w", "h")):
        box = (int(region["x"]), int(region["y"]), int(region["w"]), int(region["h"]))
    elif isinstance(region, list | tuple) and len(region) == 4:
        box = (int(region[0]), int(region[1]), int(region[2]), int(region[3]))
    return ScanRef(target, box)


def _card_bounds(image: Image.Image) -> tuple[int, int, int, int]:
    """The card inside a scan with a plain margin: pixels unlike the corner colour."""
    grey = image.convert("L")
    corner = grey.getpixel((0, 0))
    assert isinstance(corner, int | float)
    mask = grey.point(lambda v: 255 if abs(v - corner) > 40 else 0)
    box = mask.getbbox()
    return box if box else (0, 0, image.width, image.height)


def load(ref: ScanRef) -> Image.Image:
    """The card's pixels: the region if given, else the scan trimmed of a plain margin."""
    try:
        with Image.open(ref.path) as opened:
            if opened.width * opened.height > MAX_PIXELS:
                raise ScanRefused(f"scan '{ref.path.name}' is larger than {MAX_PIXELS} pixels")
            image = ImageOps.exif_transpose(opened).convert("RGB")
    except (OSError, Image.DecompressionBombError) as err:
        raise ScanRefused(f"scan '{ref.path.name}' is not a readable image ({err})") from err
    if ref.region is not None:
        x, y, w, h = ref.region
        box = (max(0, x), max(0, y), min(image.width, x + w), min(image.height, y + h))
        if box[2] <= box[0] or box[3] <= box[1]:
            raise ScanRefused(f"scan '{ref.path.name}': the region lies outside the image")
        return image.crop(box)
    return image.crop(_card_bounds(image))


def with_bleed(
    card: Image.Image, trim: tuple[float, float], bleed: tuple[float, ...]
) -> Image.Image:
    """The card scaled to keep its pixels, grown by the bleed on each side (left, bottom,
    right, top, in points) by repeating its edge pixels outward."""
    per_point = card.width / trim[0]
    left, bottom, right, top = (round(b * per_point) for b in bleed)
    height = round(trim[1] * per_point)
    card = card.resize((card.width, height)) if card.height != height else card
    if not any((left, bottom, right, top)):
        return card
    out = Image.new("RGB", (card.width + left + right, card.height + top + bottom))
    out.paste(card, (left, top))
    w, h = card.size
    strips = (
        (card.crop((0, 0, 1, h)).resize((left, h)), (0, top)) if left else None,
        (card.crop((w - 1, 0, w, h)).resize((right, h)), (left + w, top)) if right else None,
        (card.crop((0, 0, w, 1)).resize((w, top)), (left, 0)) if top else None,
        (card.crop((0, h - 1, w, h)).resize((w, bottom)), (left, top + h)) if bottom else None,
    )
    for strip in strips:
        if strip:
            out.paste(*strip)
    for (cx, cy), (px, py, pw, ph) in (
        ((0, 0), (0, 0, left, top)),
        ((w - 1, 0), (left + w, 0, right, top)),
        ((0, h - 1), (0, top + h, left, bottom)),
        ((w - 1, h - 1), (left + w, top + h, right, bottom)),
    ):
        if pw and ph:
            colour = card.getpixel((cx, cy))
            out.paste(Image.new("RGB", (pw, ph), colour), (px, py))
    return out
