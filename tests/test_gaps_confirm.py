"""`cardkit gaps` and `cardkit confirm` as a transcriber uses them, on copies of the corpus."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardkit.files import yamlio
from tests.conftest import ROOT, run_cli

KLAW = "cards/marvel-united/multiverse-ks-promos/klaw.yaml"
KILL_COMMAND = [sys.executable, "-m", "cardkit", "confirm", "klaw"]
FROZEN_KLAW = ROOT / "tests" / "data" / "klaw.yaml"  # Klaw as imported, never confirmed


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A copy of the corpus with Klaw frozen as tests/data/klaw.yaml, so a real
    confirmation in cards/ never changes what these tests see."""
    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    shutil.copyfile(ROOT / "tests" / "data" / "klaw.yaml", tmp_path / KLAW)
    return tmp_path


def _gaps(cwd: Path, *args: str) -> dict:
    result = run_cli(["gaps", *args, "--format", "json"], cwd=cwd)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


# Read by hand in scans/: these notes doubt no field, so each is one row at its part
# (the Dashboard, the Master Plan deck), quoting the whole note, until it is confirmed.
#   ks-promos 226: "this Dashboard prints no Villainous Plot box" (a reading of the card)
#   multiverse 567: placements read "at display and print resolution"; cards 6, 7 show no BAM!
#   multiverse 787: "this Dashboard prints no player-count table"
#   multiverse 838: "no Special Setup text"; the rules "are as printed on the card face"
QUIET_NOTES = {
    ("ks-promos", 226),
    ("multiverse-ks-promos", 567),
    ("multiverse-ks-promos", 787),
    ("multiverse-ks-promos", 838),
}


@pytest.fixture
def imported(tmp_path: Path) -> Path:
    """The two Marvel United books imported afresh from scans/ (not the live cards/)."""
    for box in ("ks-promos", "multiverse-ks-promos"):
        source = ROOT / "scans/marvel-united" / box / "rulebook.txt"
        out = tmp_path / "cards/marvel-united" / box
        result = run_cli(["import", str(source), "--out", str(out)], cwd=tmp_path)
        assert result.returncode == 0, result.stderr
    return tmp_path


def test_gaps_cites_every_rulebook_note_that_doubts(imported: Path) -> None:
    payload = _gaps(imported, "cards", "--status", "all")
    cited = " ".join(g["why"] for g in payload["gaps"])
    for box in ("ks-promos", "multiverse-ks-promos"):
        source = (ROOT / "scans/marvel-united" / box / "rulebook.txt").read_text()
        for number, line in enumerate(source.splitlines(), start=1):
            if " Gap: " in line:  # a note written inside a card's line
                assert line.split(" Gap: ", 1)[1] in cited
            if not line.startswith("Gap: "):
                continue
            note = line.removeprefix("Gap: ")
            sentences = [s for s in note.replace(". ", ".\n").splitlines()]
            hits = [s for s in sentences if s in cited]
            if (box, number) in QUIET_NOTES:
                quoting = [g for g in payload["gaps"] if g["why"] == f"Gap: {note}"]
                assert len(quoting) == 1 and quoting[0]["origin"] == "noted", (box, number)
                assert quoting[0]["field"] in ("dashboard", "masterplan"), (box, number)
                assert quoting[0]["address"].startswith(f"{quoting[0]['field']}/gaps/")
            else:
                assert hits, (box, number, note)
    rows = payload["gaps"]
    inferred = {(g["document"], g["code"]) for g in rows if g["origin"] == "inferred"}
    # MU105 (the note names cards 10 to 12) restates MU101 (7 of 12 cards): one row.
    assert ("enchantress", "MU101") in inferred and ("enchantress", "MU105") not in inferred
    # MU106 (the note reads card 9 as one Thug in each Location; it carries no placement)
    # is the check of card 9's placement, listed once as that row.
    assert ("crimson-dynamo", "MU106") not in inferred
    card9 = [g for g in rows if g["field"] == "masterplan/cards/9/place"]
    assert [(g["document"], g["absent"]) for g in card9 if g["document"] == "crimson-dynamo"] == [
        ("crimson-dynamo", True)
    ]
    # No two rows for one field.
    keys = [(g["path"], g["field"], g["status"]) for g in rows if g["origin"] != "inferred"]
    assert len(keys) == len(set(keys))
    assert set(payload) == {"version", "tool", "gaps", "summary"}
    assert payload["summary"]["boxes"]["ks-promos"]["open"] > 0
    assert set(rows[0]) >= {
        "origin",
        "status",
        "path",
        "line",
        "column",
        "box",
        "document",
        "card",
        "field",
        "why",
        "address",
        "check",
    }


