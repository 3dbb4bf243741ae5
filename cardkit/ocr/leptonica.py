"""Leptonica's messages silenced while tesseract reads.

tesseract's layout analysis calls Leptonica with boxes that run past the image's edge (a
picture region found at a card's border): Leptonica prints `Error in boxClipToRectangle:
box outside rectangle` and `Error in pixScanForForeground: invalid box` on stderr, and
tesseract goes on, reading the card as well as without them. They are not cardkit's
errors, nor the user's; a scan that was read prints nothing. Leptonica's own switch
(`setMsgSeverity`) is turned off only while the engine reads, and back on after, so any
other message of the process, and tesseract's own (a failed read raises), still show.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

SEVERITY_NONE = 6  # L_SEVERITY_NONE in leptonica's environ.h: print nothing


@cache
def _library() -> Any:
    """The Leptonica tesserocr runs on: the copy its wheel bundles, else the system's;
    None when neither is found (the messages then show, as before)."""
    try:
        import tesserocr
    except ImportError:
        return None
    bundled = Path(tesserocr.__file__).resolve().parent.parent / "tesserocr.libs"
    names = sorted(str(p) for p in bundled.glob("libleptonica*.so*")) if bundled.is_dir() else []
    names += [n for n in (ctypes.util.find_library(s) for s in ("leptonica", "lept")) if n]
    for name in names:
        try:
            library = ctypes.CDLL(name)
            library.setMsgSeverity.argtypes = [ctypes.c_int]
            library.setMsgSeverity.restype = ctypes.c_int
            return library
        except (OSError, AttributeError):
            continue
    return None


@contextmanager
def quiet() -> Iterator[None]:
    """Leptonica prints nothing inside the block; its former level is restored after."""
    library = _library()
    if library is None:
        yield
        return
    before = library.setMsgSeverity(SEVERITY_NONE)
    try:
        yield
    finally:
        library.setMsgSeverity(before)
