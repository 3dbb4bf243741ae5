"""`cardkit export images`: one PNG per card face at print size plus bleed, and a manifest."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from cardkit.errors import UsageError
from cardkit.exchange import images
from cardkit.gaps import rows as gaps
from cardkit.render import content, pdf, sheet
from cardkit.render.units import points
from tests.conftest import ROOT, run_cli

KLAW = ROOT / "cards/marvel-united/multiverse-ks-promos/klaw.yaml"
FACE = (247, 242, 230)  # the proxy's card colour
NAVY = (41, 46, 71)  # a deck back


def _klaw() -> list[content.ProofCard]:
    documents, problems = gaps.load([KLAW])
    assert not problems
    return content.collect(documents)


def _rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "manifest.csv").open(newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


def test_pixel_sizes_are_the_card_plus_its_bleed() -> None:
    poker = sheet.card_size("marvel-united", "masterplan")  # 2.5 x 3.5 in
    # (2.5 + 2 x 0.125) in x 300 = 825; (3.5 + 0.25) x 300 = 1125
    assert images.pixels(poker, points("0.125in"), 300) == (825, 1125)
    # MakePlayingCards' poker template: 0.12 in bleed, (2.5 + 0.24) x 300 = 822
    assert images.pixels(poker, points("0.12in"), 300) == (822, 1122)
    # the dashboard, 150 x 100 mm: 150 / 25.4 x 300 = 1771.65, 100 / 25.4 x 300 = 1181.1
    dash = sheet.card_size("marvel-united", "dashboard")
    assert images.pixels(dash, 0.0, 300) == (1772, 1181)


def test_klaw_faces_are_written_at_size_with_a_manifest(tmp_path: Path) -> None:
    result = images.export(_klaw(), tmp_path, dpi=300, bleed=points("0.12in"), backs=True)
    rows = _rows(tmp_path)
    assert list(rows[0]) == ["file", "card", "face", "copies", "document", "kind", "source"]
    fronts = [r for r in rows if r["face"] == "front"]
    backs = [r for r in rows if r["face"] == "back"]
    # 1 dashboard (its other side is its back) + 12 master plans + 6 threats (1/6..6/6)
    assert len(fronts) == 19 and len(backs) == 19
    assert all(int(r["copies"]) == 1 for r in rows)
    dashboard = next(r for r in fronts if r["kind"] == "dashboard")
    its_back = next(r for r in backs if r["card"] == dashboard["card"])
    assert its_back["kind"] == "dashboard-back" and its_back["file"] != dashboard["file"]
    for row in rows:
        with Image.open(tmp_path / row["file"]) as picture:
            want = (1844, 1253) if row["kind"].startswith("dashboard") else (822, 1122)
            assert picture.size == want, row
            assert round(picture.info["dpi"][0]) == 300
    # every master plan shares one deck back, drawn once
    plan_backs = {r["file"] for r in backs if r["kind"] == "masterplan"}
    assert len(plan_backs) == 1
    with Image.open(tmp_path / plan_backs.pop()) as back:
        assert back.convert("RGB").getpixel((411, 200)) == pytest.approx(NAVY, abs=20)
    with Image.open(tmp_path / dashboard["file"]) as front:
        rgb = front.convert("RGB")
        assert rgb.getpixel((10, 10)) == pytest.approx(FACE, abs=12)  # the bleed is painted
    assert len({f.file for f in result.faces}) == len(list(tmp_path.glob("*.png")))


def test_copies_of_one_face_share_a_file(tmp_path: Path) -> None:
    card = content.ProofCard(system="marvel-united", deck="Test", title="Same", kind="threat")
    other = content.ProofCard(system="marvel-united", deck="Test", title="Other", kind="threat")
    images.export([card, card, other, card], tmp_path, dpi=72)
    rows = _rows(tmp_path)
    assert [(r["card"], r["copies"]) for r in rows] == [("Same", "3"), ("Other", "1")]
    assert len(list(tmp_path.glob("*.png"))) == 2


def test_a_face_alone_looks_as_it_does_on_the_proof_sheet(tmp_path: Path) -> None:
    cards = [c for c in _klaw() if c.kind == "masterplan"][:1]
    dpi = 150
    images.export(cards, tmp_path, dpi=dpi)
    alone = np.asarray(Image.open(next(tmp_path.glob("*-front.png"))).convert("L"), float)
    layout = sheet.layout("a4", sheet.card_size("marvel-united", "masterplan"), 0)
    page = pdf.to_png(pdf.render(cards, layout), dpi)[0].convert("L")
    trim = layout.trims[0]
    scale = dpi / 72
    top = (layout.paper.h - trim.y - trim.h) * scale
    box = (round(trim.x * scale), round(top), round((trim.x + trim.w) * scale), round(top))
    on_sheet = np.asarray(
        page.crop((box[0], box[1], box[0] + alone.shape[1], box[1] + alone.shape[0])), float
    )
    # the same drawing: pixel for pixel, but for anti-aliasing at a sub-pixel offset
    assert np.abs(alone - on_sheet).mean() < 4
    assert alone.std() > 20  # not a blank card: there is a drawing to compare


def test_bad_requests_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="--dpi takes 72 to 1200"):
        images.export(_klaw(), tmp_path, dpi=5000)
    with pytest.raises(UsageError, match="no printable cards"):
        images.export([], tmp_path)
    bad = run_cli(["export", "images", str(KLAW), "--out", str(tmp_path), "--bleed", "2cm"])
    assert bad.returncode == 2 and "--bleed takes 0 to 10mm" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_cli_writes_the_images_and_says_how_many(tmp_path: Path) -> None:
    out = tmp_path / "img"
    done = run_cli(["export", "images", str(KLAW), "--out", str(out), "--dpi", "100"])
    assert done.returncode == 0, done.stderr
    # no --backs: the dashboard's back is a face of its own, 20 faces in all
    assert done.stdout.strip() == f"wrote 20 images to {out} (20 faces at 100 dpi), manifest.csv"
    assert len(_rows(out)) == 20


def test_a_selection_exports_only_those_cards(tmp_path: Path) -> None:
    out = tmp_path / "img"
    args = ["export", "images", str(KLAW), "--out", str(out), "--dpi", "72"]
    done = run_cli([*args, "--kind", "threat"])
    assert done.returncode == 0, done.stderr
    rows = _rows(out)
    assert len(rows) == 6 and {r["kind"] for r in rows} == {"threat"}  # 1/6 ... 6/6
    typo = run_cli([*args, "--kind", "thret"])
    assert typo.returncode == 2 and "did you mean 'threat'" in typo.stderr
