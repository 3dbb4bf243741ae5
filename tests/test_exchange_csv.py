"""CSV for template tools: a row per card, a column per field, icons as {token}."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

from cardkit.exchange import csv_export
from cardkit.files import yamlio
from tests.conftest import ROOT, run_cli

VILLAIN = """\
kind: marvel-united/villain
id: test-villain
name: Test Villain
threats:
  cards:
    - {name: Loud Noise, copies: 2, text: Heroes here lose 1 action.}
masterplan:
  cards:
    - n: 1
      move: 2
      bam: true
      effects: [{name: Rumble, text: Deal 1 damage.}]
      place: {left: {civilian: 2, thug: 1}, right: {thug: 1}}
    - n: 2
      move: 0
      place: none
"""


def test_a_villain_gives_a_row_per_card_with_tokens_as_marks() -> None:
    text = csv_export.to_csv([yamlio.load_text(VILLAIN)])
    assert text == (
        "document,deck,qty,unconfirmed,name,copies,text,n,move,bam,effects,place.left,"
        "place.right,place\n"
        "test-villain,Test Villain · threats,2,,Loud Noise,2,Heroes here lose 1 action.,,,,,,,\n"
        "test-villain,Test Villain · masterplan,1,,,,,1,2,true,Rumble: Deal 1 damage.,"
        "{civilian}{civilian}{thug},{thug},\n"
        "test-villain,Test Villain · masterplan,1,,,,,2,0,,,,,none\n"
    )


def test_marvelsdb_markup_becomes_template_marks() -> None:
    card = {
        "kind": "marvel-champions/card",
        "id": "90001",
        "code": "90001",
        "name": "Example Heist",
        "quantity": 3,
        "traits": "Criminal.",
        "text": "<b>When Revealed</b>: Place 1 [per_hero] threat here. [[Criminal]] minions get +1 [boost].",
        "unconfirmed": ["text"],
    }
    (row,) = list(csv.DictReader(io.StringIO(csv_export.to_csv([card]))))
    assert row == {
        "document": "90001",
        "deck": "Example Heist",
        "qty": "3",
        "unconfirmed": "text",
        "code": "90001",
        "name": "Example Heist",
        "quantity": "3",
        "traits": "Criminal.",
        "text": "<b>When Revealed</b>: Place 1 {per_hero} threat here. "
        "<b><i>Criminal</i></b> minions get +1 {boost}.",
    }


def test_cli_chooses_a_kind_or_writes_one_file_per_kind(tmp_path: Path) -> None:
    (tmp_path / "villain.yaml").write_text(VILLAIN, encoding="utf-8")
    (tmp_path / "hero.yaml").write_text(
        "kind: marvel-united/hero\nid: test-hero\nname: Test Hero\n"
        "cards:\n  - {name: Punch, copies: 3, text: Deal 1 damage.}\n",
        encoding="utf-8",
    )
    both = run_cli(["export", "csv", str(tmp_path)])
    assert both.returncode == 2
    assert "choose one with --kind" in both.stderr and "Traceback" not in both.stderr
    hero = run_cli(["export", "csv", str(tmp_path), "--kind", "marvel-united/hero"])
    assert hero.returncode == 0, hero.stderr
    assert (
        hero.stdout == "document,deck,qty,unconfirmed,name,copies,text\n"
        "test-hero,Test Hero,3,,Punch,3,Deal 1 damage.\n"
    )
    wrong = run_cli(["export", "csv", str(tmp_path), "--kind", "marvel-united/heroes"])
    assert (
        wrong.returncode == 2
        and "--kind 'marvel-united/heroes' matches nothing here; did you mean 'marvel-united/hero'?"
        in wrong.stderr
    )
    out = tmp_path / "csv"
    files = run_cli(["export", "csv", str(tmp_path), "--out", str(out)])
    assert files.returncode == 0, files.stderr
    assert sorted(p.name for p in out.iterdir()) == [
        "marvel-united-hero.csv",
        "marvel-united-villain.csv",
    ]
    rows = list(csv.DictReader((out / "marvel-united-villain.csv").open(encoding="utf-8")))
    assert [r["qty"] for r in rows] == ["2", "1", "1"]


def test_a_kind_is_chosen_by_its_short_name_when_only_one_kind_has_it(tmp_path: Path) -> None:
    (tmp_path / "v.yaml").write_text(VILLAIN)
    shutil.copy(
        ROOT / "cards" / "villainous" / "user-manual" / "captain-hook.yaml", tmp_path / "w.yaml"
    )
    short = run_cli(["export", "csv", "--kind", "masterplan-card", str(tmp_path)])
    assert short.returncode == 2 and "did you mean" not in short.stderr
    assert "known: marvel-united/villain, villain, villainous/villain\n" in short.stderr
    one = run_cli(["export", "csv", "--kind", "marvel-united/villain", str(tmp_path)])
    assert one.returncode == 0 and one.stdout.startswith("document,deck,qty"), one.stderr
    both = run_cli(["export", "csv", "--kind", "villain", str(tmp_path)])
    assert both.returncode == 2
    assert "marvel-united/villain, villainous/villain" in both.stderr
    typo = run_cli(["export", "csv", "--kind", "villian", str(tmp_path)])
    assert typo.returncode == 2 and "did you mean" in typo.stderr and "villain" in typo.stderr
    (tmp_path / "w.yaml").unlink()
    alone = run_cli(["export", "csv", "--kind", "villain", str(tmp_path)])
    assert alone.returncode == 0 and alone.stdout == one.stdout


DASHBOARD_VILLAIN = """\
kind: marvel-united/villain
id: test-villain
name: Test Villain
unconfirmed: [dashboard/bam, masterplan/cards/*/place]
dashboard:
  bam: Deal 1 damage.
  back:
    side: Super Villain
    starting_tokens: {text: one Action token., icons: [action]}
  unconfirmed: [back/starting_tokens]
masterplan:
  cards:
    - n: 1
      place: {left: {thug: 1}}
      gap: {note: the move is hard to read, status: open, fields: [move]}
    - n: 2
      place: none
      unconfirmed: [text]
"""


def test_each_card_names_its_open_fields_and_a_dashboard_gives_both_sides() -> None:
    table = list(
        csv.DictReader(io.StringIO(csv_export.to_csv([yamlio.load_text(DASHBOARD_VILLAIN)])))
    )
    assert [(r["deck"], r["printed_side"]) for r in table] == [
        ("Test Villain · dashboard", "front"),
        ("Test Villain · dashboard", "back"),
        ("Test Villain · masterplan", ""),
        ("Test Villain · masterplan", ""),
    ]
    front, back, first, second = table
    # the document's dashboard/bam, relative to the dashboard
    assert front["unconfirmed"] == "bam" and front["bam"] == "Deal 1 damage."
    # the dashboard's own back/starting_tokens, relative to its back
    assert back["unconfirmed"] == "starting_tokens" and back["side"] == "Super Villain"
    assert back["starting_tokens.text"] == "one Action token." and back["bam"] == ""
    # masterplan/cards/*/place reaches every card; an open gap note adds its fields
    assert first["unconfirmed"] == "place; move"
    assert second["unconfirmed"] == "place; text"
