"""The synthetic samples of one system (scans/samples/<system>/, made by benchmarks/), read
by the real `cardkit ocr` and validated: shared by the end-to-end sample tests."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml

from tests.conftest import ROOT


def drafts_of_samples(
    cli: Any, tmp_path: Path, system: str, pattern: str | list[str]
) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(stem, truth, draft) for every sample matching `pattern` (a glob, or the file names
    themselves, in that order), read into validating drafts."""
    samples = ROOT / "scans" / "samples" / system
    scans = tmp_path / "scans" / system
    scans.mkdir(parents=True)
    if isinstance(pattern, str):
        chosen = sorted(p.name for p in samples.glob(pattern))
    else:
        chosen = list(pattern)
    assert len(chosen) >= 3
    for name in chosen:
        shutil.copy(samples / name, scans / name)
    out = tmp_path / "drafts"
    read = cli(["ocr", str(scans), "--out", str(out), "--jobs", "1"])
    assert read.returncode == 0, read.stderr
    checked = cli(["validate", str(out)])
    assert checked.returncode == 0, checked.stdout + checked.stderr
    found = []
    for name in chosen:
        stem = Path(name).stem
        truth = yaml.safe_load((samples / f"{stem}.truth.yaml").read_text(encoding="utf-8"))
        draft = yaml.safe_load((out / f"{stem}.yaml").read_text(encoding="utf-8"))
        found.append((stem, truth, draft))
    return found
