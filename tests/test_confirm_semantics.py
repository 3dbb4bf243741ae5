"""What a confirmation means: card numbers, vocabulary, dropped slots, absent fields,
repeats, undo, and marks that name no field. On frozen copies, never the live cards/."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from cardkit.files import yamlio
from tests.conftest import ROOT, run_cli

KLAW = "cards/marvel-united/multiverse-ks-promos/klaw.yaml"
DYNAMO = "cards/marvel-united/multiverse-ks-promos/crimson-dynamo.yaml"
ARGS = ["--by", "ana", "--evidence", "card file at 600 dpi", "--date", "2026-11-29"]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / KLAW).parent.mkdir(parents=True)
    shutil.copyfile(ROOT / "tests" / "data" / "klaw.yaml", tmp_path / KLAW)
    shutil.copyfile(ROOT / "tests" / "data" / "crimson-dynamo.yaml", tmp_path / DYNAMO)
    box = (tmp_path / KLAW).parent / "box.yaml"
    shutil.copyfile(ROOT / "tests" / "data" / "multiverse-box.yaml", box)
    return tmp_path


def _card(repo: Path, path: str, n: int) -> dict[str, Any]:
    data = yamlio.load_text((repo / path).read_text())
    return next(c for c in data["masterplan"]["cards"] if c["n"] == n)


def _confirm(
    repo: Path, target: str, address: str, *more: str, value: str | None = None
) -> subprocess.CompletedProcess[str]:
    """`cardkit confirm TARGET ADDRESS [--value VALUE] MORE... --by ana ...` in the copy."""
    given = ["--value", value] if value is not None else []
    return run_cli(["confirm", target, address, *given, *more, *ARGS], cwd=repo)


def _undo(repo: Path, target: str, address: str) -> subprocess.CompletedProcess[str]:
    return run_cli(["confirm", "--undo", target, address], cwd=repo)


@contextmanager
def _untouched(path: Path) -> Iterator[None]:
    """The file's bytes are the same after the block as before it."""
    before = path.read_bytes()
    yield
    assert path.read_bytes() == before


def test_a_typo_in_a_token_name_is_refused_with_the_closest_name(repo: Path) -> None:
    with _untouched(repo / KLAW):
        value = "{left: {thgu: 2}, right: {thug: 1}}"
        result = _confirm(repo, "klaw", "masterplan/cards/4/place", value=value)
        assert result.returncode == 1
        assert "unknown marvel-united token 'thgu'; did you mean 'thug'?" in result.stderr


def test_a_table_of_numbers_is_not_taken_for_token_counts(repo: Path) -> None:
    value = "{heroes: {'2': 5, '3': 8, '4': 7}}"
    result = _confirm(repo, "klaw", "dashboard/player_count", value=value)
    assert result.returncode == 0, result.stderr
    data = yamlio.load_text((repo / KLAW).read_text())
    assert data["dashboard"]["player_count"] == {"heroes": {"2": 5, "3": 8, "4": 7}}


def test_a_value_that_drops_a_slot_needs_replace(repo: Path) -> None:
    with _untouched(repo / KLAW):
        dropped = _confirm(repo, "klaw", "masterplan/cards/4/place", value="{left: {thug: 2}}")
        assert dropped.returncode == 1
        assert "leaves out slot(s) right" in dropped.stderr and "--replace" in dropped.stderr
    replaced = _confirm(
        repo, "klaw", "masterplan/cards/4/place", "--replace", value="{left: {thug: 2}}"
    )
    assert replaced.returncode == 0, replaced.stderr
    assert _card(repo, KLAW, 4)["place"] == {"left": {"thug": 2}}


def test_a_missing_field_is_added_with_previous_absent(repo: Path) -> None:
    assert "place" not in _card(repo, DYNAMO, 9)
    bare = _confirm(repo, DYNAMO, "masterplan/cards/9/place")
    assert bare.returncode == 2 and "give --value to add it" in bare.stderr
    value = "{left: {thug: 1}, villain: {thug: 1}, right: {thug: 1}}"
    result = _confirm(repo, DYNAMO, "masterplan/cards/9/place", value=value)
    assert result.returncode == 0, result.stderr
    card = _card(repo, DYNAMO, 9)
    assert card["place"] == {"left": {"thug": 1}, "villain": {"thug": 1}, "right": {"thug": 1}}
    assert "unconfirmed" not in card
    assert card["confirmations"][-1]["previous"] == "absent"
    assert run_cli(["validate", DYNAMO], cwd=repo).returncode == 0


