"""Print from a scan: the card's own image, cropped, scaled to trim, bleed from its edges."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader

from cardkit.gaps import rows as gaps
from cardkit.render import pdf, sheet
from cardkit.render import scan as render_scan
from cardkit.render.proof import ProofOptions, make_proof

MM = 72 / 25.4
CARD = """kind: villainous/card
id: lantern
villain_ref: example
deck: villain
title: Lantern Keeper
cost: 2
provenance: {scan: SCAN}
"""


def _scan(path: Path) -> None:
    """A blue card with a red left edge and a green right edge, on a white margin."""
    image = Image.new("RGB", (300, 400), "white")
    card = Image.new("RGB", (200, 280), (30, 60, 200))
    card.paste(Image.new("RGB", (6, 280), (220, 20, 20)), (0, 0))
    card.paste(Image.new("RGB", (6, 280), (20, 180, 40)), (194, 0))
    image.paste(card, (50, 60))
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)


def _repo(tmp_path: Path, scan: str) -> Path:
    (tmp_path / "cards").mkdir()
    _scan(tmp_path / "scans" / "lantern.png")
    card = tmp_path / "cards" / "lantern.yaml"
    card.write_text(CARD.replace("SCAN", scan), encoding="utf-8")
    return card


def _proof(card: Path, tmp_path: Path, bleed: str = "3mm") -> tuple[object, list[str], bytes]:
    documents, problems = gaps.load([card])
    assert not problems
    out = tmp_path / "out.pdf"
    options = ProofOptions(bleed=bleed, gutter="6mm", from_scans=True)
    result = make_proof(documents, out, options)
    return result, result.warnings, out.read_bytes()


def _prints_the_blue_card(card: Path, tmp_path: Path) -> None:
    """The proof of `card` shows the test scan's blue in its first trim, without a warning."""
    _, warnings, data = _proof(card, tmp_path)
    assert warnings == []
    layout = sheet.layout("a4", sheet.card_size("villainous", "villain-card"), 3 * MM, 6 * MM)
    image = pdf.to_png(data, 50)[0].convert("RGB")
    trim = layout.trims[0]
    x, y = (trim.x + trim.w / 2) * 50 / 72, (layout.paper.h - trim.y - trim.h / 2) * 50 / 72
    assert image.getpixel((round(x), round(y))) == pytest.approx((30, 60, 200), abs=25)


def test_a_card_prints_from_its_scan_with_bleed_from_its_edges(tmp_path: Path) -> None:
    card = _repo(tmp_path, "scans/lantern.png")
    _, warnings, data = _proof(card, tmp_path)
    assert warnings == []
    layout = sheet.layout("a4", sheet.card_size("villainous", "villain-card"), 3 * MM, 6 * MM)
    image = pdf.to_png(data, 100)[0].convert("RGB")
    scale = 100 / 72

    def pixel(x: float, y: float) -> tuple[int, int, int]:
        return image.getpixel((round(x * scale), round((layout.paper.h - y) * scale)))

    trim = layout.trims[0]
    middle = trim.y + trim.h / 2
    assert pixel(trim.x + trim.w / 2, middle) == pytest.approx((30, 60, 200), abs=25)
    assert pixel(trim.x - 2 * MM, middle) == pytest.approx((220, 20, 20), abs=25)  # bleed, left
    assert pixel(trim.x + trim.w + 2 * MM, middle) == pytest.approx((20, 180, 40), abs=25)
    assert pixel(trim.x + trim.w / 2, trim.y + trim.h + 2 * MM) == pytest.approx(
        (30, 60, 200), abs=25
    )  # bleed above: the top edge's colour, not the scan's white margin
    assert _proof(card, tmp_path)[2] == data  # deterministic


@pytest.mark.parametrize(
    "scan", ["/etc/passwd", "/no/such/scan.png", "../outside.png", "scans/../../x.png", "link.png"]
)
def test_paths_out_of_the_repository_or_to_no_image_are_refused(tmp_path: Path, scan: str) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    outside = tmp_path / "secret.png"
    _scan(outside)
    os.symlink(outside, repo / "link.png")
    if ".." in scan:  # the schema refuses these (below); the reader refuses them again
        card = _repo(repo, "scans/lantern.png")
        with pytest.raises(render_scan.ScanRefused, match=r"climbs out with '\.\.'"):
            render_scan.resolve(card, scan)
        return
    card = _repo(repo, f"{scan}, sha256: '{'0' * 64}'" if scan.startswith("/") else scan)
    _, warnings, data = _proof(card, tmp_path)
    assert len(warnings) == 1 and warnings[0].startswith(f"{gaps.load([card])[0][0].display_path}:")
    assert "printed as a drawn proxy" in warnings[0]
    reason = {
        "/etc/passwd": "do not have the draft's provenance.sha256",  # no hash: not read
        "/no/such/scan.png": "absolute path to no file",
        "link.png": "outside the repository",
    }.get(scan, "'..'")
    assert reason in warnings[0]
    text = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    assert "Lantern Keeper" in text  # the drawn proxy was printed instead


