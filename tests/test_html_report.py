"""build/index.html as a browser shows it: headless Chromium renders the real page."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from tests.conftest import ROOT, run_cli

CHROMIUM = shutil.which("chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing in CI: `make test` installs it")
        pytest.skip("Chromium is not installed (sudo apt-get install -y chromium)")
    profile = tmp_path / "profile"
    return subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("repo")
    for part in ("cards", "scans"):
        shutil.copytree(ROOT / part, repo / part)
    result = run_cli(["build"], cwd=repo)
    assert result.returncode == 0, result.stderr
    return repo / "build"


def test_the_page_lists_what_the_json_reports_say(built: Path, tmp_path: Path) -> None:
    dom = _chromium(tmp_path, "--dump-dom", (built / "index.html").as_uri()).stdout
    validate = json.loads((built / "validate.json").read_text())
    gaps = json.loads((built / "gaps.json").read_text())
    assert dom.count('<tr class="diagnostic ') == len(validate["diagnostics"])
    assert dom.count('<tr class="gap open">') == gaps["summary"]["open"]
    assert f'<div class="stat" id="stat-errors"><b>{validate["summary"]["errors"]}</b>' in dom
    assert dom.count("<li>") == 5 and "0 unrepresented lines" in dom
    assert '<a href="proofs.pdf">' in dom and 'src="proofs-001.png"' in dom
    assert (built / "proofs-001.png").exists()


def test_the_page_renders(built: Path, tmp_path: Path) -> None:
    shot = tmp_path / "page.png"
    _chromium(
        tmp_path, "--window-size=1200,900", f"--screenshot={shot}", (built / "index.html").as_uri()
    )
    image = Image.open(shot).convert("RGB")
    assert image.size == (1200, 900)
    assert image.getpixel((600, 10)) == (0x26, 0x2C, 0x45)  # the header band
    small = image.resize((120, 90))
    colours = len({small.getpixel((x, y)) for x in range(120) for y in range(90)})
    assert colours > 20  # text and tables, not a blank page
