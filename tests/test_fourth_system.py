"""A made-up fourth game system, outside cardkit, works with no edit to the core.

tests/data/fourth_system is the whole system: NAME, a rule, a token vocabulary, a
schema and a card size. It is copied to a temporary folder, put on PYTHONPATH and
named in CARDKIT_SYSTEMS; then the real CLI validates, lists gaps and proofs its cards.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import run_cli

SYSTEM = Path(__file__).parent / "data" / "fourth_system"

GOOD = """\
kind: tiny-heist/card
id: lockpick
name: Lockpick
cost: 2
loot: 3
text: Open one locked door without raising an Alarm token.
unconfirmed: [loot]
"""
GREEDY = """\
kind: tiny-heist/card
id: greedy
name: Greedy Grab
cost: 1
loot: 5
"""


@pytest.fixture
def game(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    shutil.copytree(SYSTEM, tmp_path / "lib" / "tiny_heist")
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "lockpick.yaml").write_text(GOOD)
    return cards, {"PYTHONPATH": str(tmp_path / "lib"), "CARDKIT_SYSTEMS": "tiny_heist"}


def test_its_kind_is_listed_and_its_cards_validate(game: tuple[Path, dict[str, str]]) -> None:
    cards, env = game
    kinds = run_cli(["kinds"], env=env)
    assert "tiny-heist/card" in kinds.stdout
    ok = run_cli(["validate", "."], cwd=cards, env=env)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.strip().endswith("no problems")


def test_its_schema_and_its_rule_apply(game: tuple[Path, dict[str, str]]) -> None:
    cards, env = game
    (cards / "greedy.yaml").write_text(GREEDY)
    (cards / "typo.yaml").write_text(
        GOOD.replace("id: lockpick", "id: typo").replace("cost:", "cots:")
    )
    result = run_cli(["validate", "."], cwd=cards, env=env)
    assert result.returncode == 1
    assert "greedy.yaml:5:7: TH100 [warning] loot 5 is more than twice the cost 1" in result.stdout
    assert "typo.yaml:4:1: CK100 unknown property 'cots'" in result.stdout
    assert "typo.yaml:1:1: CK100 missing required property 'cost'" in result.stdout


def test_without_the_system_its_kind_is_unknown(game: tuple[Path, dict[str, str]]) -> None:
    cards, _ = game
    result = run_cli(["validate", "."], cwd=cards)
    assert result.returncode == 1
    assert "CK006 unknown kind 'tiny-heist/card'" in result.stdout


def test_gaps_lists_its_unconfirmed_field(game: tuple[Path, dict[str, str]]) -> None:
    cards, env = game
    result = run_cli(["gaps", ".", "--format", "json"], cwd=cards, env=env)
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    rows = rows["gaps"] if isinstance(rows, dict) else rows
    assert [(r["system"], r["document"], r["field"]) for r in rows] == [
        ("tiny-heist", "lockpick", "loot")
    ]


def test_proof_prints_its_card_at_its_own_size(game: tuple[Path, dict[str, str]]) -> None:
    from pypdf import PdfReader

    cards, env = game
    out = cards.parent / "proof.pdf"
    result = run_cli(["proof", ".", "--out", str(out)], cwd=cards, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    text = PdfReader(out).pages[0].extract_text()
    assert "Lockpick" in text
    assert "Open one locked door" in text
    # 44 x 68 mm cards: an A4 sheet holds 4 x 4 of them (63.5 x 88.9 mm would fit 3 x 3)
    assert "1 card, 16 per sheet" in result.stdout


def test_unknown_system_module_is_one_clear_line(tmp_path: Path) -> None:
    result = run_cli(["kinds"], env={"CARDKIT_SYSTEMS": "no_such_game_module"})
    assert result.returncode == 2
    assert "game system 'no_such_game_module' cannot be imported" in result.stderr
    assert "Traceback" not in result.stderr