def test_a_draft_outside_cards_finds_its_scan_from_the_repository(tmp_path: Path) -> None:
    """An OCR draft in build/drafts/ names its scan relative to the repository, as
    `cardkit ocr` writes it: the folder above with a scans/ folder is the repository."""
    _repo(tmp_path, "scans/lantern.png")
    draft = tmp_path / "build" / "drafts" / "lantern.yaml"
    draft.parent.mkdir(parents=True)
    draft.write_text(CARD.replace("SCAN", "scans/lantern.png"), encoding="utf-8")
    _prints_the_blue_card(draft, tmp_path)


PHONE = Path(__file__).resolve().parent.parent / "scans/samples/marvel-united"
DRAFT = """kind: marvel-united/masterplan-card
id: zemo-5
card: {move: 0, bam: true, n: 5, place: none}
provenance:
  scan: SCAN
  settings: {rotation: 0, outline: found}
"""


def _table(photo: Path) -> np.ndarray:
    """The table's colour: the median of the photo's outermost pixels."""
    pixels = np.asarray(Image.open(photo).convert("RGB"), dtype=float)
    border = np.concatenate([pixels[0], pixels[-1], pixels[:, 0], pixels[:, -1]])
    return np.median(border, axis=0)


@pytest.mark.parametrize("photo", ["mu-baron-zemo-mp05-phone.jpg", "mu-klaw-mp01-phone.jpg"])
def test_a_phone_photo_prints_as_the_squared_card_without_its_table(
    tmp_path: Path, photo: str
) -> None:
    (tmp_path / "cards").mkdir()
    (tmp_path / "scans").mkdir()
    shutil.copy(PHONE / photo, tmp_path / "scans" / photo)
    card = tmp_path / "cards" / "zemo-5.yaml"
    card.write_text(DRAFT.replace("SCAN", f"scans/{photo}"), encoding="utf-8")
    _, warnings, data = _proof(card, tmp_path, bleed="0mm")
    assert warnings == []
    layout = sheet.layout("a4", sheet.card_size("marvel-united", "masterplan"), 0, 6 * MM)
    dpi = 100
    page = np.asarray(pdf.to_png(data, dpi)[0].convert("RGB"), dtype=float)
    trim = layout.trims[0]
    scale = dpi / 72
    left, right = round(trim.x * scale), round((trim.x + trim.w) * scale)
    top, bottom = (
        round((layout.paper.h - trim.y - trim.h) * scale),
        round((layout.paper.h - trim.y) * scale),
    )
    table = _table(PHONE / photo)
    on_table = np.abs(page - table).sum(axis=2) < 60
    # every side of the trim, 1 mm in, away from the rounded corners: the card, no table
    inset, corner = round(1 * MM * scale), round(6 * MM * scale)
    sides = {
        "top": on_table[top + inset, left + corner : right - corner],
        "bottom": on_table[bottom - inset, left + corner : right - corner],
        "left": on_table[top + corner : bottom - corner, left + inset],
        "right": on_table[top + corner : bottom - corner, right - inset],
    }
    for side, line in sides.items():
        assert line.mean() < 0.02, f"{side}: {line.mean():.0%} table"
    inner = on_table[top + inset : bottom - inset, left + inset : right - inset]
    assert inner.mean() < 0.01  # nothing of the table inside the card (corners included)


def test_an_absolute_scan_path_that_ocr_wrote_prints_from_it(tmp_path: Path) -> None:
    """`cardkit ocr` writes an absolute `provenance.scan` for a scan outside the repository."""
    outside = tmp_path / "phone" / "lantern.png"
    _scan(outside)
    (tmp_path / "repo").mkdir()
    digest = hashlib.sha256(outside.read_bytes()).hexdigest()
    card = _repo(tmp_path / "repo", f"{outside}, sha256: {digest}")
    _prints_the_blue_card(card, tmp_path)


def test_an_absolute_scan_path_planted_without_its_hash_is_not_read(tmp_path: Path) -> None:
    """A path that came in with imported data (issue 21): a local image whose bytes the
    draft does not name is never put into a proof."""
    secret = tmp_path / "home" / "private.png"
    _scan(secret)
    (tmp_path / "repo").mkdir()
    card = _repo(tmp_path / "repo", f"{secret}, sha256: '{'0' * 64}'")
    _, warnings, data = _proof(card, tmp_path)
    assert len(warnings) == 1 and "outside the repository" in warnings[0]
    assert "printed as a drawn proxy" in warnings[0]
    image = pdf.to_png(data, 50)[0].convert("RGB")
    layout = sheet.layout("a4", sheet.card_size("villainous", "villain-card"), 3 * MM, 6 * MM)
    trim = layout.trims[0]
    x, y = (trim.x + trim.w / 2) * 50 / 72, (layout.paper.h - trim.y - trim.h / 2) * 50 / 72
    assert image.getpixel((round(x), round(y))) != pytest.approx((30, 60, 200), abs=25)


@pytest.mark.parametrize(
    ("scan", "says"),
    [
        ("/home/someone/private.png", "missing required property 'sha256'"),
        ("scans/../../x.png", "climbs out of the repository with a '..' part"),
        ("..\\\\x.png", "climbs out of the repository with a '..' part"),
    ],
)
def test_the_schema_keeps_scan_paths_in_the_repository(
    tmp_path: Path, scan: str, says: str
) -> None:
    card = _repo(tmp_path, f'"{scan}"')
    problems = gaps.load([card])[1]
    assert len(problems) == 1 and problems[0].code == "CK100", problems
    assert says in f"{problems[0].message} {problems[0].pointer}"
