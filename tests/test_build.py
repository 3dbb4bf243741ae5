"""cardkit build: whole or not at all, incremental, and going on past a bad rulebook."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardkit.files import staging
from tests.conftest import ROOT, run_cli


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    for part in ("cards", "scans"):
        shutil.copytree(ROOT / part, repo / part)
    return repo


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _touch_card(repo: Path, text: str) -> None:
    card = repo / "cards" / "marvel-champions" / "fear-no-evil" / "bullseye.yaml"
    card.write_text(card.read_text() + f"# {text}\n")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = _repo(tmp_path_factory.mktemp("built"))
    first = run_cli(["build"], cwd=repo)
    assert first.returncode == 0, first.stderr
    return repo


def test_a_second_build_with_nothing_changed_is_up_to_date(built: Path) -> None:
    before = {p.name: p.stat().st_mtime_ns for p in (built / "build").iterdir()}
    again = run_cli(["build"], cwd=built)
    assert again.returncode == 0
    assert again.stdout.startswith("up to date: nothing changed")
    assert again.stderr == ""  # no progress in a pipe
    assert {p.name: p.stat().st_mtime_ns for p in (built / "build").iterdir()} == before


def test_one_changed_card_redoes_only_what_depends_on_it(tmp_path: Path, built: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(built, repo)
    _touch_card(repo, "a changed comment")
    result = run_cli(["build"], cwd=repo)
    assert result.returncode == 0, result.stderr
    assert "import: 1 of 5 rulebooks re-read from scans/ (4 unchanged)" in result.stdout
    assert "proof: " in result.stdout and "(unchanged)" not in result.stdout.split("proof:")[1]
    # A rulebook alone: its re-read runs again, the proofs are reused as they were.
    proofs = (repo / "build" / "proofs.pdf").read_bytes()
    book = repo / "scans" / "villainous" / "user-manual" / "rulebook.txt"
    book.write_text(book.read_text() + "\n")
    result = run_cli(["build"], cwd=repo)
    assert "import: 1 of 5 rulebooks" in result.stdout
    assert "(unchanged)" in result.stdout.split("proof:")[1]
    assert (repo / "build" / "proofs.pdf").read_bytes() == proofs


def test_an_undecodable_rulebook_is_a_finding_and_the_build_goes_on(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / "scans" / "villainous" / "user-manual" / "rulebook.txt").write_bytes(b"\xff\xfe\x00bad")
    result = run_cli(["build"], cwd=repo)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    report = (repo / "build" / "import.txt").read_text().splitlines()
    assert [line for line in report if "not read" in line] == [
        "villainous / user-manual: not read: "
        "scans/villainous/user-manual/rulebook.txt:1:1: not UTF-8: byte 0xff cannot be decoded"
    ]
    assert len(report) == 5  # the other four were re-read
    for name in ("validate.json", "gaps.json", "proofs.pdf", "index.html", "checklist.csv"):
        assert (repo / "build" / name).stat().st_size > 0
    # Still failing on the next run, though nothing changed.
    again = run_cli(["build"], cwd=repo)
    assert again.returncode == 1 and again.stdout.startswith("up to date")


def test_the_build_keeps_what_it_did_not_make_and_drops_what_it_no_longer_makes(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    (repo / "build").mkdir()
    (repo / "build" / ".gitkeep").write_text("")
    (repo / "build" / "my-notes.txt").write_text("mine")
    assert run_cli(["build"], cwd=repo).returncode == 0
    assert (repo / "build" / "my-notes.txt").read_text() == "mine"
    assert (repo / "build" / ".gitkeep").exists()
    # Nothing printable any more: the old proofs go, the person's files stay.
    shutil.rmtree(repo / "cards")
    (repo / "cards").mkdir()
    assert run_cli(["build"], cwd=repo).returncode == 0
    names = {p.name for p in (repo / "build").iterdir()}
    assert "proofs.pdf" not in names and "proofs-001.png" not in names
    assert {"my-notes.txt", ".gitkeep", "index.html"} <= names
    assert [p.name for p in repo.iterdir() if p.name.startswith(".build")] == []


@pytest.mark.parametrize(
    ("out", "says"),
    [("notes.txt", "must be a folder"), (".", "would replace the repository"),
     ("cards/out", "outside cards/")],
)  # fmt: skip
def test_an_out_that_would_destroy_something_is_refused(
    tmp_path: Path, out: str, says: str
) -> None:
    repo = tmp_path / "repo"
    (repo / "cards").mkdir(parents=True)
    (repo / "notes.txt").write_text("keep")
    result = run_cli(["build", "--out", out], cwd=repo)
    assert result.returncode == 2
    assert says in result.stderr and len(result.stderr.splitlines()) == 1
    assert (repo / "notes.txt").read_text() == "keep"


def test_a_run_killed_between_the_two_renames_is_repaired(tmp_path: Path) -> None:
    out = tmp_path / "build"
    out.mkdir()
    (out / "index.html").write_text("old")
    # What the fallback swap leaves when killed after its first rename.
    os.rename(out, tmp_path / ".build.old-4242")
    (tmp_path / ".build.new-4243").mkdir()
    staging.recover(out)
    assert (out / "index.html").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build"]


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT])
def test_a_killed_build_leaves_the_old_outputs_or_the_new_never_a_mix(
    tmp_path: Path, built: Path, how: signal.Signals
) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(built, repo)
    old = _snapshot(repo / "build")
    klaw = repo / "cards" / "marvel-united" / "multiverse-ks-promos" / "klaw.yaml"
    text = klaw.read_text().replace("- name: Solid Sound Body\n", "- name: Solid Sound Bodies\n")
    klaw.write_text("# edited: every line below moves down one\n" + text)
    seen: list[dict[str, bytes]] = []
    for delay in (0.3, 0.6, 0.9, 1.2, 1.6):
        process = subprocess.Popen(
            [sys.executable, "-m", "cardkit", "build"],
            cwd=repo,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        process.send_signal(how)
        process.wait(timeout=60)
        seen.append(_snapshot(repo / "build"))
    finished = run_cli(["build"], cwd=repo)
    assert finished.returncode == 0
    new = _snapshot(repo / "build")
    for name in ("validate.json", "gaps.json", "proofs.pdf", "index.html"):
        assert new[name] != old[name], name  # so that a mix of the two could be told
    for state in seen:
        assert state in (old, new)
    assert [p.name for p in repo.iterdir() if p.name.startswith(".build")] == []


def test_unconfirmed_pdf_holds_only_the_cards_still_to_check(built: Path) -> None:
    from pypdf import PdfReader

    every = PdfReader(built / "build" / "proofs.pdf")
    unconfirmed = PdfReader(built / "build" / "unconfirmed.pdf")
    assert 0 < len(unconfirmed.pages) < len(every.pages)
    text = "".join(page.extract_text() for page in unconfirmed.pages[::2])
    assert "UNCONFIRMED" in text.upper()


def test_a_build_that_finds_errors_names_them(tmp_path: Path) -> None:
    repo = tmp_path / "small"
    hero = repo / "cards" / "marvel-united" / "promo" / "nameless.yaml"
    hero.parent.mkdir(parents=True)
    hero.write_text("kind: marvel-united/hero\nid: nameless\n")
    (repo / "scans").mkdir()
    result = run_cli(["build"], cwd=repo)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    at = lines.index(next(line for line in lines if line.startswith("validate: ")))
    assert "1 error(s)" in lines[at]
    assert lines[at + 1].startswith("  cards/marvel-united/promo/nameless.yaml:1:1: CK100 ")
    assert (repo / "build" / "validate.json").is_file()  # written all the same
