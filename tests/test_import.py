"""`cardkit import` and `cardkit export rulebook` on the five seeds and on a book they never saw."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardkit.games.marvel_united import rulebook as mu
from cardkit.rulebook import importer
from cardkit.rulebook.outline import parse_outline
from tests.conftest import ROOT, run_cli

SEEDS = sorted((ROOT / "scans").glob("*/*/rulebook.txt"))
GOLDEN = ROOT / "tests" / "golden"
NEW_BOOK = ROOT / "tests" / "data" / "new-villain-rulebook.txt"


def _golden_text(result: importer.ImportResult) -> str:
    parts = []
    for path, text in result.files.items():
        parts.append(f"===== {path.relative_to(result.out).as_posix()}\n{text}")
    return "".join(parts)


def _plan(path: Path, out: Path | None = None) -> importer.ImportResult:
    """Plan an import; by default into the box's folder under cards/ (nothing is written)."""
    system, box = path.parts[-3], path.parts[-2]
    out = out or ROOT / "cards" / system / box  # modelines then match the repository's
    cwd = os.getcwd()
    os.chdir(ROOT)  # source paths are recorded relative to the repository
    try:
        return importer.plan_import(path.relative_to(ROOT), out, system=system, box=box)
    finally:
        os.chdir(cwd)


@pytest.mark.parametrize("path", SEEDS, ids=[p.parts[-2] for p in SEEDS])
def test_import_matches_golden_and_loses_nothing(path: Path) -> None:
    result = _plan(path)
    golden = GOLDEN / f"{path.parts[-3]}-{path.parts[-2]}.txt"
    text = _golden_text(result)
    if os.environ.get("CARDKIT_REGEN_GOLDEN"):
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8"), (
        "import output changed; if on purpose, rerun with CARDKIT_REGEN_GOLDEN=1"
    )
    assert result.unrepresented == []
    again = _plan(path)
    assert _golden_text(again) == text  # deterministic: same bytes every run


