"""Intake: a file's bytes to normalised RGB frames, each one card to read.

The format comes from the bytes, never the suffix (a WebP named `.png` is a WebP).
Every frame of an animated image and every page of a PDF is its own card, named
`<stem>#<n>` (from 1). Alpha is flattened onto white; CMYK, 16-bit, palette and
grey images become 8-bit RGB; EXIF orientation is applied. A file that cannot be
read raises `IntakeError` with one line naming it; the caller goes on with the rest.
"""

from __future__ import annotations

import hashlib
import io
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from cardkit.errors import CardkitError, ExitCode, InputError
from cardkit.files import bounded

# Pillow's decompression-bomb limit (Image.MAX_IMAGE_PIXELS), enforced as an error:
# a scan over it is refused, not merely warned about.
PDF_DPI = 300
# a stored DPI outside this range is treated as missing and estimated from the card's size
PLAUSIBLE_DPI = (100.0, 1600.0)


class IntakeError(CardkitError):
    exit_code = ExitCode.FINDINGS


@dataclass
class Frame:
    name: str  # `<stem>` or `<stem>#<n>`
    source: Path
    sha256: str
    image: Image.Image  # RGB, 8 bits per channel, upright as EXIF says
    dpi: float | None  # as stored, when plausible
    index: int | None = None  # frame or page number from 1, for multi-frame sources
    format: str = ""


def flatten(image: Image.Image) -> Image.Image:
    """Any Pillow mode to 8-bit RGB; transparency composited onto white."""
    if image.mode in ("I;16", "I;16B", "I;16L", "I", "F"):
        array = np.asarray(image, dtype=np.float64)
        top = float(array.max()) or 1.0
        scale = 255.0 / (65535.0 if image.mode.startswith("I;16") or top > 255 else top)
        image = Image.fromarray(np.clip(array * scale, 0, 255).astype(np.uint8), "L")
    if image.mode == "P":
        image = image.convert("RGBA" if "transparency" in image.info else "RGB")
    if image.mode in ("LA", "La", "PA", "RGBa"):
        image = image.convert("RGBA")
    if image.mode == "RGBA":
        white = Image.new("RGB", image.size, "white")
        white.paste(image, mask=image.getchannel("A"))
        return white
    if image.mode == "CMYK":
        return image.convert("RGB")
    return image if image.mode == "RGB" else image.convert("RGB")


def _dpi(info: dict[Any, Any]) -> float | None:
    raw = info.get("dpi")
    if isinstance(raw, tuple) and raw:
        try:
            value = float(raw[0])
        except (TypeError, ValueError):
            return None
        if PLAUSIBLE_DPI[0] <= value <= PLAUSIBLE_DPI[1]:
            return value
    return None


def _pdf_frames(path: Path, data: bytes, digest: str) -> list[Frame]:
    import pypdfium2

    try:
        pdf = pypdfium2.PdfDocument(data)
    except pypdfium2.PdfiumError as err:
        raise IntakeError(f"{path}: not a readable PDF ({err})") from None
    frames = []
    try:
        count = len(pdf)
        if count == 0:
            raise IntakeError(f"{path}: PDF has no pages")
        if count > MAX_PAGES:
            raise IntakeError(f"{path}: {count:,} pages, over the {MAX_PAGES}-page cap")
        budget = max_pixels()  # for the whole file: every page is held until all are read
        for number in range(count):
            page = pdf[number]
            width, height = page.get_size()
            long, short = max(width, height) - 0.5, min(width, height) - 0.5  # points rounded
            if long > MAX_PAGE_POINTS[1] or short > MAX_PAGE_POINTS[0]:
                raise IntakeError(
                    f"{path}: page {number + 1} is {width / MM:.0f} x {height / MM:.0f} mm, over "
                    f"the {MAX_PAGE_POINTS[0] / MM:.0f} x {MAX_PAGE_POINTS[1] / MM:.0f} mm (A2) "
                    "cap for a scan; nothing rendered"
                )
            pixels = width * height * (PDF_DPI / 72) ** 2
            budget -= int(pixels)
            if budget < 0:
                raise IntakeError(
                    f"{path}: pages 1-{number + 1} hold over {max_pixels():,} pixels at "
                    f"{PDF_DPI} dpi; split the file"
                )
            image = page.render(scale=PDF_DPI / 72).to_pil()
            name = path.stem if count == 1 else f"{path.stem}#{number + 1}"
            frames.append(
                Frame(name, path, digest, flatten(image), float(PDF_DPI), number + 1, "PDF")
            )
    finally:
        pdf.close()
    return frames


# the smallest side a card's picture can be read at: its rules text is then ~3 px tall
# (a publisher's 300 x 419 image has ~9); a thumbnail or a 1 x 1 pixel is no scan
SMALLEST = 100


MAX_SCAN_BYTES = 256 * 1024 * 1024  # a file bigger than this is refused before reading
MAX_PAGES = 500  # pages of a PDF, frames of an animation
MM = 72 / 25.4
MAX_PAGE_POINTS = (420 * MM, 594 * MM)  # A2: a card scan or a sheet of them, not a poster


def max_pixels() -> int:
    return int(Image.MAX_IMAGE_PIXELS or 89_478_485)


def load(path: Path) -> list[Frame]:
    """Read one file into frames; IntakeError (one line, naming the file) if it cannot be."""
    limit = max_pixels()
    try:  # a regular file under the cap: a FIFO, /dev/zero or a link to it is refused
        data = bounded.read_regular(path, MAX_SCAN_BYTES, "scan")
    except InputError as err:
        raise IntakeError(str(err)) from None
    if not data:
        raise IntakeError(f"{path}: empty file")
    digest = hashlib.sha256(data).hexdigest()
    if data.startswith(b"%PDF-"):
        return _pdf_frames(path, data, digest)
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data))
        except UnidentifiedImageError:
            raise IntakeError(
                f"{path}: not an image (format not recognised from its bytes)"
            ) from None
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise IntakeError(f"{path}: image over the {limit:,}-pixel limit") from None
        if image.width * image.height > limit:
            raise IntakeError(
                f"{path}: image of {image.width}x{image.height} pixels is over the "
                f"{limit:,}-pixel limit"
            )
        if min(image.size) < SMALLEST:
            raise IntakeError(
                f"{path}: image of {image.width}x{image.height} pixels is too small to read "
                f"(a card needs {SMALLEST} pixels or more a side)"
            )
        fmt = image.format or ""
        count = int(getattr(image, "n_frames", 1) or 1)
        if count > MAX_PAGES or count * image.width * image.height > limit:
            raise IntakeError(
                f"{path}: {count:,} frames of {image.width}x{image.height} pixels, over the "
                f"{limit:,}-pixel cap for a file (or {MAX_PAGES} frames)"
            )
        frames = []
        for number in range(count):
            try:
                image.seek(number)
                frame = ImageOps.exif_transpose(image.copy()) or image.copy()
                rgb = flatten(frame)
            except (OSError, ValueError, SyntaxError) as err:
                where = f" frame {number + 1}" if count > 1 else ""
                raise IntakeError(f"{path}:{where} damaged or truncated image ({err})") from None
            name = path.stem if count == 1 else f"{path.stem}#{number + 1}"
            index = number + 1 if count > 1 else None
            frames.append(Frame(name, path, digest, rgb, _dpi(image.info), index, fmt))
    return frames
