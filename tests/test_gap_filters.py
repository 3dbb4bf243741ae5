"""`cardkit gaps` filters, alone and combined, on a frozen copy of Klaw."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

KLAW = "cards/marvel-united/multiverse-ks-promos/klaw.yaml"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / KLAW).parent.mkdir(parents=True)
    shutil.copyfile(ROOT / "tests" / "data" / "klaw.yaml", tmp_path / KLAW)
    return tmp_path


def _fields(repo: Path, *options: str) -> list[str]:
    result = run_cli(["gaps", "cards", "--format", "json", *options], cwd=repo)
    assert result.returncode == 0, result.stderr
    return [g["field"] for g in json.loads(result.stdout)["gaps"]]


# Klaw as imported: 12 unconfirmed placements (its note folds into them) and MU108 on
# the Dashboard (no Villainous Plot is transcribed).
PLACES = [f"masterplan/cards/{n}/place" for n in range(1, 13)]


@pytest.mark.parametrize(
    "options,expected",
    [
        ((), [*PLACES, "dashboard"]),
        (("--origin", "inferred"), ["dashboard"]),
        (("--origin", "unconfirmed"), PLACES),
        (("--origin", "noted"), []),
        (("--kind", "masterplan"), PLACES),
        (("--kind", "dashboard"), ["dashboard"]),
        (("--kind", "villain"), [*PLACES, "dashboard"]),
        (("--field", "place"), PLACES),
        (("--field", "masterplan/cards/3"), ["masterplan/cards/3/place"]),
        (("--id", "klaw", "--box", "multiverse-ks-promos"), [*PLACES, "dashboard"]),
        (("--box", "ks-promos"), []),
        (("--kind", "masterplan", "--origin", "inferred"), []),
        (("--field", "masterplan/cards/3", "--field", "masterplan/cards/4"), PLACES[2:4]),
    ],
)
def test_filters_combine(repo: Path, options: tuple[str, ...], expected: list[str]) -> None:
    assert _fields(repo, *options) == expected


def test_a_filtered_checklist_is_the_sitting(repo: Path) -> None:
    text = run_cli(["gaps", "cards", "--format", "csv", "--field", "place"], cwd=repo).stdout
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["address"] for r in rows] == PLACES
    # the current value is whole: a placement with its kept wording is never clipped
    assert all(json.loads(r["current"]) for r in rows)
    assert {r["check"] for r in rows} == {f"{KLAW}#{n}" for n in range(1, 13)}


def test_a_typo_names_candidates_and_a_bad_origin_is_usage(repo: Path) -> None:
    result = run_cli(["gaps", "cards", "--id", "klw"], cwd=repo)
    assert result.returncode == 0
    assert "--id 'klw' (did you mean 'klaw'?) matches no gap here" in result.stderr
    bad = run_cli(["gaps", "cards", "--origin", "guessed"], cwd=repo)
    assert bad.returncode == 2 and "--origin takes noted, unconfirmed, inferred" in bad.stderr
