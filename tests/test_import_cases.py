"""`cardkit import` on three villains written by hand in the documented format
(docs/transcription-format.md), each with its expected YAML written by hand.

The cases live in tests/data/import-cases/<name>/: rulebook.txt and expected/*.yaml.
The importer must produce exactly those documents (compared as data, so the expected
files may carry comments saying why), and nothing else, with no warnings.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardkit.files import yamlio
from tests.conftest import ROOT, run_cli

CASES = sorted((ROOT / "tests" / "data" / "import-cases").iterdir())
BOXES = {"sandman": "sandy-shores", "vulture": "skyline", "rhino": "stampede"}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_hand_written_villain_imports_to_the_hand_written_yaml(
    case: Path, tmp_path: Path
) -> None:
    (tmp_path / "rulebook.txt").write_bytes((case / "rulebook.txt").read_bytes())
    result = run_cli(
        [
            "import",
            "rulebook.txt",
            "--out",
            "out",
            "--system",
            "marvel-united",
            "--box",
            BOXES[case.name],
        ],
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "warning" not in result.stdout and "unrepresented:" not in result.stdout
    made = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert made == sorted(p.name for p in (case / "expected").iterdir())
    for name in made:
        got = yamlio.load_text((tmp_path / "out" / name).read_text(encoding="utf-8"))
        want = yamlio.load_text((case / "expected" / name).read_text(encoding="utf-8"))
        assert got == want, name
    # and the export gives the book back
    exported = run_cli(["export", "rulebook", "out"], cwd=tmp_path)
    assert _lines(exported.stdout) == _lines((case / "rulebook.txt").read_text(encoding="utf-8"))


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines() if line.strip()]


SANDMAN = (ROOT / "tests" / "data" / "import-cases" / "sandman" / "rulebook.txt").read_text()


def _import(tmp_path: Path, text: str) -> tuple[int, str]:
    (tmp_path / "book.txt").write_text(text, encoding="utf-8")
    result = run_cli(
        ["import", "book.txt", "--out", "out", "--system", "marvel-united", "--box", "b"],
        cwd=tmp_path,
    )
    assert "Traceback" not in result.stderr
    return result.returncode, result.stdout


def test_a_book_without_contents_warns_and_exits_1(tmp_path: Path) -> None:
    head, _, rest = SANDMAN.partition("Table of Contents")
    text = head + rest[rest.index("\nSandman\n") + 1 :]  # the book minus its contents
    code, out = _import(tmp_path, text)
    assert code == 1
    assert "warning: no table of contents" in out
    assert "warning: nothing was recognised" in out


def test_a_file_where_nothing_was_recognised_warns_and_exits_1(tmp_path: Path) -> None:
    code, out = _import(tmp_path, "Marvel United: Odd Box Rulebook\n\nA shopping list.\n")
    assert code == 1 and "warning: nothing was recognised" in out


def test_a_player_count_line_inside_another_field_warns_and_exits_1(tmp_path: Path) -> None:
    line = (
        "Player-count table (printed in the lower left of the Dashboard; the card gives no "
        "label for it): 2 Heroes: 5; 3 Heroes: 7; 4 Heroes: 9."
    )
    moved = SANDMAN.replace("\n\n" + line, "").replace(
        "in Sandman's Location.\n\nOverflow", f"in Sandman's Location. {line}\n\nOverflow"
    )
    assert moved != SANDMAN
    code, out = _import(tmp_path, moved)
    assert code == 1
    assert "warning: sandman: a player-count line sits inside dashboard/bam" in out


def test_a_clean_book_exits_0(tmp_path: Path) -> None:
    code, out = _import(tmp_path, SANDMAN)
    assert code == 0 and "warning" not in out


def test_nothing_recognised_names_what_each_game_groups_by() -> None:
    """The message names the game's own group, from its GROUP declaration."""
    from cardkit.rulebook import importer
    from cardkit.systems import get

    united = get("marvel-united").reader
    champions = get("marvel-champions").reader
    box = [{"kind": "marvel-united/box", "id": "b"}]
    pack = [{"kind": "marvel-champions/expansion", "id": "p"}]
    assert importer.losses(united, "x", box)[-1] == (
        "nothing was recognised: no villain, card or section became a document, "
        "only the box manifest"
    )
    assert importer.losses(champions, "x", pack)[-1].startswith(
        "nothing was recognised: no set, card or section became a document"
    )
