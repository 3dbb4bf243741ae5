"""End to end with the real tesseract: the synthetic Villainous samples (fate cards, and
villain-deck cards in light ink on a dark panel; benchmarks/make_samples_vc.py) become
validating drafts holding the printed title, type, cost and strength."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT

SAMPLES = ROOT / "scans" / "samples" / "villainous"

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract")


def test_villainous_samples_become_validating_drafts_with_the_printed_values(cli, tmp_path):
    scans = tmp_path / "scans" / "villainous"
    scans.mkdir(parents=True)
    chosen = sorted(p.name for p in SAMPLES.glob("*-clean.png"))
    assert any("-villain-" in name for name in chosen) and any("-fate-" in name for name in chosen)
    for name in chosen:
        shutil.copy(SAMPLES / name, scans / name)
    out = tmp_path / "drafts"
    assert cli(["ocr", str(scans), "--out", str(out), "--jobs", "1"]).returncode == 0
    checked = cli(["validate", str(out)])
    assert checked.returncode == 0, checked.stdout + checked.stderr
    for name in chosen:
        stem = Path(name).stem
        truth = yaml.safe_load((SAMPLES / f"{stem}.truth.yaml").read_text(encoding="utf-8"))
        draft = yaml.safe_load((out / f"{stem}.yaml").read_text(encoding="utf-8"))
        assert (draft["deck"], draft["title"], draft["type"]) == (
            truth["card"],
            truth["title"],
            truth["type"],
        ), stem
        for field in ("cost", "strength"):
            want = int(truth[field]) if truth.get(field) else None
            assert draft.get(field) == want, (stem, field)
        assert draft["ability"] == truth["text"], stem
