"""The Villainous reader follows the manual's structure, not one book's sentences.

Two proofs: the real manual with every villain and place name changed still imports,
and a second manual written for this test (tests/data/villainous-second-manual.txt,
another villain, other entries, four setup steps) reads to hand-written documents.
"""

from __future__ import annotations

from pathlib import Path

from cardkit.games.villainous import rulebook
from tests.conftest import ROOT, run_cli

SECOND = ROOT / "tests" / "data" / "villainous-second-manual.txt"
REAL = ROOT / "scans" / "villainous" / "user-manual" / "rulebook.txt"
RENAMES = {
    "JOLLY ROGER": "THE GLASS TOWER",
    "CAPTAIN HOOK": "QUEEN MAB",
    "SKULL ROCK MERMAID LAGOON HANGMAN’S TREE": "DARK WOOD STILL LAKE OLD GATE",
    "Jolly Roger": "Glass Tower",
    "Peter Pan": "the Lost Knight",
}


def _by_kind(documents: list[dict]) -> dict[str, dict]:
    return {doc["kind"].split("/")[1]: doc for doc in documents}


def test_second_manual_reads_to_the_hand_written_documents() -> None:
    docs = _by_kind(rulebook.parse(SECOND.read_text(encoding="utf-8"), "spire", "guide.txt"))
    villain = docs["villain"]
    assert villain["id"] == "baroness-vane"
    assert villain["name"] == "Baroness Vane"
    assert [loc["name"] for loc in villain["board"]["locations"]] == [
        "The Clockwork Spire",
        "Rusted Docks",
        "Fog Market",
        "Widow's Bell",
    ]
    assert villain["objective"] == "Wind the Great Clock to midnight with four Gears at the Spire."
    assert "(4, 2 2)" in villain["gaps"][0]["note"]
    assert villain["kept_text"] == [
        "Villain Guide",
        "4",
        "2 2",
        "BARONESS VANE’S",
        "OBJECTIVE",
        "Guide",
        "Gear Pile",
        "Seat Order",
        "1st",
        "Seat",
        "2nd",
        "Seat",
        "Table Setup",
        "1",
        "3",
        "2",
        "Setup",
        "4",
        "Gear Token",
    ]
    reference = docs["rules-reference"]["entries"]
    assert reference == [
        {
            "title": "Winning",
            "text": "The first Villain to reach their Objective at the start of their turn "
            "wins the game at once.",
        },
        {
            "title": "Gears",
            "text": [
                "A Gear is an Item. Gears may be moved between locations like any other Item, "
                "but they can never be discarded by a Hero's Ability.",
                "Note: Gears left at a locked location still count toward the Objective.",
            ],
        },
        {
            "title": "Fog",
            "text": "While a location is covered by Fog, Heroes there cannot be vanquished and "
            "Allies there get -1 Strength.",
        },
    ]
    setup = docs["setup"]
    assert setup["steps"] == [
        {"n": 1, "text": "Take the Baroness Board, her Mover and both decks."},
        {
            "n": 2,
            "text": "Shuffle both decks and place them beside the Board.",
            "unconfirmed": ["n"],
        },
        {"n": 3, "text": "Put four Gears in the pile.", "unconfirmed": ["n"]},
        {"n": 4, "text": "Draw five cards. The player who last heard a clock strike goes first."},
    ]
    assert setup["labels"] == [
        "Spire Board",
        "Villain Mover",
        "Gear Pile",
        "Villain Deck",
        "Fate Deck",
    ]
    assert setup["gaps"][0]["cards"] == [2, 3]
    assert "numbers its steps 1, 3, 2 in layout order" in setup["gaps"][0]["note"]
    assert rulebook.unrepresented(SECOND.read_text(encoding="utf-8"), list(docs.values())) == []


def test_the_real_manual_with_other_names_imports(tmp_path: Path) -> None:
    text = REAL.read_text(encoding="utf-8")
    for old, new in RENAMES.items():
        assert old in text
        text = text.replace(old, new)
    manual = tmp_path / "renamed" / "rulebook.txt"
    manual.parent.mkdir()
    manual.write_text(text, encoding="utf-8")
    result = run_cli(
        ["import", str(manual), "--out", str(tmp_path / "out"), "--system", "villainous"]
    )
    assert result.returncode == 0, result.stdout + result.stderr
    villain = (tmp_path / "out" / "queen-mab.yaml").read_text(encoding="utf-8")
    assert "name: Queen Mab" in villain
    assert "{name: The Glass Tower, locked: false}" in villain
    for place in ("Dark Wood", "Still Lake", "Old Gate"):
        assert f"{{name: {place}, locked: false}}" in villain
    assert "objective: Defeat the Lost Knight at the Glass Tower." in villain
    setup = (tmp_path / "out" / "renamed-setup.yaml").read_text(encoding="utf-8")
    assert "power_by_seat: {seats: {'1': 0, '2': 1, '3': 2, '4': 2, '5': 3, '6': 3}}" in setup
    check = run_cli(["validate", str(tmp_path / "out")])
    assert check.returncode == 0, check.stdout


def test_a_manual_without_a_possessive_objective_heading_is_one_clear_line(tmp_path: Path) -> None:
    manual = tmp_path / "rulebook.txt"
    manual.write_text("Villain Deck and Fate\nTHE TOWER\nNothing else here.\n", encoding="utf-8")
    result = run_cli(
        ["import", str(manual), "--out", str(tmp_path / "out"), "--system", "villainous"]
    )
    assert result.returncode == 2
    assert "not a villainous rulebook this importer can read" in result.stderr
    assert "Traceback" not in result.stderr
