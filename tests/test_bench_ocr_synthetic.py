"""benchmarks/ocr_synthetic.py (run by `make bench`) scores Marvel United samples only: a
samples folder that also holds other games' truth files is read without a crash."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

SAMPLES = ROOT / "scans" / "samples"


def test_other_games_samples_are_skipped_and_counted(tmp_path: Path) -> None:
    for game, stem, ext in [
        ("marvel-united", "mu-klaw-mp01-clean", ".png"),
        ("villainous", "v-ending-the-game-villain-clean", ".png"),
        ("marvel-champions", "mc-kingpin-side-clean", ".png"),
    ]:
        (tmp_path / game).mkdir()
        for name in (stem + ext, stem + ".truth.yaml"):
            shutil.copy(SAMPLES / game / name, tmp_path / game / name)
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "ocr_synthetic.py"), "--samples", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    rows = {line.split("|")[1].strip(): line for line in done.stdout.splitlines() if "|" in line}
    assert rows["clean"].split("|")[2].strip() == "1"  # the one Marvel United scan
    assert rows["all synthetic"].split("|")[2].strip() == "1"
    assert "(2 samples of other games skipped" in done.stdout
