"""`cardkit ocr --check`: a second opinion on existing card files, never an edit."""

from __future__ import annotations

import csv

from tests.conftest import run_cli
from tests.ocr_cards import CardText, villainous_card

CARD = """\
# a hand-kept comment
kind: villainous/card
id: harp
deck: fate
title: GOLDEN HARP
ability: When Golden Harp is played, attach it to a Hero. That Hero gets +2 Strength.
strength: 3
type: Item
unconfirmed: [strength]
"""


def test_check_reports_agreement_and_writes_the_checklist(tmp_path):
    cards = tmp_path / "cards" / "villainous" / "promo"
    cards.mkdir(parents=True)
    card = cards / "harp.yaml"
    card.write_text(CARD)
    scans = tmp_path / "scans"
    scans.mkdir()
    text = CardText(
        "GOLDEN HARP",
        "When Golden Harp is played, attach it to a Hero. That Hero gets +2 Strength.",
        "Item",
        2,
    )
    villainous_card(text).save(scans / "harp.png")
    out = tmp_path / "out"
    result = run_cli(
        [
            "ocr",
            str(scans / "harp.png"),
            "--out",
            str(out),
            "--system",
            "villainous",
            "--check",
            str(tmp_path / "cards"),
        ]
    )
    assert result.returncode == 1, result.stderr  # a field disagrees
    lines = result.stdout.splitlines()
    assert any(": title: agree:" in line for line in lines)
    assert any(": strength: disagree: scan harp.png reads 2, file has 3" in line for line in lines)
    assert card.read_text() == CARD  # never edited
    rows = list(csv.DictReader((out / "checklist.csv").open()))
    assert [(r["address"], r["value"]) for r in rows] == [("strength", "2")]
    assert "harp.png" in rows[0]["evidence"] and "differs from the file" in rows[0]["evidence"]
    applied = run_cli(["confirm", "--batch", str(out / "checklist.csv"), "--by", "ana"])
    assert applied.returncode == 0, applied.stderr
    after = card.read_text()
    assert "strength: 2" in after and "# a hand-kept comment" in after


def test_against_names_the_document_for_a_scan_named_otherwise(tmp_path):
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "harp.yaml").write_text(CARD.replace("strength: 3", "strength: 2"))
    villainous_card(CardText("GOLDEN HARP", "Gain 2 Power.", "Item", 2)).save(
        tmp_path / "IMG_0042.png"
    )
    out = tmp_path / "out"
    args = [
        "ocr",
        str(tmp_path / "IMG_0042.png"),
        "--out",
        str(out),
        "--system",
        "villainous",
        "--check",
        str(cards),
    ]
    unnamed = run_cli(args)
    assert "no card under --check is named 'IMG_0042'" in unnamed.stderr
    named = run_cli([*args, "--force", "--against", "harp"])
    assert ": strength: agree:" in named.stdout
    assert ": ability: disagree:" in named.stdout


def test_a_one_card_draft_is_compared_field_by_field_inside_a_larger_document(tmp_path):
    """A masterplan-card draft keeps its card under `card`; --against names the card inside
    a villain, whose fields sit at the address itself."""
    from pathlib import Path

    import pytest

    from cardkit.errors import UsageError
    from cardkit.model import Document
    from cardkit.ocr import compare as check

    villain = {
        "kind": "marvel-united/villain",
        "id": "grim",
        "masterplan": {"cards": [{"n": 1, "move": 2}, {"n": 2, "move": 3, "bam": True}]},
    }
    document = Document(Path("grim.yaml"), "grim.yaml", villain, lambda *a, **k: (1, 1))
    draft = {
        "kind": "marvel-united/masterplan-card",
        "card": {"n": 2, "move": 4, "bam": True, "note": "x"},
        "provenance": {"confidences": {"card/n": 0.9, "card/move": 0.8, "card/bam": 1.0}},
    }
    target = check.find_target(draft, "scan", [document], "grim/masterplan/cards/2")
    assert target == (document, "masterplan/cards/2")
    found = {c.address: c for c in check.compare(draft, "s.png", *target)}
    assert set(found) == {
        "masterplan/cards/2/n",
        "masterplan/cards/2/move",
        "masterplan/cards/2/bam",
    }
    assert found["masterplan/cards/2/n"].agree and found["masterplan/cards/2/bam"].agree
    assert not found["masterplan/cards/2/move"].agree
    assert found["masterplan/cards/2/move"].current == 3
    with pytest.raises(UsageError, match="no item '9' in 'masterplan/cards'"):
        check.find_target(draft, "scan", [document], "grim/masterplan/cards/9")


