"""Print a card from its own scan: cut out and squared, scaled to trim, bleed from its edges.

A document names its image in `provenance.scan` (with an optional pixel `region`). A
relative path is taken from the repository (the folder holding `cards/`) and must stay
inside it: a `..` part or a symlink leading out is refused with a line naming the file,
and the card prints as a drawn proxy instead. An absolute path (as `cardkit ocr` writes
for a scan outside the repository) is used only when that file's bytes have the draft's
`provenance.sha256`: a path planted in imported data reveals no local file.

A photo of a card on a table is squared up as the OCR does it: the OCR's own outline
finder (cardkit/ocr/outline.py) finds its four corners and its perspective warp
(cardkit/ocr/geometry.py) straightens them to the card's proportions, turned as the
draft's `provenance.settings.rotation` says; a scan that is all card, or has a plain
margin, is trimmed of that margin.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np
from PIL import Image, ImageOps

from cardkit.model import printable

MAX_PIXELS = 40_000_000  # a bigger image is refused rather than decoded
MAX_BYTES = 200_000_000  # a scan file bigger than this is not hashed
UPRIGHT = 2.0  # pixels: an outline this near its bounding box needs no warp, only a crop
EDGE_INSET = 0.005  # of a squared photo's width and height: its edge pixels may hold table


class ScanRefused(ValueError):
    """The scan cannot be used; the message says why, naming the path."""


@dataclass(frozen=True)
class ScanRef:
    path: Path  # resolved: inside the repository, or an absolute path that exists
    region: tuple[int, int, int, int] | None = None  # left, top, width, height in pixels
    rotation: int = 0  # degrees counter-clockwise the squared card turns to stand upright


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


def resolve(
    document: Path, scan: str, region: Any = None, rotation: Any = 0, sha256: Any = None
) -> ScanRef:
    """The scan's path: one checked to stay inside the repository, or an absolute one
    whose bytes have the draft's `sha256` (so a path planted in imported data cannot put
    a local file into a proof: only the image the draft was read from is used)."""
    written = PurePosixPath(scan.replace("\\", "/"))
    if written.is_absolute() or scan.startswith("~") or (len(scan) > 1 and scan[1] == ":"):
        target = Path(scan)
        if not target.is_absolute() or not target.is_file():
            raise ScanRefused(f"scan '{printable(scan)}' is an absolute path to no file")
        if not isinstance(sha256, str) or _digest(target) != sha256.lower():
            raise ScanRefused(
                f"scan '{printable(scan)}' is outside the repository and its bytes do not "
                "have the draft's provenance.sha256: not used"
            )
        target = target.resolve()
    else:
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
    turn = rotation if isinstance(rotation, int) and rotation % 90 == 0 else 0
    return ScanRef(target, box, turn % 360)


def _digest(path: Path) -> str | None:
    """SHA-256 of a regular file under the size cap, else None."""
    try:
        with path.open("rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                return None
            data = stream.read(MAX_BYTES + 1)
    except OSError:
        return None
    return hashlib.sha256(data).hexdigest() if len(data) <= MAX_BYTES else None


def _card_bounds(image: Image.Image) -> tuple[int, int, int, int]:
    """The card inside a scan with a plain margin: pixels unlike the corner colour."""
    grey = image.convert("L")
    corner = grey.getpixel((0, 0))
    assert isinstance(corner, int | float)
    mask = grey.point(lambda v: 255 if abs(v - corner) > 40 else 0)
    box = mask.getbbox()
    return box if box else (0, 0, image.width, image.height)


def _box_corners(left: float, top: float, right: float, bottom: float) -> np.ndarray:
    return np.array([[left, top], [right, top], [right, bottom], [left, bottom]])


def squared(image: Image.Image, aspect: float | None, rotation: int = 0) -> Image.Image | None:
    """The card cut out of a photo and squared to `aspect` (width/height, either way up),
    turned `rotation` degrees counter-clockwise, then upright to `aspect` if still on its
    side; None when no outline stands out (the card fills the picture)."""
    from cardkit.ocr.card_outline import find_outline, side_lengths
    from cardkit.ocr.geometry import rotate, warp

    outline = find_outline(image, (aspect, 1 / aspect) if aspect else ())
    if outline is None:
        return None
    left, top = outline.corners.min(axis=0)
    right, bottom = outline.corners.max(axis=0)
    if np.abs(outline.corners - _box_corners(left, top, right, bottom)).max() <= UPRIGHT:
        return None  # square to the picture already: cropped, its pixels kept as they are
    width, height = side_lengths(outline.corners)
    shape = None
    if aspect:
        measured = width / height
        shape = min((aspect, 1 / aspect), key=lambda a: abs(measured - a) / a)
    card = warp(image, outline.corners, shape)
    dx, dy = round(card.width * EDGE_INSET), round(card.height * EDGE_INSET)
    card = rotate(card.crop((dx, dy, card.width - dx, card.height - dy)), rotation)
    if aspect and (card.width > card.height) != (aspect > 1):
        card = card.transpose(Image.Transpose.ROTATE_270)  # on its side: turned clockwise
    return card


def load(ref: ScanRef, aspect: float | None = None) -> Image.Image:
    """The card's pixels: the region if given, else the card squared out of a photo
    (`aspect`: the trim's width/height), else the scan trimmed of a plain margin."""
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
    card = squared(image, aspect, ref.rotation)
    return card if card is not None else image.crop(_card_bounds(image))


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
