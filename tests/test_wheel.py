"""A built wheel carries its schemas and vocabularies: it validates cards from anywhere."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def test_wheel_validates_cards_from_another_directory(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = dist.glob("cardkit-*.whl")
    site = tmp_path / "site"
    installed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(site),
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert installed.returncode == 0, installed.stderr
    assert not (site / "cardkit" / "schemas_data").is_symlink()
    work = tmp_path / "elsewhere"
    shutil.copytree(ROOT / "tests" / "cases" / "valid", work / "cards")
    shutil.copytree(ROOT / "docs" / "examples", work / "cards" / "examples")
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("CARDKIT_SCHEMAS", None)
    where = subprocess.run(
        [sys.executable, "-c", "import cardkit; print(cardkit.__file__)"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
    )
    assert where.stdout.startswith(str(site)), where.stdout + where.stderr
    result = subprocess.run(
        [sys.executable, "-m", "cardkit", "validate", "cards"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "CK006" not in result.stdout, result.stdout
    # the valid cases and examples carry rule warnings at most: no error, so exit 0
    assert result.returncode == 0, result.stdout + result.stderr
    assert " 0 error(s)" in result.stdout or "no problems" in result.stdout, result.stdout
    kinds = subprocess.run(
        [sys.executable, "-m", "cardkit", "kinds"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
    )
    assert "villainous/card" in kinds.stdout
    # issue 20: an installed cardkit writes a modeline into the repository, not the install
    made = subprocess.run(
        [sys.executable, "-m", "cardkit", "new", "masterplan-card", "mp1"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    modeline = (work / "mp1.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert modeline == (
        "# yaml-language-server: $schema=schemas/marvel-united/masterplan-card.schema.json"
    )
    assert "`cardkit schema --export schemas`" in made.stderr