def test_rerunning_a_batch_changes_nothing(repo: Path, tmp_path: Path) -> None:
    text = run_cli(["gaps", KLAW, "--format", "csv"], cwd=repo).stdout
    rows = list(csv.DictReader(io.StringIO(text)))
    rows[0]["evidence"] = "card file"
    rows[1]["evidence"] = "card file"
    rows[1]["value"] = "{left: {thug: 2}, right: {thug: 1}}"
    checklist = tmp_path / "checklist.csv"
    with checklist.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    first = run_cli(["confirm", "--batch", str(checklist), "--by", "ana", "--date", "2026-11-29"],
                    cwd=repo)  # fmt: skip
    assert first.returncode == 0, first.stderr
    after_first = (repo / KLAW).read_bytes()
    again = run_cli(["confirm", "--batch", str(checklist), "--by", "ana", "--date", "2026-11-30"],
                    cwd=repo)  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert (repo / KLAW).read_bytes() == after_first
    assert "unchanged masterplan/cards/1/place" in again.stdout
    records = _card(repo, KLAW, 2)["confirmations"]
    assert len(records) == 1


def test_undo_brings_back_the_previous_value_and_the_mark(repo: Path) -> None:
    original = _card(repo, KLAW, 4)
    value = "{left: {thug: 2}, right: {thug: 1}}"
    _confirm(repo, "klaw", "masterplan/cards/4/place", value=value)
    assert _card(repo, KLAW, 4)["place"] != original["place"]
    result = _undo(repo, "klaw", "masterplan/cards/4/place")
    assert result.returncode == 0, result.stderr
    assert "undid masterplan/cards/4/place" in result.stdout
    card = _card(repo, KLAW, 4)
    assert card["place"] == original["place"] and card["unconfirmed"] == ["place"]
    assert "confirmations" not in card
    nothing = _undo(repo, "klaw", "masterplan/cards/4/place")
    assert nothing.returncode == 2 and "no confirmation to undo" in nothing.stderr


def test_undo_of_an_added_field_removes_it(repo: Path) -> None:
    value = "{left: {thug: 1}, right: {thug: 1}}"
    _confirm(repo, DYNAMO, "masterplan/cards/10/place", value=value)
    _undo(repo, DYNAMO, "masterplan/cards/10/place")
    card = _card(repo, DYNAMO, 10)
    assert "place" not in card and card["unconfirmed"] == ["place"]


def test_a_card_number_that_is_not_in_the_deck_lists_the_card_numbers(repo: Path) -> None:
    result = _confirm(repo, "klaw", "masterplan/cards/13/place")
    assert result.returncode == 2
    assert "no item '13' in 'masterplan/cards'" in result.stderr
    assert "choose one of: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12" in result.stderr


def test_a_mark_naming_no_field_is_a_validate_error(repo: Path) -> None:
    path = repo / KLAW
    path.write_text(path.read_text().replace("unconfirmed: [place]", "unconfirmed: [plcae]", 1))
    result = run_cli(["validate", KLAW], cwd=repo)
    assert result.returncode == 1
    assert "CK202" in result.stdout and "unconfirmed 'plcae' names no field here" in result.stdout
    assert "did you mean 'place'?" in result.stdout


def test_a_typo_in_a_field_name_lists_candidates_and_adds_nothing(repo: Path) -> None:
    with _untouched(repo / KLAW):
        result = _confirm(repo, "klaw", "masterplan/cards/3/plcae", value="{left: {thug: 1}}")
        assert result.returncode == 2
        assert "no field 'plcae' at 'masterplan/cards/3'; did you mean 'place'?" in result.stderr


def test_a_confirmation_undone_leaves_the_file_as_it_was(repo: Path) -> None:
    before = (repo / KLAW).read_bytes()
    done = _confirm(repo, "klaw", "masterplan/cards/1/place")
    assert done.returncode == 0 and (repo / KLAW).read_bytes() != before, done.stderr
    undone = _undo(repo, "klaw", "masterplan/cards/1/place")
    assert undone.returncode == 0, undone.stderr
    assert (repo / KLAW).read_bytes() == before  # the mark comes back as `[place]`, in flow