def test_a_misspelt_system_is_refused_before_any_scan_is_read(tmp_path):
    result = run_cli(["ocr", str(tmp_path), "--system", "villanous", "--out", str(tmp_path / "o")])
    assert result.returncode == 2
    assert (
        result.stderr
        == "cardkit: --system: unknown system 'villanous'; did you mean 'villainous'?\n"
    )
    assert not (tmp_path / "o").exists()


ZEMO = """\
# by hand: Baron Zemo's Master Plan card 3 keeps its movement in `move_text`, no `bam`
kind: marvel-united/villain
id: zemo
name: Baron Zemo
masterplan:
  cards:
    - n: 3
      move: '*'
      move_text: {movement}
      effects:
        - {{name: Citizen V, text: Discard all Thugs and Civilians in Baron Zemo's Location.}}
"""
ZEMO_MOVES = "Move clockwise to the next Location with the most Civilians."


def _check_zemo(tmp_path, card_text: str):
    """The real `ocr --check` of the Baron Zemo 3 sample (drawn from the card file:
    a movement sentence under Move *, no BAM!) against a hand-written villain file."""
    import shutil

    from tests.conftest import ROOT

    scans = tmp_path / "scans" / "marvel-united"
    scans.mkdir(parents=True, exist_ok=True)
    scan = scans / "zemo-3.png"
    shutil.copy(ROOT / "scans/samples/marvel-united/mu-baron-zemo-mp03-clean.png", scan)
    cards = tmp_path / "cards"
    cards.mkdir(exist_ok=True)
    (cards / "zemo.yaml").write_text(card_text)
    out = tmp_path / "out"
    result = run_cli(
        [
            *("ocr", str(scan), "--out", str(out), "--force", "--jobs", "1"),
            *("--check", str(cards), "--against", "zemo/masterplan/cards/3"),
        ]
    )
    return result, cards / "zemo.yaml", out / "checklist.csv"


def test_check_compares_a_movement_with_move_text_and_absent_bam_with_false(tmp_path):
    """The draft reads `card/movement` and `card/bam: false`; the file keeps the same
    printed sentence in `move_text` and leaves `bam` out: both agree."""
    result, _, checklist_csv = _check_zemo(tmp_path, ZEMO.format(movement=ZEMO_MOVES))
    assert result.returncode == 0, result.stdout + result.stderr
    lines = [line.split(": scan ")[0] for line in result.stdout.splitlines() if ": scan " in line]
    assert sorted(line.split(": ", 1)[1] for line in lines) == [
        "masterplan/cards/3/bam: agree",
        "masterplan/cards/3/effects: agree",
        "masterplan/cards/3/move: agree",
        "masterplan/cards/3/move_text: agree",
        "masterplan/cards/3/n: agree",
    ]
    assert "reads false, file has (absent), which means false" in result.stdout
    assert list(csv.DictReader(checklist_csv.open())) == []


def test_check_rows_name_the_field_the_file_uses_and_confirm_applies_them(tmp_path):
    """A file whose move_text differs and whose card shows BAM!: two disagreements, each at
    the file's own field, which confirm --batch then writes there."""
    text = ZEMO.format(movement="Move clockwise to the next Location with the most Heroes.")
    text = text.replace("      move: '*'\n", "      move: '*'\n      bam: true\n")
    result, card, checklist_csv = _check_zemo(tmp_path, text)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "file lacks it" not in checklist_csv.read_text()
    rows = list(csv.DictReader(checklist_csv.open()))
    assert [(r["address"], r["why"], r["current"], r["value"]) for r in rows] == [
        ("masterplan/cards/3/bam", "the scan reads a different value", "true", "false"),
        (
            "masterplan/cards/3/move_text",
            "the scan reads a different value",
            '"Move clockwise to the next Location with the most Heroes."',
            f'"{ZEMO_MOVES}"',
        ),
    ]
    applied = run_cli(["confirm", "--batch", str(checklist_csv), "--by", "ana"])
    assert applied.returncode == 0, applied.stderr
    after = card.read_text()
    assert f"move_text: {ZEMO_MOVES}" in after and "bam: false" in after
    assert "movement:" not in after and "card:" not in after


COMPARE = """
import json
from pathlib import Path
from cardkit.model import Document
from cardkit.ocr import compare as check
card = {"kind": "tiny-heist/card", "id": "lockpick", "name": "Lockpick", "haul": 3}
draft = {"kind": "tiny-heist/card", "loot": 3, "cost": 0,
         "provenance": {"confidences": {"loot": 0.9, "cost": 0.8}}}
document = Document(Path("lockpick.yaml"), "lockpick.yaml", card, lambda *a, **k: (1, 1))
print(json.dumps([[c.address, c.agree, c.present, c.implied]
                  for c in check.compare(draft, "s.png", document, "")]))
"""


