"""The font tests draw their own cards with: DejaVu Sans (fonts-dejavu-core), found by name
or in Debian's folder; a test skips cleanly where neither is installed."""

from __future__ import annotations

import pytest
from PIL import ImageFont


def dejavu(size: int, bold: bool = True, mono: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    if mono:  # its zero has a dot in it
        name = "DejaVuSansMono-Bold.ttf" if bold else "DejaVuSansMono.ttf"
    for path in (name, f"/usr/share/fonts/truetype/dejavu/{name}"):
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    pytest.skip("no DejaVu font to draw the card with")