def _normalised(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize(
    "path", [p for p in SEEDS if p.parts[-3] != "villainous"], ids=lambda p: p.parts[-2]
)
def test_export_reproduces_the_source(path: Path, tmp_path: Path) -> None:
    plan = _plan(path, tmp_path / path.parts[-2])
    written = importer.write(plan, force=False)
    # Every planned file is on disk with exactly the planned text, and nothing else is.
    assert sorted(written) == sorted(plan.files)
    assert sorted((tmp_path / path.parts[-2]).glob("*.yaml")) == sorted(plan.files)
    assert all(p.read_text(encoding="utf-8") == plan.files[p] for p in written)
    exported = importer.export_rulebook([tmp_path / path.parts[-2]])
    assert _normalised(exported) == _normalised(path.read_text(encoding="utf-8"))


def test_a_corrected_placement_is_exported_with_the_new_counts() -> None:
    text = NEW_BOOK.read_text(encoding="utf-8")
    docs = mu.parse(text, "test-box", "book.txt")
    villain = next(d for d in docs if d["id"] == "mysterio")
    card = villain["masterplan"]["cards"][0]
    assert card["place"]["text"] == "Place 1 Civilian in each Location beside Mysterio's."
    card["place"]["left"] = {"civilian": 2}
    exported = mu.render(docs)
    assert (
        "1. Move 1. BAM!. Place 2 Civilians in the left Location and 1 Civilian in the right Location."
        in exported
    )
    assert "each Location beside Mysterio's" not in exported


def test_a_new_rulebook_in_the_same_style() -> None:
    text = NEW_BOOK.read_text(encoding="utf-8")
    docs = mu.parse(text, "test-box", "book.txt")
    assert _normalised(mu.render(docs)) == _normalised(text)
    box, villain = docs[0], docs[1]
    assert box["scope_notes"] == ["This box holds one villain, written for the importer's tests."]
    dash = villain["dashboard"]
    assert dash["villainous_plot"] == {
        "name": "Illusion Track",
        "text": "When this track reaches 12, Heroes lose. The track runs from 0 to 12.",
        "track": {"min": 0, "max": 12},
    }
    assert dash["player_count"]["heroes"] == {"2": 6, "3": 9, "4": 12}
    assert len(dash["special_rules"]) == 2
    assert dash["back"]["starting_tokens"]["icons"] == ["action", "attack"]
    threats = villain["threats"]
    assert threats["declared"] == {"count": 6}
    assert threats["cards"][1] == {
        "name": "Fishbowl Helmet",
        "copies": 3,
        "health": 2,
        "text": "BAM!: Give 1 Crisis token to 1 Hero in this Location.",
    }
    cards = {c["n"]: c for c in villain["masterplan"]["cards"]}
    assert cards[1]["place"]["left"] == cards[1]["place"]["right"] == {"civilian": 1}
    assert "villain" not in cards[1]["place"]
    assert cards[2]["place"] == {"left": {"thug": 2}, "right": {"thug": 1}}
    assert cards[3]["effects"] == [
        {"name": "Grand Illusion", "text": "Swap the positions of two Heroes."}
    ]
    assert cards[3]["place"]["villain"] == {"thug": 1, "civilian": 1}
    assert cards[4]["move"] == "*" and cards[4]["place"] == "none"
    assert cards[4]["move_text"] == "Move clockwise to the next Location with no Heroes."
    assert cards[5]["place"]["villain"] == {"thug": 2} and cards[5]["place"]["right"] == {
        "civilian": 1
    }
    assert cards[6]["place"]["villain"] == {"thug": 3} and cards[6]["place"]["left"] == {"thug": 1}
    assert cards[8]["notes"] == ["Token placement not confirmed at full size."]
    assert "place" not in cards[8] and cards[8]["unconfirmed"] == ["place"]
    # An unreadable placement is kept verbatim, never guessed.
    assert "place" not in cards[9]
    assert cards[9]["effects"][0]["text"] == "Place 1 Infection token in the left Location."
    gap = villain["masterplan"]["gaps"][0]
    assert gap["cards"] == [2, 5, 6, 7, 12]
    assert gap["fields"] == ["masterplan/cards/*/place"]
    # The note's second sentence names the only cards it doubts (2, 5, 6); card 7 was
    # checked at full size; card 8 doubts its own placement in parentheses.
    marked = sorted(n for n, c in cards.items() if "place" in c.get("unconfirmed", []))
    assert marked == [2, 5, 6, 8]


def test_outline_follows_the_contents(tmp_path: Path) -> None:
    outline = parse_outline(NEW_BOOK.read_text(encoding="utf-8"))
    assert [s.title for s in outline.sections] == ["Mysterio", "Scope note"]
    assert [c.title for c in outline.sections[0].children] == [
        "Mysterio Dashboard",
        "Mysterio Threat Cards",
        "Mysterio Masterplan Deck",
    ]


def test_cli_import_never_overwrites_without_force(tmp_path: Path) -> None:
    out = tmp_path / "cards"
    first = run_cli(["import", str(NEW_BOOK), "--out", str(out)])
    assert first.returncode == 1, first.stderr  # written, with card 9's loss reported
    assert "0 unrepresented lines" in first.stdout
    villain = out / "mysterio.yaml"
    villain.write_text(villain.read_text() + "# a transcriber's comment\n")
    before = villain.read_text()
    again = run_cli(["import", str(NEW_BOOK), "--out", str(out)])
    assert again.returncode == 2
    assert "already exist" in again.stderr and "--force" in again.stderr
    assert villain.read_text() == before
    dry = run_cli(["import", str(NEW_BOOK), "--out", str(out), "--dry-run"])
    assert dry.returncode == 1 and "would write" in dry.stdout and "needs --force" in dry.stdout
    assert villain.read_text() == before
    forced = run_cli(["import", str(NEW_BOOK), "--out", str(out), "--force"])
    assert forced.returncode == 1
    assert "# a transcriber's comment" not in villain.read_text()
    assert villain.read_text().startswith("# yaml-language-server: $schema=")
    checked = run_cli(["validate", str(out)])
    assert checked.returncode == 0, checked.stdout


def test_cli_dry_run_writes_nothing(tmp_path: Path) -> None:
    result = run_cli(["import", str(NEW_BOOK), "--out", str(tmp_path / "x"), "--dry-run"])
    # card 9's placement is not understood: imported with losses, exit 1, said on stdout
    assert result.returncode == 1
    assert "warning: mysterio card 9: placement not understood" in result.stdout
    assert not (tmp_path / "x").exists()


def test_cli_unknown_rulebook_is_a_clear_error(tmp_path: Path) -> None:
    book = tmp_path / "notes.txt"
    book.write_text("Some shopping list\n\neggs\n")
    result = run_cli(["import", str(book), "--out", str(tmp_path / "o")])
    assert result.returncode == 2
    assert result.stderr.startswith(
        f"cardkit: {book}: cannot tell which game this rulebook is for; pass --system ("
    )
    assert "villainous" in result.stderr and result.stderr.count("\n") == 1
    missing = run_cli(["import", str(tmp_path / "nope.txt"), "--out", str(tmp_path / "o")])
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_cli_export_prints_the_rulebook(tmp_path: Path) -> None:
    run_cli(["import", str(NEW_BOOK), "--out", str(tmp_path / "c")])
    result = run_cli(["export", "rulebook", str(tmp_path / "c")])
    assert result.returncode == 0
    assert _normalised(result.stdout) == _normalised(NEW_BOOK.read_text())


def test_the_repository_corpus_validates() -> None:
    result = run_cli(["validate", "cards"])
    assert result.returncode == 0, result.stdout
    files = len(list((ROOT / "cards").rglob("*.yaml")))
    assert f"{files} files checked: 0 error(s)" in result.stdout.splitlines()[-1]
    assert " CK" not in result.stdout  # no schema or loading problems; warnings are game-rule gaps
    assert files >= 70


def test_summary_reports_sentences_it_could_not_read(tmp_path: Path) -> None:
    result = run_cli(["import", str(NEW_BOOK), "--out", str(tmp_path / "c"), "--dry-run"])
    assert "warning: mysterio card 9: placement not understood, kept verbatim" in result.stdout
    assert "1 sentences not understood" in result.stdout


def test_box_must_be_an_id(tmp_path: Path) -> None:
    result = run_cli(["import", str(NEW_BOOK), "--out", str(tmp_path), "--box", "My Box"])
    assert result.returncode == 2
    assert "is not an id" in result.stderr
