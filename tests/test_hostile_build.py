"""Two `cardkit build` at once, Ctrl-C and SIGTERM to a build, and cardkit without fcntl
(as on Windows): real processes, since processes are what is tested (issue 21)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardkit.files import locks
from tests.conftest import ROOT, run_cli

HERO = "kind: marvel-united/hero\nid: test-hero\nname: Test Hero\n"
NO_FCNTL = {"PYTHONPATH": f"{ROOT / 'tests' / 'no_fcntl'}{os.pathsep}{ROOT}"}


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    card = repo / "cards" / "marvel-united" / "promo" / "test-hero.yaml"
    card.parent.mkdir(parents=True)
    card.write_text(HERO, encoding="utf-8")
    (repo / "scans").mkdir()
    return repo


def _build(repo: Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cardkit", "build"],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )


def test_a_second_build_waits_for_the_first_and_says_so(tmp_path):
    repo = _repo(tmp_path)
    with locks.exclusive(repo, ".build.lock"):  # as a first build holds it
        second = _build(repo)
        assert second.stderr is not None
        line = second.stderr.readline()  # printed while it waits, before any work
        assert re.fullmatch(  # the process is named where the lock can say who holds it
            r"cardkit: another cardkit build is writing build( \(process \d+\))?; "
            r"waiting for it to finish\n",
            line,
        ), line
        time.sleep(0.5)
        assert second.poll() is None and not (repo / "build" / "index.html").exists()
    _, stderr = second.communicate(timeout=300)
    assert second.returncode == 0, stderr
    assert (repo / "build" / "index.html").is_file()


def test_builds_started_together_both_finish_and_build_stays_whole(tmp_path):
    repo = _repo(tmp_path)
    for trial in range(4):
        (repo / "cards" / "marvel-united" / "promo" / "test-hero.yaml").write_text(
            HERO + f"# trial {trial}\n", encoding="utf-8"
        )
        both = [_build(repo), _build(repo)]
        done = [p.communicate(timeout=300) for p in both]
        assert [p.returncode for p in both] == [0, 0], [err for _, err in done]
        assert not any("Traceback" in err for _, err in done)
        assert (repo / "build" / "index.html").is_file()
    assert [p.name for p in repo.iterdir() if p.name.startswith(".build")] == []


@pytest.mark.parametrize(
    ("how", "code", "says"),
    [
        (signal.SIGINT, 130, "cardkit: interrupted\n"),
        (signal.SIGTERM, 143, "cardkit: terminated\n"),
    ],
)
def test_a_stopped_build_says_so_in_one_line(tmp_path, how, code, says):
    repo = _repo(tmp_path)
    with locks.exclusive(repo, ".build.lock"):  # the build waits here: stopped mid-run
        process = _build(repo)
        assert process.stderr is not None
        process.stderr.readline()
        process.send_signal(how)
        _, stderr = process.communicate(timeout=60)
    assert process.returncode == code
    assert stderr == says
    assert [p.name for p in repo.iterdir() if p.name.startswith(".build")] == []


def test_build_and_confirm_run_without_fcntl(tmp_path):
    repo = _repo(tmp_path)
    built = run_cli(["build"], cwd=repo, env=NO_FCNTL)
    assert built.returncode == 0, built.stderr
    assert (repo / "build" / "index.html").is_file()
    card = repo / "cards" / "marvel-united" / "promo" / "test-hero.yaml"
    card.write_text(HERO + "unconfirmed: [name]\n", encoding="utf-8")
    confirmed = run_cli(
        ["confirm", str(card), "name", "--by", "tester", "--evidence", "card"], env=NO_FCNTL
    )
    assert confirmed.returncode == 0, confirmed.stderr
    assert "unconfirmed" not in card.read_text()
    probe = run_cli(["--version"], env=NO_FCNTL)  # the hook is really in place
    assert probe.returncode == 0
    check = subprocess.run(
        [sys.executable, "-c", "import fcntl"], env={**os.environ, **NO_FCNTL}, capture_output=True
    )
    assert check.returncode != 0


def test_the_lock_file_fallback_takes_turns_and_takes_over_from_the_dead(tmp_path, monkeypatch):
    monkeypatch.setattr(locks, "_fcntl", None)
    monkeypatch.setattr(locks, "_msvcrt", None)
    told: list[int | None] = []
    marker = tmp_path / ".build.lock"
    with locks.exclusive(tmp_path, ".build.lock"):
        assert marker.read_text() == f"{os.getpid()}\n"
    assert not marker.exists()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    marker.write_text(f"{dead.pid}\n")  # left by a build that was killed
    with locks.exclusive(tmp_path, ".build.lock", told.append):
        assert marker.read_text() == f"{os.getpid()}\n"
    assert told == []  # nobody alive held it: no wait
