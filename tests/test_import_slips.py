"""Slips stay visible: every loss `import` reports is, afterwards, a `validate` warning
with its position and a `cardkit gaps` row, until someone fixes the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

BOOK = ROOT / "tests/data/new-villain-rulebook.txt"
CHAMPIONS = ROOT / "scans/marvel-champions/fear-no-evil/rulebook.txt"
# Two slips written into the test book by hand: a mistyped token, and a card line that
# has neither a Move nor a placement.
TYPO = (
    "2. Move 2. BAM!. Place 2 Thugs in the left Location and 1 Thug in the right Location.",
    "2. Move 2. BAM!. Place 1 Thgu in the left Location.",
)
SMUDGE = (
    "7. Move 5. Place 1 Civilian in the left Location, 2 Thugs in Mysterio's Location and "
    "1 Civilian in the right Location.",
    "7. Smudged beyond reading.",
)


def cardkit(args: list[str]) -> tuple[int, str, str]:
    """The CLI (in this process, through the same `main`): exit code, stdout, stderr."""
    done = run_cli(args)
    return done.returncode, done.stdout, done.stderr


def _line_at(path: Path, line: int) -> str:
    return path.read_text(encoding="utf-8").splitlines()[line - 1]


@pytest.fixture
def slipped(tmp_path: Path) -> tuple[Path, str]:
    text = BOOK.read_text(encoding="utf-8")
    for old, new in (TYPO, SMUDGE):
        assert old in text
        text = text.replace(old, new)
    book = tmp_path / "book.txt"
    book.write_text(text, encoding="utf-8")
    code, out, _ = cardkit(["import", str(book), "--out", str(tmp_path / "c")])
    assert code == 1  # imported with losses
    return tmp_path / "c", out


def test_the_import_warns_with_did_you_mean(slipped: tuple[Path, str]) -> None:
    _, out = slipped
    assert "'Thgu' is no placement token of marvel-united; did you mean 'Thug'?" in out
    assert "card 7: line not understood, kept verbatim; nothing read: no move and no place" in out


def test_validate_still_warns_at_the_kept_text(slipped: tuple[Path, str]) -> None:
    cards, _ = slipped
    code, out, _ = cardkit(["validate", str(cards)])
    slips = [line for line in out.splitlines() if " MU131 " in line]
    # cards 2 and 7, and card 9's "Place 1 Infection token", which the book itself has
    assert len(slips) == 3 and code == 0  # warnings: exit 0, but said
    where = {}
    for line in slips:
        path, number, column, rest = line.split(":", 3)
        where[rest] = (Path(path), int(number), int(column))
    typo = next(k for k in where if "Thgu" in k)
    assert "did you mean 'Thug'?" in typo
    path, number, column = where[typo]
    assert _line_at(path, number)[column - 1 :].startswith("Place 1 Thgu")
    smudge = next(k for k in where if "card 7" in k)
    path, number, column = where[smudge]
    assert "Smudged beyond reading." in _line_at(path, number)[column - 1 :]


def test_gaps_lists_each_slip_until_it_is_fixed(slipped: tuple[Path, str]) -> None:
    cards, _ = slipped
    code, out, _ = cardkit(["gaps", str(cards), "--format", "json"])
    rows = [r for r in json.loads(out)["gaps"] if r["code"] == "MU131"]
    assert code == 0
    assert {r["field"] for r in rows} == {
        "masterplan/cards/2/effects/0/text",
        "masterplan/cards/7/text",
        "masterplan/cards/9/effects/0/text",
    }
    villain = cards / "mysterio.yaml"
    text = villain.read_text(encoding="utf-8")
    typed = "      effects:\n        - {text: Place 1 Thgu in the left Location.}\n"
    assert typed in text
    villain.write_text(text.replace(typed, "      place: {left: {thug: 1}}\n"), "utf-8")
    _, out, _ = cardkit(["gaps", str(cards), "--format", "json"])
    left = {r["field"] for r in json.loads(out)["gaps"] if r["code"] == "MU131"}
    assert left == {"masterplan/cards/7/text", "masterplan/cards/9/effects/0/text"}


def test_a_line_no_reader_claimed_is_kept_warned_and_listed(tmp_path: Path) -> None:
    # a stray line after the contents heading: the contents reader no longer claims the
    # repeated "Table of Contents" line, and no other reader does
    lines = CHAMPIONS.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[4] == "Table of Contents\n"
    book = tmp_path / "rulebook.txt"
    book.write_text("".join([*lines[:5], "Printed in Ruritania.\n", *lines[5:]]), "utf-8")
    out_dir = tmp_path / "c"
    code, out, _ = cardkit(["import", str(book), "--out", str(out_dir)])
    assert code == 1 and "unrepresented: Table of Contents" in out
    code, out, _ = cardkit(["validate", str(out_dir)])
    found = [line for line in out.splitlines() if " CK300 " in line]
    assert len(found) == 1 and found[0].endswith("kept verbatim: Table of Contents")
    path, number, column, _ = found[0].split(":", 3)
    assert _line_at(Path(path), int(number))[int(column) - 1 :].startswith(
        "Table of Contents]"
    )  # the item
    _, out, _ = cardkit(["gaps", str(out_dir), "--format", "json"])
    rows = [r for r in json.loads(out)["gaps"] if r["code"] == "CK300"]
    assert [(r["field"], r["status"]) for r in rows] == [("unclaimed/0", "open")]
    # placed by hand (here: deleted), the warning and the row are gone
    box = Path(path)
    box.write_text(box.read_text("utf-8").replace("unclaimed: [Table of Contents]\n", ""))
    _, out, _ = cardkit(["validate", str(out_dir)])
    assert " CK300 " not in out


def test_a_deck_kept_as_text_is_a_slip_not_a_silent_loss(tmp_path: Path) -> None:
    # a stray line between two Master Plan cards: the reader keeps the whole deck, and
    # its Gap note, as plain paragraphs; that is now said, then and afterwards
    text = BOOK.read_text(encoding="utf-8")
    first = "1. Move 1. BAM!. Place 1 Civilian in each Location beside Mysterio's.\n"
    assert first in text
    book = tmp_path / "book.txt"
    book.write_text(text.replace(first, first + "A stray line.\n"), encoding="utf-8")
    code, out, _ = cardkit(["import", str(book), "--out", str(tmp_path / "c")])
    assert code == 1
    assert "numbered card line(s) kept as plain text: the masterplan deck's cards" in out
    assert "a Gap note kept as plain text" in out
    code, out, _ = cardkit(["validate", str(tmp_path / "c")])
    assert out.count(" MU131 ") == 2
    _, out, _ = cardkit(["gaps", str(tmp_path / "c"), "--format", "json"])
    fields = {r["field"] for r in json.loads(out)["gaps"] if r["code"] == "MU131"}
    assert len(fields) == 2 and all(f.startswith("masterplan/") for f in fields)
