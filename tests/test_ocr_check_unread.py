"""`cardkit ocr --check` compares what a scan can read: a Master Plan card's placement by its
token counts, leaving out the sentence a transcriber wrote beside them (`place.text`, which
equivalents.yaml declares unread). Real tesseract on a copy of a synthetic sample."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

SCAN = ROOT / "scans" / "samples" / "marvel-united" / "mu-klaw-mp01-clean.png"


def _check(tmp_path: Path, counts: str) -> tuple[int, list[str], list[dict[str, str]]]:
    card = tmp_path / "cards" / "klaw.yaml"
    card.parent.mkdir()
    text = (ROOT / "tests" / "data" / "klaw.yaml").read_text()
    wrote = "        left: {civilian: 1}\n        right: {civilian: 1}\n        text: Place 1"
    assert wrote in text  # card 1 of the fixture: counts and their sentence
    card.write_text(text.replace(wrote, counts + "\n        text: Place 1", 1))
    shutil.copy(SCAN, tmp_path / "klaw-1.png")
    result = run_cli(
        [
            "ocr",
            "klaw-1.png",
            "--out",
            "out",
            "--check",
            "cards",
            "--against",
            "klaw/masterplan/cards/1",
        ],
        cwd=tmp_path,
    )
    lines = [line for line in result.stdout.splitlines() if "masterplan/cards/1/place:" in line]
    rows = list(csv.DictReader((tmp_path / "out" / "checklist.csv").open()))
    return result.returncode, lines, rows


def test_a_placement_whose_counts_agree_agrees_beside_its_sentence(tmp_path: Path) -> None:
    code, lines, rows = _check(
        tmp_path, "        left: {civilian: 1}\n        right: {civilian: 1}"
    )
    assert len(lines) == 1 and "/place: agree: " in lines[0], lines
    assert code == 0
    place = [r for r in rows if r["address"] == "masterplan/cards/1/place"]
    assert all("agrees with the file" in r["evidence"] for r in place)


def test_a_placement_whose_counts_differ_still_disagrees(tmp_path: Path) -> None:
    code, lines, rows = _check(
        tmp_path, "        right: {civilian: 1}\n        left: {civilian: 2}"
    )
    assert len(lines) == 1 and "/place: disagree: " in lines[0], lines
    assert code == 1
    assert any(
        r["address"] == "masterplan/cards/1/place" and "differs from the file" in r["evidence"]
        for r in rows
    )


def test_unread_of_another_shape_is_refused_with_its_position() -> None:
    from cardkit.errors import UsageError
    from cardkit.ocr.compare import parse_equivalents

    text = "- at: {x/card: card}\n  unread: {place: text}\n"
    with pytest.raises(UsageError) as refused:
        parse_equivalents(text, "eq.yaml")
    assert str(refused.value) == (
        "eq.yaml:2:11: entry 1: `unread` must map a field to a list of its parts"
    )
    (entry,) = parse_equivalents("- at: {x/card: card}\n  unread: {place: [text]}\n", "eq.yaml")
    assert entry.unread == {"place": ("text",)}