def test_equivalents_are_the_systems_data_outside_cardkit_too(tmp_path):
    """A system outside cardkit (tests/data/fourth_system) declares its own equivalents:
    the comparison follows its file, and without the file nothing is equivalent."""
    import json
    import shutil
    import subprocess
    import sys

    from tests.conftest import ROOT

    system = tmp_path / "lib" / "tiny_heist"
    shutil.copytree(ROOT / "tests" / "data" / "fourth_system", system)
    env = {"PYTHONPATH": str(tmp_path / "lib"), "CARDKIT_SYSTEMS": "tiny_heist"}

    def compared() -> list[list[object]]:
        import os

        done = subprocess.run(
            [sys.executable, "-c", COMPARE],
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(done.stdout)

    assert compared() == [["loot", False, False, False], ["cost", False, False, False]]
    (system / "equivalents.yaml").write_text(
        "- what: a Tiny Heist card\n"
        "  at: {tiny-heist/card: ''}\n"
        "  same: [[loot, haul]]\n"
        "  absent: {cost: 0}\n"
    )
    assert compared() == [["haul", True, True, False], ["cost", True, False, True]]


def test_only_the_first_matching_entry_counts_and_a_bad_file_is_named(tmp_path):
    """Two entries for one place: the first is used alone (its `same`, not the second's
    `absent`). A flat `same: [loot, haul]` or a YAML error is refused with the file's path
    and position, as a UsageError (exit 2), before any field is compared."""
    import json
    import os
    import shutil
    import subprocess
    import sys

    from tests.conftest import ROOT

    system = tmp_path / "lib" / "tiny_heist"
    shutil.copytree(ROOT / "tests" / "data" / "fourth_system", system)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "lib"), "CARDKIT_SYSTEMS": "tiny_heist"}
    script = (
        "from cardkit.errors import UsageError\n"
        f"try:\n{COMPARE.replace(chr(10), chr(10) + '    ')}\n"
        "except UsageError as err:\n    print(f'{err.exit_code}: {err}')\n"
    )

    def compared(equivalents: str) -> str:
        (system / "equivalents.yaml").write_text(equivalents)
        done = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0 and done.stderr == "", done.stderr
        return done.stdout.strip()

    first = compared(
        "- at: {tiny-heist/card: ''}\n"
        "  same: [[loot, haul]]\n"
        "- at: {tiny-heist/card: ''}\n"
        "  absent: {cost: 0}\n"
    )
    assert json.loads(first) == [["haul", True, True, False], ["cost", False, False, False]]
    where = system / "equivalents.yaml"
    assert compared("- at: {tiny-heist/card: ''}\n  same: [loot, haul]\n") == (
        f"2: {where}:2:10: entry 1: each group of `same` must be a list of field names: "
        "[[a, b]], not [a, b]"
    )
    assert compared("- at: {tiny-heist/card: ''\n  same: [[loot, haul]]\n").startswith(
        f"2: {where}:2:"
    )
    assert compared("- at: {tiny-heist/card: ''}\n  sam: [[loot, haul]]\n") == (
        f"2: {where}:2:3: entry 1: unknown key 'sam' (one of what, at, same, absent, unread)"
    )


def test_the_shape_of_equivalents_is_checked_entry_by_entry():
    import pytest

    from cardkit.errors import UsageError
    from cardkit.ocr.compare import Equivalence, parse_equivalents

    good = "- what: a card\n  at: {x/card: card}\n  same: [[a, b, c]]\n  absent: {bam: false}\n"
    assert parse_equivalents(good, "eq.yaml") == [
        Equivalence({"x/card": "card"}, (("a", "b", "c"),), {"bam": False})
    ]
    assert parse_equivalents("", "eq.yaml") == []
    for text, message in (
        ("at: {x/card: card}\n", "eq.yaml:1:1: must be a list of entries"),
        ("- [a, b]\n", "eq.yaml:1:3: entry 1 must be a mapping: what, at, same, absent, unread"),
        ("- same: [[a, b]]\n", "eq.yaml:1:3: entry 1: `at` must map a document kind"),
        ("- at: {x/card: [card]}\n", "eq.yaml:1:7: entry 1: `at` must map a document kind"),
        ("- at: {x/card: ''}\n  same: {a: b}\n", "eq.yaml:2:9: entry 1: `same` must be a list"),
        ("- at: {x/card: ''}\n  absent: [bam]\n", "eq.yaml:2:11: entry 1: `absent` must map"),
        ("- at: {x/card: ''}\n- at: {x/card: ''}\n  same: [[a], 3]\n", "eq.yaml:3:15: entry 2"),
    ):
        with pytest.raises(UsageError) as refused:
            parse_equivalents(text, "eq.yaml")
        assert str(refused.value).startswith(message), (text, str(refused.value))
