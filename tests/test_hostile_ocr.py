"""`cardkit ocr` under hostile input, as real processes where a process is what is tested:
a draft saved by hand during the scan, a file name that tries to write YAML, a kill of
the batch's parent, and inputs that would take unbounded memory (issue 21)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardkit.files import yamlio
from tests.conftest import ROOT, run_cli
from tests.test_ocr_pipeline import blank_card


def _wait_for(path: Path, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


GATE = "--engine=tests.ocr_engines:Gate"


def _ocr(gate: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cardkit", "ocr", *args, GATE],
        cwd=ROOT,
        env={**os.environ, "CARDKIT_TEST_GATE": str(gate)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def test_a_draft_saved_by_hand_during_the_scan_is_kept(tmp_path):
    blank_card(tmp_path / "card.png")
    out, gate = tmp_path / "d", tmp_path / "gate"
    process = _ocr(gate, str(tmp_path / "card.png"), "--out", str(out))
    _wait_for(tmp_path / "gate.reading")  # the worker is reading the scan: no draft yet
    assert not (out / "card.yaml").exists()
    (out / "card.yaml").write_text("# mine, typed while the scan was read\nkind: x\n")
    gate.touch()  # the reading ends; the draft would now be written
    stdout, stderr = process.communicate(timeout=120)
    assert (out / "card.yaml").read_text() == "# mine, typed while the scan was read\nkind: x\n"
    assert process.returncode == 0, stderr
    assert stdout.endswith(
        "0 drafts from 1 scans, 0 failed, 1 kept (their drafts exist: --force reads them again)\n"
    )
    assert [p.name for p in out.iterdir()] == ["card.yaml"]  # no temporary file left


def test_with_force_the_draft_saved_meanwhile_is_replaced(tmp_path):
    blank_card(tmp_path / "card.png")
    out, gate = tmp_path / "d", tmp_path / "gate"
    process = _ocr(gate, str(tmp_path / "card.png"), "--out", str(out), "--force")
    _wait_for(tmp_path / "gate.reading")
    (out / "card.yaml").write_text("kind: x\n")
    gate.touch()
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr
    assert yamlio.load_text((out / "card.yaml").read_text())["provenance"]["engine"] == "gate"


def test_a_file_name_with_line_breaks_cannot_write_yaml_or_forge_output(tmp_path):
    name = "x\ninjected: 1\n#"
    blank_card(tmp_path / f"{name}.png")
    out, gate = tmp_path / "d", tmp_path / "gate"
    gate.touch()  # open: the engine reads nothing at once
    done = run_cli(
        ["ocr", str(tmp_path / f"{name}.png"), "--out", str(out), GATE],
        env={"CARDKIT_TEST_GATE": str(gate)},
    )
    assert done.returncode == 0, done.stderr
    draft = out / f"{name}.yaml"
    data = yamlio.load_text(draft.read_text())
    assert "injected" not in data
    assert data["provenance"]["scan"] == str(tmp_path / f"{name}.png")  # kept as data
    assert data["id"] == "x-injected-1"
    lines = done.stdout.splitlines()
    assert len(lines) == 2, lines  # one line per draft and the tally: nothing forged
    assert lines[0].startswith(str(out / "x\\ninjected: 1\\n#.yaml") + ": ")
    assert not any(line.startswith("injected") for line in lines)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z")


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to find the workers")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_workers_end_with_their_parent(tmp_path, how):
    for name in ("a", "b"):
        blank_card(tmp_path / f"{name}.png")
    log = tmp_path / "stderr.txt"
    with log.open("w") as stream:  # a file, not a pipe: a worker left behind would hold it open
        command = ["ocr", str(tmp_path), "--out", str(tmp_path / "d"), "-j", "2"]
        command.append("--engine=tests.ocr_engines:Hang")
        process = subprocess.Popen(
            [sys.executable, "-m", "cardkit", *command],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=stream,
            start_new_session=True,
        )
    deadline = time.monotonic() + 120
    while len(workers := _children(process.pid)) < 2:
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.05)
    time.sleep(0.5)  # both are reading (and hang)
    os.kill(process.pid, how)  # the parent only, as `kill PID` does: not its group
    process.wait(timeout=60)
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [w for w in workers if _alive(w)]
    for pid in left:  # do not leave them to the machine if the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers {left} outlived their parent"
    if how == signal.SIGTERM:
        assert process.returncode == 143
        assert log.read_text() == "cardkit: terminated\n"