def test_gaps_formats_and_exit_codes(repo: Path) -> None:
    table = run_cli(["gaps", KLAW], cwd=repo)
    assert table.returncode == 0
    # 12 placements (one note, folded into its 12 card rows) and the Dashboard's MU108.
    assert table.stdout.splitlines()[-1].startswith(
        "13 open on 13 checks, 0 resolved (multiverse-ks-promos: 13 open"
    )
    assert "klaw.yaml:38  klaw  masterplan/cards/1/place  open" in table.stdout
    markdown = run_cli(["gaps", KLAW, "--format", "markdown", "--group-by", "field"], cwd=repo)
    assert "## masterplan" in markdown.stdout and "| file | document |" in markdown.stdout
    csv_text = run_cli(["gaps", KLAW, "--format", "csv"], cwd=repo).stdout
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    assert rows[1]["address"] == "masterplan/cards/2/place" and rows[1]["evidence"] == ""
    assert run_cli(["gaps", KLAW, "--fail-on", "open"], cwd=repo).returncode == 1
    resolved = run_cli(["gaps", KLAW, "--status", "resolved", "--fail-on", "open"], cwd=repo)
    assert resolved.returncode == 1
    quiet = run_cli(["gaps", "cards/marvel-united/maximum-carnage", "--fail-on", "open"], cwd=repo)
    assert quiet.returncode == 0


