"""`confirm --value` adds any field the kind's schema allows where the address points, also
on a one-card document (an OCR draft) where no other card shows the field: the README's
"`--value` adds a field the card lacks". The result is validated as before."""

from __future__ import annotations

from pathlib import Path

from cardkit.files import yamlio
from tests.conftest import run_cli

ARGS = ["--by", "ana", "--evidence", "the card in hand", "--date", "2026-12-01"]

MASTERPLAN_DRAFT = """\
# an OCR draft that missed Move and the placement
kind: marvel-united/masterplan-card
id: dark-mp07
card:
  n: 7
  bam: false
unconfirmed: [card/n]
"""

SCHEME_DRAFT = """\
kind: marvel-champions/card
id: 01097a
code: 01097a
name: The Break-In!
type_code: main_scheme
threat: 7
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_one_card_draft_gets_a_field_its_schema_allows(tmp_path: Path) -> None:
    path = _write(tmp_path, "dark7.yaml", MASTERPLAN_DRAFT)
    result = run_cli(["confirm", str(path), "card/move", "--value", "5", *ARGS], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    place = "{left: {civilian: 1}, right: {thug: 2}}"
    result = run_cli(["confirm", str(path), "card/place", "--value", place, *ARGS], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = yamlio.load_text(path.read_text())
    assert data["card"]["move"] == 5
    assert data["card"]["place"] == {"left": {"civilian": 1}, "right": {"thug": 2}}
    records = {r["field"]: r for r in data["card"]["confirmations"]}  # kept on the card
    assert records["move"]["previous"] == "absent" and records["move"]["value"] == 5
    assert records["place"]["previous"] == "absent"
    assert path.read_text().startswith("# an OCR draft that missed Move")  # comments kept
    assert run_cli(["validate", str(path)], cwd=tmp_path).returncode == 0


def test_a_top_level_field_of_a_champions_card(tmp_path: Path) -> None:
    path = _write(tmp_path, "01097a.yaml", SCHEME_DRAFT)
    result = run_cli(
        ["confirm", str(path), "base_threat_fixed", "--value", "true", *ARGS], cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert yamlio.load_text(path.read_text())["base_threat_fixed"] is True


def test_a_name_the_schema_lacks_is_still_a_typo(tmp_path: Path) -> None:
    path = _write(tmp_path, "dark7.yaml", MASTERPLAN_DRAFT)
    result = run_cli(["confirm", str(path), "card/mvoe", "--value", "5", *ARGS], cwd=tmp_path)
    assert result.returncode == 2
    assert "no field 'mvoe' at 'card'" in result.stderr and "'move'" in result.stderr
    assert path.read_text() == MASTERPLAN_DRAFT


def test_a_value_the_schema_refuses_writes_nothing(tmp_path: Path) -> None:
    path = _write(tmp_path, "dark7.yaml", MASTERPLAN_DRAFT)
    result = run_cli(["confirm", str(path), "card/move", "--value", "-3", *ARGS], cwd=tmp_path)
    assert result.returncode == 1
    assert "refused" in result.stderr and "nothing was written" in result.stderr
    assert path.read_text() == MASTERPLAN_DRAFT
