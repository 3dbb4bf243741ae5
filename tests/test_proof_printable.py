"""Printer-safe sheets: nothing inside the printable margin, crop marks outside the bleed,
the legend on every sheet that carries icons. Checked on rasterised pages."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader

from cardkit.gaps import rows as gaps
from cardkit.render import pdf, sheet
from cardkit.render.proof import ProofOptions, layouts, make_proof
from cardkit.render.units import points
from tests.conftest import ROOT, run_cli

KLAW = ROOT / "cards/marvel-united/multiverse-ks-promos/klaw.yaml"
DPI = 100
SCALE = DPI / 72
QUARTER_INCH = 0.25 * DPI  # px


def _ink_in_margin(image: Image.Image, margin_px: float) -> int:
    """Non-white pixels closer to the paper's edge than `margin_px` (less one pixel for
    anti-aliasing at the band's inner edge)."""
    grey = np.asarray(image.convert("L"))
    band = int(margin_px) - 1
    inner = np.ones(grey.shape, dtype=bool)
    inner[band:-band, band:-band] = False
    return int(np.count_nonzero(grey[inner] < 250))


def _pixel(image: Image.Image, layout: sheet.Layout, x: float, y: float) -> tuple[int, int, int]:
    rgb = image.convert("RGB")
    return rgb.getpixel((round(x * SCALE), round((layout.paper.h - y) * SCALE)))  # type: ignore[return-value]


def _darkest_near(image: Image.Image, layout: sheet.Layout, x: float, y: float) -> int:
    """The darkest grey within a pixel of (x, y): a thin line is anti-aliased over two."""
    grey = np.asarray(image.convert("L"))
    col, row = round(x * SCALE), round((layout.paper.h - y) * SCALE)
    return int(grey[row - 1 : row + 2, col - 1 : col + 2].min())


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", ["0mm", "3mm"])
def test_klaw_sheets_leave_the_margin_blank_and_mark_outside_the_bleed(
    paper: str, bleed: str, tmp_path: Path
) -> None:
    documents, problems = gaps.load([KLAW])
    assert not problems
    options = ProofOptions(paper=paper, bleed=bleed, backs=True)
    out = tmp_path / "klaw.pdf"
    result = make_proof(documents, out, options)
    data = out.read_bytes()
    pages = pdf.to_png(data, DPI)
    texts = [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]
    layout_for = layouts(options)
    poker = layout_for(sheet.card_size("marvel-united", "masterplan"))
    dash = layout_for(sheet.card_size("marvel-united", "dashboard"))
    # 1 dashboard (its back behind it) + 12 master plans + 6 threats
    assert result.cards == 19
    assert len(pages) == 2 * (1 + -(-18 // poker.per_page))
    for number, image in enumerate(pages):
        assert _ink_in_margin(image, QUARTER_INCH) == 0, f"page {number + 1} prints in the margin"
    # every front carries icons (the dashboard's back has action icons; master plans
    # their tokens): each names them in its legend
    assert "Action" in texts[0] and "Heroic Action" in texts[0]
    assert "Civilian" in texts[2] and "Thug" in texts[2] and "BAM!" in texts[2]
    # the first master-plan sheet: each crop mark is drawn, dark, and lies outside every
    # card's painted bleed; the bleed itself is painted with the card's face colour
    front = pages[2]
    for x1, y1, x2, y2 in poker.crop_marks:
        assert (
            _darkest_near(front, poker, (x1 + x2) / 2, (y1 + y2) / 2) < 170
        )  # 0.6 pt: under a pixel
        for painted in poker.bleeds:
            assert not painted.grown(-0.5).inside(
                sheet.Box(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))
            )
            midx, midy = (x1 + x2) / 2, (y1 + y2) / 2
            assert not (
                painted.x < midx < painted.x + painted.w
                and painted.y < midy < painted.y + painted.h
            )
    first = poker.trims[0]
    if bleed == "3mm":
        outside = _pixel(front, poker, first.x - 1.5 * 72 / 25.4, first.y + first.h / 2)
        assert outside == pytest.approx((247, 242, 230), abs=14)  # bleed: the face's colour
    assert dash.per_page >= 1


def test_letter_with_bleed_warns_why_and_the_advice_works(tmp_path: Path) -> None:
    out = tmp_path / "klaw.pdf"
    args = ["proof", "--id", "klaw", "--paper", "letter", "--bleed", "3mm", "--backs"]
    result = run_cli([*args, "--out", str(out), str(KLAW)])
    assert result.returncode == 0, result.stderr
    assert "6 per sheet" in result.stdout
    warning = next(line for line in result.stderr.splitlines() if "cards per sheet" in line)
    assert "not 9" in warning and "0.25" not in warning  # the margin is named in mm
    advice = warning.split("use ", 1)[1].split()  # --bleed 0mm --margin 3.75mm
    assert advice[:3] == ["--bleed", "0mm", "--margin"]
    again = run_cli(["proof", "--paper", "letter", *advice[:4], "--out", str(out), str(KLAW)])
    assert again.returncode == 0 and "9 per sheet" in again.stdout
    assert "cards per sheet" not in again.stderr
    # the advised margin is honoured: no ink closer to the edge than it
    margin_px = points(advice[3]) * SCALE
    for image in pdf.to_png(out.read_bytes(), DPI):
        assert _ink_in_margin(image, margin_px) == 0


def test_a_margin_is_checked_and_a_wide_one_moves_everything_in(tmp_path: Path) -> None:
    documents, _ = gaps.load([KLAW])
    out = tmp_path / "p.pdf"
    wide = make_proof(documents, out, ProofOptions(margin="15mm", bleed="2mm"))
    assert wide.cards == 20 and wide.shortfalls  # no --backs: the dashboard back is a card
    for image in pdf.to_png(out.read_bytes(), DPI):
        assert _ink_in_margin(image, points("15mm") * SCALE) == 0
    with pytest.raises(Exception, match="--margin takes 0 to 1in"):
        make_proof(documents, out, ProofOptions(margin="-1mm"))
    refused = run_cli(["proof", "--margin", "2in", "--out", str(out), str(KLAW)])
    assert refused.returncode == 2 and "--margin takes 0 to 1in" in refused.stderr
    assert "Traceback" not in refused.stderr
