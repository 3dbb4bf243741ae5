"""`cardkit ocr DIR --assemble` on real scans: one villain per villain printed on the cards
(not per folder), every document valid, also when a threat's name has a space; a card
drafted twice leaves its villain unwritten. Copies of the synthetic samples, real tesseract."""

from __future__ import annotations

import shutil
from pathlib import Path

from cardkit.files import yamlio
from tests.conftest import ROOT, run_cli

SAMPLES = ROOT / "scans" / "samples" / "marvel-united"


def _folder(tmp_path: Path, names: list[str]) -> Path:
    folder = tmp_path / "scans" / "mixed"
    folder.mkdir(parents=True)
    for name in names:
        shutil.copy(SAMPLES / name, folder / name)
    return folder


def test_drafts_group_by_printed_villain_and_validate(tmp_path: Path) -> None:
    _folder(
        tmp_path,
        [
            "mu-baron-zemo-mp03-clean.png",
            "mu-baron-zemo-threat-screaming-mimi-clean.png",
            "mu-klaw-mp01-clean.png",
        ],
    )
    result = run_cli(["ocr", "scans/mixed", "--assemble", "--out", "drafts"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    drafts = tmp_path / "drafts"
    assert sorted(p.name for p in drafts.glob("*.yaml") if not p.name.startswith("mu-")) == [
        "baron-zemo.yaml",
        "klaw.yaml",
        "mixed.yaml",  # the threat card, which prints no villain (below)
    ]
    zemo = yamlio.load_text((drafts / "baron-zemo.yaml").read_text())
    assert (zemo["id"], zemo["name"]) == ("baron-zemo", "Baron Zemo")
    assert [c["n"] for c in zemo["masterplan"]["cards"]] == [3]
    # the threat card prints no villain: it joins the one its folder's other cards print...
    # unless that is two villains, as here: then it stands under the folder's name
    klaw = yamlio.load_text((drafts / "klaw.yaml").read_text())
    assert (klaw["name"], [c["n"] for c in klaw["masterplan"]["cards"]]) == ("Klaw", [1])
    mixed = yamlio.load_text((drafts / "mixed.yaml").read_text())
    assert [t["name"] for t in mixed["threats"]["cards"]] == ["Screaming Mimi"]
    assert set(mixed["provenance"]["confidences"]) >= {"threats/cards/0/name"}
    checked = run_cli(["validate", "drafts"], cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout


def test_a_threat_without_printed_villain_joins_its_folders_villain(tmp_path: Path) -> None:
    _folder(
        tmp_path,
        ["mu-baron-zemo-mp03-clean.png", "mu-baron-zemo-threat-screaming-mimi-clean.png"],
    )
    result = run_cli(["ocr", "scans/mixed", "--assemble", "--out", "drafts"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    zemo = yamlio.load_text((tmp_path / "drafts" / "baron-zemo.yaml").read_text())
    assert [t["name"] for t in zemo["threats"]["cards"]] == ["Screaming Mimi"]
    assert zemo["provenance"]["confidences"]["threats/cards/0/health"] > 0
    assert not (tmp_path / "drafts" / "mixed.yaml").exists()
    assert run_cli(["validate", "drafts"], cwd=tmp_path).returncode == 0


def test_a_card_drafted_twice_is_not_assembled(tmp_path: Path) -> None:
    _folder(tmp_path, ["mu-klaw-mp01-clean.png", "mu-klaw-mp01-150dpi.png"])
    result = run_cli(["ocr", "scans/mixed", "--assemble", "--out", "drafts"], cwd=tmp_path)
    assert result.returncode == 1
    assert not (tmp_path / "drafts" / "klaw.yaml").exists()
    assert "klaw.yaml: not assembled: masterplan card 1 is drafted from both" in result.stderr
    assert "mu-klaw-mp01-150dpi.png" in result.stderr and "mu-klaw-mp01-clean.png" in result.stderr
