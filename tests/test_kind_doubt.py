"""CK203: a draft whose kind the evidence did not decide validates only while that doubt
is an open gap. The drafts are written here by hand, in the shape docs/ocr.md gives."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli

DRAFT = """\
kind: marvel-united/threat-card
id: banishment
card:
  name: Banishment
  text: Each Civilian in this Location requires 1 extra Heroic Action token to be rescued.
unconfirmed: [kind]
gaps:
  - note: 'kind: threat-card (no MOVE label) over masterplan-card (a lone number)'
    fields: [kind]
    status: {status}
"""


def _write(tmp_path: Path, status: str) -> Path:
    path = tmp_path / "banishment.yaml"
    path.write_text(DRAFT.replace("{status}", status), encoding="utf-8")
    return path


def test_a_doubted_kind_with_its_gap_open_validates(tmp_path: Path) -> None:
    _write(tmp_path, "open")
    result = run_cli(["validate", "banishment.yaml"], cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert "CK203" not in result.stdout


def test_a_doubted_kind_whose_gap_was_closed_by_hand_is_an_error(tmp_path: Path) -> None:
    _write(tmp_path, "resolved")
    result = run_cli(["validate", "banishment.yaml"], cwd=tmp_path)
    assert result.returncode == 1
    # the mark is the first item of `unconfirmed`, on line 6, column 15
    assert (
        "banishment.yaml:6:15: CK203 kind is unconfirmed but no open gap lists it" in result.stdout
    )


def test_a_doubted_kind_whose_gap_names_other_fields_is_an_error(tmp_path: Path) -> None:
    path = _write(tmp_path, "open")
    path.write_text(path.read_text().replace("fields: [kind]", "fields: [card/name]"))
    result = run_cli(["validate", "banishment.yaml"], cwd=tmp_path)
    assert result.returncode == 1 and "CK203" in result.stdout


def test_confirming_the_kind_closes_the_doubt_and_the_draft_validates(tmp_path: Path) -> None:
    path = _write(tmp_path, "open")
    done = run_cli(["confirm", str(path), "kind", "--by", "me", "--evidence", "card"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    text = path.read_text()
    assert "status: resolved" in text and "unconfirmed: [kind]" not in text
    result = run_cli(["validate", "banishment.yaml"], cwd=tmp_path)
    assert result.returncode == 0, result.stdout
