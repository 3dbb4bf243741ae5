"""Ordinary mistakes end in one clear line and the documented exit code, never exit 70.

Each case is a real `cardkit` process on a copy of the cards; the timeouts only catch a
hang (a FIFO read, an alias bomb), they are not performance assertions.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
from pathlib import Path

import pytest

from cardkit.confirm import checklist
from cardkit.files import yamlio
from cardkit.gaps.rows import Gap
from cardkit.report import gaps_report
from tests.conftest import ROOT, run_cli

KLAW = "cards/marvel-united/multiverse-ks-promos/klaw.yaml"
BOX = "cards/marvel-united/multiverse-ks-promos"
RULEBOOK = ROOT / "tests" / "data" / "new-villain-rulebook.txt"
CONFIRM = ["masterplan/cards/1/place", "--by", "ana", "--evidence", "card"]
BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8)
)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")  # the cards' modelines point here
    return tmp_path


def one_line(result: object, code: int, *needles: str) -> str:
    stderr = result.stderr  # type: ignore[attr-defined]
    assert result.returncode == code, (result.returncode, stderr)  # type: ignore[attr-defined]
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert "internal error" not in stderr and "Traceback" not in stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return str(lines[0])


DEEP = "a: &x 1\n" + "".join("  " * i + "k:\n" for i in range(990)) + "  " * 990 + "v: *x\n"


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b"kind: marvel-united/villain\nname: caf\xe9\n", "2:10: CK003 not UTF-8"),
        (b"kind: marvel-united/villain\nid: a\nid: b\n", "3:1: CK002 duplicate key 'id'"),
        (b"kind: marvel-united/villain\nmasterplan:\n\tcards: []\n", "CK001 tab"),
        (BOMB.encode(), "CK009 aliases expand past"),
        (DEEP.encode(), "CK009 nesting deeper than 64 levels"),
    ],
    ids=["not-utf8", "duplicate-key", "tab", "alias-bomb", "990-deep"],
)
def test_confirm_on_a_broken_file_is_one_line(repo: Path, content: bytes, needle: str) -> None:
    (repo / KLAW).write_bytes(content)
    result = run_cli(["confirm", KLAW, *CONFIRM], cwd=repo)
    one_line(result, 2, f"cardkit: {KLAW}:", needle, "nothing was written")
    assert (repo / KLAW).read_bytes() == content


def test_confirm_on_an_over_cap_file_and_a_confirm_that_would_pass_the_cap(repo: Path) -> None:
    card = repo / KLAW
    text = card.read_text()
    card.write_text(text + "#" * (yamlio.MAX_FILE_BYTES - len(text.encode())) + "\n#\n")
    one_line(
        run_cli(["confirm", KLAW, *CONFIRM], cwd=repo), 2, "CK008", "over the 10,485,760-byte cap"
    )
    room = yamlio.MAX_FILE_BYTES - len(text.encode()) - 40  # under the cap by 40 bytes
    card.write_text(text + "#" * room + "\n")
    before = card.read_bytes()
    result = run_cli(["confirm", KLAW, *CONFIRM], cwd=repo)
    one_line(result, 1, "past the 10,485,760 cap", "nothing was written")
    assert card.read_bytes() == before


def test_confirm_by_id_skips_what_is_not_a_card_file(repo: Path) -> None:
    cards = repo / "cards"
    os.mkfifo(cards / "pipe.yaml")  # a reader that opened it would wait forever
    (cards / "dangling.yaml").symlink_to(cards / "nowhere.yaml")
    (cards / "loop.yaml").symlink_to(cards / "loop.yaml")
    (cards / "folder.yaml").mkdir()
    (cards / "bomb.yaml").write_text("kind: marvel-united/villain\nid: boom\n" + BOMB)
    (cards / "latin1.yaml").write_bytes(b"kind: marvel-united/villain\nid: caf\xe9\n")
    result = run_cli(["confirm", "klaw", *CONFIRM], cwd=repo)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{KLAW}: confirmed masterplan/cards/1/place\n"
    bomb = run_cli(
        ["confirm", "cards/bomb.yaml", "dashboard/bam", "--by", "a", "--evidence", "e"], cwd=repo
    )
    one_line(bomb, 2, "CK009")


def test_import_out_mistakes(repo: Path) -> None:
    (repo / "afile").write_text("x\n")
    one_line(
        run_cli(["import", str(RULEBOOK), "--out", "afile"], cwd=repo),
        2,
        "afile: --out names a file; give a folder; nothing was written",
    )
    one_line(
        run_cli(["import", str(RULEBOOK), "--out", "/proc/cardkit-nowhere"], cwd=repo),
        2,
        "/proc/cardkit-nowhere: cannot make the folder",
    )
    big = repo / "big.txt"
    big.write_text(RULEBOOK.read_text() + "Filler line.\n" * 900_000)
    one_line(
        run_cli(["import", str(big), "--out", "out", "--dry-run"], cwd=repo),
        2,
        f"big.txt:1:1: file is {big.stat().st_size:,} bytes, over the {10 * 1024 * 1024:,}-byte cap",
    )


def test_build_out_a_file_and_a_full_disk(repo: Path) -> None:
    (repo / "afile").write_text("x\n")
    one_line(run_cli(["build", "--out", "afile"], cwd=repo), 2, "afile")
    full = run_cli(["export", "rulebook", BOX, "--out", "/dev/full"], cwd=repo)
    one_line(full, 2, "/dev/full: cannot write: No space left on device")


def _batch(repo: Path, raw: bytes) -> object:
    (repo / "list.csv").write_bytes(raw)
    return run_cli(["confirm", "--batch", "list.csv", "--by", "ana"], cwd=repo)


def test_batch_checklist_mistakes(repo: Path) -> None:
    header = "path,address,evidence\n"
    one_line(  # 0x81 is neither UTF-8 here nor a cp1252 character (cp1252 is read)
        _batch(repo, (header + f"{KLAW},masterplan/cards/1/place,seen").encode() + b"\x81\n"),
        2,
        "list.csv:2: neither UTF-8 nor cp1252 (byte 0x81)",
    )
    one_line(_batch(repo, b"\x00\x01\x02binary"), 2, "list.csv: binary data")
    one_line(
        _batch(repo, (header + "cards/none.yaml,masterplan/cards/1/place,seen\n").encode()),
        2,
        "list.csv row 2: cards/none.yaml: no such file",
    )
    bom = _batch(repo, ("\ufeff" + header + f"{KLAW},masterplan/cards/1/place,seen\n").encode())
    assert bom.returncode == 0, bom.stderr  # type: ignore[attr-defined]
    assert "confirmed masterplan/cards/1/place" in bom.stdout  # type: ignore[attr-defined]


def test_impossible_date_is_refused(repo: Path) -> None:
    result = run_cli(["confirm", KLAW, *CONFIRM, "--date", "2026-13-45"], cwd=repo)
    one_line(result, 2, "--date '2026-13-45' is not a day")


def test_nul_byte_is_reported_where_it_is_on_one_line(tmp_path: Path) -> None:
    (tmp_path / "nul.yaml").write_bytes(b"kind: x\nid: a\nname: b\x00c\n")
    result = run_cli(["validate", "nul.yaml"], cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == (
        "nul.yaml:3:8: CK001 character #x0000 is not allowed in YAML (control character)"
    )
    assert len(result.stdout.splitlines()) == 2


def test_a_file_name_with_a_newline_cannot_forge_a_line(tmp_path: Path) -> None:
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "evil\nfake.yaml:1:1: CK000 forged.yaml").write_text("kind: x\n")
    result = run_cli(["validate", "cards"], cwd=tmp_path)
    assert result.stdout.splitlines()[0].startswith("cards/evil\\nfake.yaml:1:1: CK000 forged")
    assert len(result.stdout.splitlines()) == 2
    gaps = run_cli(["gaps", "cards"], cwd=tmp_path)
    assert gaps.returncode == 0
    assert gaps.stderr.count("\n") == 1 and "evil\\nfake" in gaps.stderr


def test_gaps_over_a_tree_with_one_broken_file(repo: Path) -> None:
    (repo / "cards" / "broken.yaml").write_text("kind: [\n")
    result = run_cli(["gaps"], cwd=repo)
    assert result.returncode == 0  # README: exit 0 unless --fail-on open
    assert result.stderr.startswith("cards/broken.yaml:") and "(skipped)" in result.stderr
    assert "open" in result.stdout.splitlines()[-1]
    strict = run_cli(["gaps", "--fail-on", "open"], cwd=repo)
    assert strict.returncode == 1


def test_gap_checklist_cells_cannot_run_as_formulas(tmp_path: Path) -> None:
    gap = Gap(
        "noted",
        "open",
        "a.yaml",
        1,
        1,
        "s",
        "b",
        "doc",
        "k",
        "v",
        "",
        "=cmd|' /C calc'!A0",
        "+1+1",
        address="@SUM(1)",
        current="-2",
    )
    text = gaps_report.as_csv([gap], None)
    row = next(csv.DictReader(io.StringIO(text)))
    assert row["field"] == "'=cmd|' /C calc'!A0"
    assert row["why"] == "'+1+1" and row["address"] == "'@SUM(1)"
    assert row["current"] == "-2"  # a plain number is no formula: one rule for every CSV
    hostile = Gap(
        "noted", "open", "a.yaml", 1, 1, "s", "b", "doc", "k", "v", "", "x", "y", current="-2+3"
    )
    assert (
        next(csv.DictReader(io.StringIO(gaps_report.as_csv([hostile], None))))["current"] == "'-2+3"
    )
    listed = tmp_path / "list.csv"
    listed.write_text(text)
    back = checklist.read_checklist(listed)[0]
    assert back["address"] == "@SUM(1)" and back["field"] == "=cmd|' /C calc'!A0"


def test_a_billion_copies_is_a_schema_error(repo: Path) -> None:
    card = repo / KLAW
    text = card.read_text()
    assert "copies: " in text
    card.write_text(text.replace("copies: ", "copies: 1000000000 #", 1))
    result = run_cli(["validate", KLAW], cwd=repo)
    assert result.returncode == 1
    assert "CK100" in result.stdout and "1000000000" in result.stdout


def test_one_deep_file_gets_one_line_and_the_rest_are_checked(repo: Path) -> None:
    (repo / "cards" / "deep.yaml").write_text(DEEP)
    result = run_cli(["validate", "cards"], cwd=repo)
    assert result.returncode == 1
    deep = [line for line in result.stdout.splitlines() if line.startswith("cards/deep.yaml")]
    assert deep == ["cards/deep.yaml:1:1: CK009 nesting deeper than 64 levels"]
    assert "internal error" not in result.stderr
    checked = int(result.stdout.splitlines()[-1].split(" file")[0])
    assert checked == len(list((repo / "cards").rglob("*.yaml")))


def test_confirm_and_export_mistakes_name_the_file_or_option(repo: Path) -> None:
    by = ["--by", "ana", "--evidence", "card"]
    for address in ("threats/cards/Infekt/name", "masterplan/cards/1/moove"):
        one_line(run_cli(["confirm", KLAW, address, *by], cwd=repo), 2, f"{KLAW}: no ")
    one_line(run_cli(["confirm", "--undo", KLAW, "dashboard/bam"], cwd=repo), 2, f"{KLAW}: ")
    one_line(
        run_cli(["confirm", "--root", "nowhere", "klaw", *CONFIRM[:1], *by], cwd=repo),
        2,
        "--root nowhere: no such folder",
    )
    one_line(
        run_cli(["confirm", KLAW, *CONFIRM[:1], "--value", "{left:{thug:2}}", *by], cwd=repo),
        2,
        "put a space after each ':'",
    )
    one_line(
        run_cli(["export", "tts", BOX, "--deck", "Nobody At All", "--out", "tts"], cwd=repo),
        2,
        "--deck Nobody At All matches no deck here; decks: ",
    )
    assert not (repo / "tts").exists()
    one_line(
        run_cli(["export", "rulebook", KLAW, "--out", "book.txt"], cwd=repo),
        2,
        "give the box's folder",
    )


def test_a_file_in_the_way_of_an_output_folder_is_named(repo: Path) -> None:
    (repo / "afile").write_text("mine\n")
    champions = "cards/marvel-champions"
    one_line(
        run_cli(["export", "marvelsdb", champions, "--out", "afile"], cwd=repo),
        2,
        "cardkit: afile: this is a file, and a folder is needed here",
    )
    assert (repo / "afile").read_text() == "mine\n"
    (repo / "junk").mkdir()
    (repo / "junk" / "x.yaml").write_text("kind: [\n")
    result = run_cli(["export", "csv", "junk"], cwd=repo)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == "cardkit: no readable card files here to export"


def test_schema_takes_a_short_kind_and_helps_with_a_typo(repo: Path) -> None:
    hero = run_cli(["schema", "hero"], cwd=repo)
    assert hero.returncode == 0 and '"title": "Marvel United hero' in hero.stdout
    one_line(run_cli(["schema", "herro"], cwd=repo), 2, "did you mean 'hero'?")
    one_line(
        run_cli(["schema", "villain"], cwd=repo),
        2,
        "ambiguous: marvel-united/villain, villainous/villain",
    )


def test_new_in_a_box_folder_that_does_not_exist_says_so(repo: Path) -> None:
    typo = run_cli(["new", "hero", "zed", "--box", "ks-promoss"], cwd=repo)
    assert typo.returncode == 0, typo.stderr
    assert (repo / "cards" / "marvel-united" / "ks-promoss" / "zed.yaml").is_file()
    assert typo.stderr.startswith("warning: cards/marvel-united/ks-promoss is a new box folder")
    assert "(did you mean 'ks-promos'?)" in typo.stderr and "box.yaml" in typo.stderr
    far = run_cli(["new", "hero", "zed", "--box", "qqqq"], cwd=repo)
    assert far.returncode == 0, far.stderr
    assert far.stderr == (  # no box name is close: no hint, not a list of every box
        "warning: cards/marvel-united/qqqq is a new box folder; a box needs its manifest: "
        "cardkit new box qqqq --out cards/marvel-united/qqqq/box.yaml\n"
    )
    alone = repo / "alone"
    (alone / "cards").mkdir(parents=True)
    lone = run_cli(["new", "hero", "zed", "--box", "first"], cwd=alone)
    assert lone.returncode == 0, lone.stderr
    assert "new box folder; a box" in lone.stderr and "known" not in lone.stderr
    known = run_cli(["new", "hero", "zee", "--box", "ks-promos"], cwd=repo)
    assert known.returncode == 0 and known.stderr == ""
