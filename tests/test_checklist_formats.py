"""Checklists as spreadsheets save them: comma or semicolon, UTF-8 with or without the
byte-order mark, UTF-16, cp1252; or refused with the real reason, naming only the bad row."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from cardkit.files import yamlio
from tests.conftest import ROOT, run_cli

VILLAIN = "cards/baron-zemo.yaml"
# two text fields of Baron Zemo's threat cards, unconfirmed in the seed file
MOONSTONE, MIMI = "threats/cards/Moonstone/text", "threats/cards/Screaming Mimi/text"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "cards").mkdir()
    shutil.copy(ROOT / "cards/marvel-united/ks-promos/baron-zemo.yaml", tmp_path / VILLAIN)
    return tmp_path


def _rows(repo: Path) -> list[dict[str, str]]:
    listed = run_cli(["gaps", "cards", "--format", "csv"], cwd=repo)
    assert listed.returncode == 0, listed.stderr
    return list(csv.DictReader(io.StringIO(listed.stdout)))


def _sheet(rows: list[dict[str, str]], delimiter: str) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), delimiter=delimiter)
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def _filled(repo: Path, evidence: dict[str, str], values: dict[str, str] | None = None) -> str:
    rows = _rows(repo)
    for row in rows:
        if row["address"] in evidence:
            row["evidence"], row["by"] = evidence[row["address"]], "ana"
            row["value"] = (values or {}).get(row["address"], "")
    return _sheet(rows, ",")


def _evidence(repo: Path, address: str) -> str:
    data = yamlio.load_text((repo / VILLAIN).read_text(encoding="utf-8"))
    name = address.split("/")[2]
    card = next(c for c in data["threats"]["cards"] if c["name"] == name)
    return str(card["confirmations"][-1]["evidence"])


@pytest.mark.parametrize(
    ("delimiter", "encoding"),
    [
        (",", "utf-8"),
        (",", "utf-8-sig"),  # Excel's "CSV UTF-8"
        (";", "utf-8-sig"),  # the same in a European locale
        (";", "cp1252"),  # Excel's plain "CSV" on Windows, European locale
        ("\t", "utf-16"),  # Excel's "Unicode text"
    ],
)
def test_a_spreadsheet_saved_checklist_is_applied(
    repo: Path, delimiter: str, encoding: str
) -> None:
    rows = _rows(repo)
    for row in rows:
        if row["address"] == MOONSTONE:
            row["evidence"], row["by"] = "carte vérifiée à l'œil", "ana"
    (repo / "list.csv").write_bytes(_sheet(rows, delimiter).encode(encoding))
    done = run_cli(["confirm", "--batch", "list.csv"], cwd=repo)
    assert done.returncode == 0, done.stderr
    assert _evidence(repo, MOONSTONE) == "carte vérifiée à l'œil"


def test_a_header_without_the_checklist_columns_says_so(repo: Path) -> None:
    (repo / "list.csv").write_text("file|where|seen\ncards/x.yaml|a|b\n", encoding="utf-8")
    done = run_cli(["confirm", "--batch", "list.csv"], cwd=repo)
    assert done.returncode == 2
    assert "list.csv:1: the header has no 'path' or 'evidence' column" in done.stderr
    assert "no row has its evidence column filled in" not in done.stderr


def test_only_the_bad_row_is_named(repo: Path) -> None:
    text = _filled(repo, {MOONSTONE: "photo", MIMI: "photo"}, {MIMI: "{a: 1}"})
    (repo / "list.csv").write_text(text, encoding="utf-8")
    done = run_cli(["confirm", "--batch", "list.csv"], cwd=repo)
    assert done.returncode == 2
    lines = text.splitlines()
    bad = next(n for n, line in enumerate(lines, start=1) if line.startswith(f"{VILLAIN},28,"))
    good = next(n for n, line in enumerate(lines, start=1) if line.startswith(f"{VILLAIN},24,"))
    assert f"list.csv row {bad}" in done.stderr and f"list.csv row {good}" not in done.stderr
    assert f"{MIMI}: an object is not valid here" in done.stderr


def test_a_row_whose_cells_slid_is_named_alone(repo: Path) -> None:
    text = _filled(repo, {MOONSTONE: "photo"})
    lines = text.splitlines()
    number = next(n for n, line in enumerate(lines, start=1) if f",{MIMI}," in line)
    lines[number - 1] += ",ana,seen, then checked again"  # an unquoted comma in a cell
    (repo / "list.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run_cli(["confirm", "--batch", "list.csv"], cwd=repo)
    assert done.returncode == 2
    assert f"list.csv row {number}: 18 cells where the header has 15" in done.stderr
    assert done.stderr.count("list.csv row") == 1
