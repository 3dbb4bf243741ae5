"""What a new user's trial found: warnings about cards not asked for, a false "not read"."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.conftest import ROOT, run_cli


def test_a_selected_proof_warns_only_about_what_it_prints(tmp_path: Path) -> None:
    everything = run_cli(["proof", "--out", str(tmp_path / "all.pdf")])
    assert "no card file in this tree" in everything.stderr  # the tree has decklists
    klaw = run_cli(["proof", "--id", "klaw", "--out", str(tmp_path / "k.pdf")])
    assert klaw.returncode == 0, klaw.stderr
    assert "decklist" not in klaw.stderr


def test_a_master_plan_printing_no_effect_is_not_called_unread(tmp_path: Path) -> None:
    scan = ROOT / "scans" / "samples" / "marvel-united" / "mu-baron-zemo-mp12-clean.png"
    truth = yaml.safe_load(scan.with_suffix(".truth.yaml").read_text())
    assert truth["effects"] == []  # the card prints none
    result = run_cli(["ocr", str(scan), "--out", str(tmp_path)])
    assert result.returncode == 0, result.stderr
    draft = yaml.safe_load((tmp_path / "mu-baron-zemo-mp12-clean.yaml").read_text())
    assert "card/effects" not in draft.get("unconfirmed", [])
    assert draft["provenance"]["mean_confidence"] > 0.5