def test_corpus_files_survive_a_round_trip_byte_for_byte() -> None:
    rt = yamlio.round_trip_yaml()
    for path in sorted((ROOT / "cards").rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        stream = io.StringIO()
        rt.dump(rt.load(text), stream)
        assert stream.getvalue() == text, path


def test_confirm_touches_only_the_changed_lines(repo: Path) -> None:
    target = repo / KLAW
    target.write_text(
        target.read_text().replace("    - n: 3\n", "    - n: 3  # checked this one twice\n")
    )
    before = target.read_text().splitlines()
    result = run_cli(
        [
            "confirm",
            "klaw",
            "masterplan/cards/3/place",
            "--by",
            "ana",
            "--evidence",
            "card file at 600 dpi",
            "--date",
            "2026-11-29",
        ],
        cwd=repo,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"{KLAW}: confirmed masterplan/cards/3/place"
    after = target.read_text().splitlines()
    import difflib

    diff = difflib.unified_diff(before, after, lineterm="", n=0)
    changes = [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert changes == [
        "-      unconfirmed: [place]",
        "+      confirmations:",
        "+        - {field: place, by: ana, date: '2026-11-29', evidence: card file at 600 dpi}",
    ]
    assert "# checked this one twice" in target.read_text()
    open_fields = {g["field"] for g in _gaps(repo, KLAW)["gaps"]}
    assert (
        "masterplan/cards/3/place" not in open_fields and "masterplan/cards/4/place" in open_fields
    )
    resolved = _gaps(repo, KLAW, "--status", "resolved")["gaps"]
    assert [(g["field"], g["why"]) for g in resolved] == [
        ("masterplan/cards/3/place", "confirmed by ana on 2026-11-29: card file at 600 dpi")
    ]


def test_confirm_corrects_a_placement_and_keeps_the_previous_value(repo: Path) -> None:
    result = run_cli(
        [
            "confirm",
            KLAW,
            "masterplan/cards/4/place",
            "--value",
            "{left: {thug: 2}, right: {thug: 1}}",
            "--by",
            "ana",
            "--evidence",
            "600 dpi scan",
        ],
        cwd=repo,
    )
    assert result.returncode == 0, result.stderr
    assert "corrected masterplan/cards/4/place" in result.stdout
    card = yamlio.load_text((repo / KLAW).read_text())["masterplan"]["cards"][3]
    assert card["place"] == {"left": {"thug": 2}, "right": {"thug": 1}}  # stale wording dropped
    record = card["confirmations"][0]
    assert record["value"] == {"left": {"thug": 2}, "right": {"thug": 1}}
    assert record["previous"]["left"] == {"thug": 1}
    exported = run_cli(
        ["export", "rulebook", "cards/marvel-united/multiverse-ks-promos"], cwd=repo
    ).stdout
    assert (
        "4. Move 1. BAM!. Place 2 Thugs in the left Location and 1 Thug in the right Location."
        in exported
    )
    assert run_cli(["validate", KLAW], cwd=repo).returncode == 0


def test_an_invalid_value_is_refused_and_nothing_changes(repo: Path) -> None:
    before = (repo / KLAW).read_bytes()
    result = run_cli(
        [
            "confirm",
            "klaw",
            "masterplan/cards/6/place",
            "--value",
            "{left: {civilian: -1}}",
            "--by",
            "ana",
            "--evidence",
            "x",
        ],
        cwd=repo,
    )
    assert result.returncode == 1
    assert "refused" in result.stderr and "nothing was written" in result.stderr
    assert (repo / KLAW).read_bytes() == before
    assert sorted(p.name for p in (repo / KLAW).parent.iterdir() if p.name.startswith(".")) == []


def test_a_refusal_names_the_card_by_its_number(repo: Path) -> None:
    result = run_cli(
        [
            "confirm",
            "klaw",
            "masterplan/cards/4/move",
            "--value",
            "x",
            "--by",
            "a",
            "--evidence",
            "b",
        ],
        cwd=repo,
    )
    assert result.returncode == 1
    assert "refused: masterplan/cards/4/move" in result.stderr, result.stderr


def test_addressing_errors_list_the_candidates(repo: Path) -> None:
    bad_card = run_cli(
        ["confirm", "klaw", "masterplan/cards/13/place", "--by", "a", "--evidence", "b"], cwd=repo
    )
    assert bad_card.returncode == 2 and "choose one of: 1, 2, 3" in bad_card.stderr
    ambiguous = run_cli(
        ["confirm", "bullseye", "dashboard/bam", "--by", "a", "--evidence", "b"], cwd=repo
    )
    assert (
        ambiguous.returncode == 2
        and "ambiguous" in ambiguous.stderr
        and "marvel-champions" in ambiguous.stderr
    )
    typo = run_cli(["confirm", "klw", "dashboard/bam", "--by", "a", "--evidence", "b"], cwd=repo)
    assert "no file or document id 'klw' under cards; did you mean 'klaw'?" in typo.stderr
    by_system = run_cli(
        ["confirm", "marvel-united:bullseye", "dashboard/bam", "--by", "a", "--evidence", "b"],
        cwd=repo,
    )
    assert by_system.returncode == 0, by_system.stderr
    no_evidence = run_cli(["confirm", "klaw", "dashboard/bam"], cwd=repo)
    assert no_evidence.returncode == 2 and "--evidence" in no_evidence.stderr


def test_a_note_resolves_when_all_its_fields_are_confirmed(repo: Path) -> None:
    for n in range(1, 13):
        result = run_cli(
            ["confirm", "klaw", f"masterplan/cards/{n}/place", "--by", "ana", "--evidence", "scan"],
            cwd=repo,
        )
        assert result.returncode == 0, result.stderr
    assert "gap note masterplan/gaps/0 resolved" in result.stdout
    note = yamlio.load_text((repo / KLAW).read_text())["masterplan"]["gaps"][0]
    assert note["status"] == "resolved"
    assert _gaps(repo, KLAW)["summary"]["open"] == 1  # only the inferred Dashboard gap is left


def test_batch_checklist(repo: Path, tmp_path: Path) -> None:
    checklist = run_cli(["gaps", KLAW, "--format", "csv"], cwd=repo).stdout
    rows = list(csv.DictReader(io.StringIO(checklist)))
    for row in rows:
        if row["address"] in ("masterplan/cards/1/place", "masterplan/cards/2/place"):
            row["evidence"] = "sorted the box, card in hand"
        if row["address"] == "masterplan/cards/2/place":
            row["value"] = "{left: {thug: 2}, right: {thug: 2}}"
    filled = tmp_path / "checklist.csv"
    with filled.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    result = run_cli(["confirm", "--batch", str(filled), "--by", "ana"], cwd=repo)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"{KLAW}: confirmed masterplan/cards/1/place",
        f"{KLAW}: corrected masterplan/cards/2/place",
    ]
    open_fields = {g["field"] for g in _gaps(repo, KLAW)["gaps"]}
    assert not {"masterplan/cards/1/place", "masterplan/cards/2/place"} & open_fields


def test_sigkill_during_confirm_leaves_old_or_new_file(repo: Path, tmp_path: Path) -> None:
    """Kill real confirm runs at random moments: the file is, byte for byte, old or new."""
    from cardkit.confirm import edit as confirm

    target = repo / KLAW
    rng = random.Random(3)
    outcomes = {"old": 0, "new": 0}
    for attempt in range(12):
        address = f"masterplan/cards/{attempt % 12 + 1}/place"
        before = target.read_bytes()
        scratch = tmp_path / f"expected-{attempt}.yaml"
        scratch.write_bytes(before)
        request = confirm.Request(address, "ana", "kill test", "2026-11-29")
        confirm.confirm_file(scratch, [request])
        after_whole_run = scratch.read_bytes()
        proc = subprocess.Popen(
            [
                *KILL_COMMAND,
                address,
                "--by",
                "ana",
                "--evidence",
                "kill test",
                "--date",
                "2026-11-29",
            ],
            cwd=repo,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.05, 0.6))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        now = target.read_bytes()
        assert now in (before, after_whole_run), f"attempt {attempt}: a file neither old nor new"
        outcomes["old" if now == before else "new"] += 1
        leftovers = [p for p in target.parent.iterdir() if p.name.startswith(f".{target.name}.")]
        for (
            leftover
        ) in leftovers:  # a killed writer may leave its temporary file, never a bad target
            leftover.unlink()
    assert run_cli(["validate", KLAW], cwd=repo).returncode == 0
    assert sum(outcomes.values()) == 12


def test_terminal_table_is_drawn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "160")  # the width a pipe gets, whatever runs the suite
    from cardkit.gaps import rows as gaps
    from cardkit.report.gaps_report import rich_table

    documents, _ = gaps.load([FROZEN_KLAW])
    rows = gaps.collect(documents)
    text = rich_table(rows, None)
    assert text.count("┏") == 1 and "klaw.yaml:38" in text
    assert text.rstrip().splitlines()[-1].startswith("13 open on 13 checks, 0 resolved")
    # The why column wraps: every word of the longest reason is on screen, none cut.
    longest = max((r.why for r in rows), key=len)
    assert "…" not in text and longest.split()[-1] in text


def test_random_addresses_fail_cleanly() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from cardkit.confirm import edit as confirm
    from cardkit.errors import CardkitError

    text = FROZEN_KLAW.read_text()
    parts = st.sampled_from(
        ["masterplan", "cards", "place", "dashboard", "gaps", "0", "3", "12", "99", "*", "", "x y"]
    )

    @settings(max_examples=200, deadline=None)
    @given(st.lists(parts, max_size=5))
    def check(segments: list[str]) -> None:
        data = yamlio.round_trip_yaml().load(text)
        outcome = confirm.Outcome(Path(KLAW))
        try:
            confirm.apply(
                data, confirm.Request("/".join(segments), "a", "b", "2026-11-29"), outcome
            )
        except CardkitError:
            return
        assert outcome.confirmed or outcome.resolved_notes

    check()
