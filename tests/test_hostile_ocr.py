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


def _blank_pdf(path: Path, pages: int, width_mm: float, height_mm: float) -> Path:
    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=width_mm * 72 / 25.4, height=height_mm * 72 / 25.4)
    with path.open("wb") as stream:
        writer.write(stream)
    return path


def test_a_small_pdf_of_huge_pages_is_refused_before_rendering(tmp_path):
    from cardkit.ocr import intake

    poster = _blank_pdf(tmp_path / "poster.pdf", 12, 5000, 5000)
    assert poster.stat().st_size < 10_000
    with pytest.raises(intake.IntakeError) as refused:
        intake.load(poster)
    assert str(refused.value) == (
        f"{poster}: page 1 is 5000 x 5000 mm, over the 420 x 594 mm (A2) cap for a scan; "
        "nothing rendered"
    )
    many = _blank_pdf(tmp_path / "many.pdf", 40, 420, 594)  # each allowed, together too many
    with pytest.raises(intake.IntakeError, match=r"pages 1-\d+ hold over [\d,]+ pixels"):
        intake.load(many)
    pages = _blank_pdf(tmp_path / "pages.pdf", 501, 10, 10)
    with pytest.raises(intake.IntakeError, match="501 pages, over the 500-page cap"):
        intake.load(pages)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_link_to_an_endless_device_fails_alone_without_reading(tmp_path):
    (tmp_path / "scans").mkdir()
    (tmp_path / "scans" / "zero.png").symlink_to("/dev/zero")
    blank_card(tmp_path / "scans" / "card.png")
    gate = tmp_path / "gate"
    gate.touch()
    done = run_cli(
        ["ocr", str(tmp_path / "scans"), "--out", str(tmp_path / "d"), GATE],
        env={"CARDKIT_TEST_GATE": str(gate)},
    )
    assert done.returncode == 1
    assert done.stderr == (
        f"cardkit: {tmp_path / 'scans' / 'zero.png'}: is a pipe or device, not a scan; "
        "nothing was read\n"
    )
    assert (tmp_path / "d" / "card.yaml").exists()  # the other scan was read


def test_a_scan_over_the_size_cap_is_refused_before_reading(tmp_path):
    from cardkit.ocr import intake

    big = tmp_path / "big.png"
    with big.open("wb") as stream:
        stream.truncate(intake.MAX_SCAN_BYTES + 1)  # sparse: nothing to read
    with pytest.raises(intake.IntakeError, match=r"268,435,457 bytes, over the 268,435,456-byte"):
        intake.load(big)


@pytest.mark.parametrize(
    ("option", "says"),
    [
        (["--timeout", "-1"], "--timeout must be a positive number of seconds, not -1"),
        (["--timeout", "0"], "--timeout must be a positive number of seconds, not 0"),
        (["--timeout", "nan"], "--timeout must be a positive number of seconds, not nan"),
        (["--jobs", "-3"], "--jobs must be 0 (every core) or more, not -3"),
    ],
)
def test_timeout_and_jobs_out_of_range_are_usage_errors(tmp_path, option, says):
    blank_card(tmp_path / "card.png")
    done = run_cli(["ocr", str(tmp_path / "card.png"), "--out", str(tmp_path / "d"), *option])
    assert done.returncode == 2
    assert done.stderr == f"cardkit: {says}\n"
    assert not (tmp_path / "d").exists()


def test_jobs_are_capped_to_the_scans_and_the_cores(tmp_path):
    from cardkit.ocr import batch

    cores = os.cpu_count() or 1
    assert batch.workers_for(3, 200) == min(3, cores)
    assert batch.workers_for(1000, 200) == cores
    assert batch.workers_for(0, 0) == 1
    for name in ("a", "b", "c"):
        blank_card(tmp_path / f"{name}.png")
    gate = tmp_path / "gate"
    gate.touch()
    os.environ["CARDKIT_TEST_GATE"] = str(gate)
    try:
        settings = batch.Settings(tmp_path / "d", engine="tests.ocr_engines:Gate")
        results = batch.run(sorted(tmp_path.glob("*.png")), settings, jobs=200)
    finally:
        del os.environ["CARDKIT_TEST_GATE"]
    assert all(r.ok for r in results), [r.message for r in results]
    assert 1 <= len({r.worker for r in results}) <= 3  # not 200 workers for 3 scans
