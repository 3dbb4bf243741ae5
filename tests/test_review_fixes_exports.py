"""Review fixes: an export that skips an unreadable file says so in its exit code.

docs/cli.md: exit 1 when not all of the work could be done; a skipped file is cards that
were not exported, so the run cannot end 0 (as `export marvelsdb` already does).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

BROKEN = "kind: marvel-united/villain\nid: [broken\n"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    cards = tmp_path / "cards"
    cards.mkdir()
    shutil.copy(ROOT / "tests/data/klaw.yaml", cards / "klaw.yaml")
    (cards / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    return cards


@pytest.mark.parametrize(
    "verb", [["tts"], ["csv"], ["images", "--dpi", "72"]], ids=["tts", "csv", "images"]
)
def test_an_export_with_a_skipped_file_exits_1(folder: Path, verb: list[str]) -> None:
    out = folder.parent / "out"
    result = run_cli(["export", verb[0], str(folder), "--out", str(out), *verb[1:]])
    assert "broken.yaml" in result.stderr and "(skipped)" in result.stderr
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 file(s) skipped" in result.stdout
    assert any(out.iterdir())  # the readable card was still exported


def test_a_mu_db_export_with_a_skipped_file_exits_1(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    box = ROOT / "tests/data/mudb/handmade-box.json"
    run_cli(["import", "mu-db", str(box), "--out", str(cards)])
    clean = run_cli(["export", "mu-db", str(cards), "--out", str(tmp_path / "a")])
    assert clean.returncode == 0, clean.stderr  # the box alone exports cleanly
    (cards / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    result = run_cli(["export", "mu-db", str(cards), "--out", str(tmp_path / "b")])
    assert "broken.yaml" in result.stderr and "(skipped)" in result.stderr
    assert result.returncode == 1, result.stdout + result.stderr
    assert (tmp_path / "b" / "handmade-box.json").is_file()


def test_a_proof_with_a_skipped_file_exits_1(folder: Path) -> None:
    out = folder.parent / "proof.pdf"
    result = run_cli(["proof", str(folder), "--out", str(out)])
    assert "broken.yaml" in result.stderr and "(skipped)" in result.stderr
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 file(s) skipped" in result.stdout
    assert out.is_file()  # the readable card was still printed
