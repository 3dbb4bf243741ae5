"""`cardkit ocr` as users run it: the real tesseract on cards drawn here, and the batch's
behaviour with bad files, failing engines, existing drafts and a kill."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardkit.files import yamlio
from tests.conftest import ROOT, run_cli
from tests.ocr_cards import CardText, on_table, villainous_card
from tests.test_ocr_pipeline import blank_card, fate_replay

FATE = CardText(
    "GOLDEN HARP",
    "When Golden Harp is played, attach it to a Hero. That Hero gets +2 Strength.",
    "Item",
    strength=2,
)
VILLAIN = CardText(
    "NIGHT WATCH", "Move an Ally to an adjacent location. Gain 1 Power.", "Ally", 3, 2
)


def _draft(out: Path, name: str) -> dict:
    return yamlio.load_text((out / f"{name}.yaml").read_text())


def test_real_engine_reads_a_scan_a_turned_dark_card_and_a_photo(tmp_path):
    scans = tmp_path / "scans"
    scans.mkdir()
    villainous_card(FATE).save(scans / "harp.png")
    turned = villainous_card(VILLAIN, dark=True).rotate(90, expand=True)
    turned.save(scans / "watch.jpg", quality=90)
    on_table(villainous_card(FATE, seed=5)).save(scans / "photo.jpg", quality=80)
    out = tmp_path / "drafts"
    result = run_cli(["ocr", str(scans), "--out", str(out), "--system", "villainous", "-j", "2"])
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # no progress bar when stderr is not a terminal
    for name in ("harp", "photo"):
        draft = _draft(out, name)
        assert (draft["deck"], draft["title"], draft["type"], draft["strength"]) == (
            "fate",
            "GOLDEN HARP",
            "Item",
            2,
        ), name
        assert draft["ability"] == FATE.ability, name
    watch = _draft(out, "watch")
    assert watch["provenance"]["settings"]["rotation"] in (90, 270)
    assert (watch["deck"], watch["title"], watch["cost"], watch["strength"], watch["type"]) == (
        "villain",
        "NIGHT WATCH",
        2,
        3,
        "Ally",
    )
    assert watch["ability"] == VILLAIN.ability
    validated = run_cli(["validate", str(out)])
    assert validated.returncode == 0, validated.stdout


def _replay_batch(tmp_path: Path) -> tuple[Path, Path]:
    # the replay holds Villainous readings: the folder names the system, so no other
    # system's templates are probed (the replay has nothing recorded for them)
    scans = tmp_path / "scans" / "villainous"
    scans.mkdir(parents=True)
    blank_card(scans / "silver-key.png")
    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps(fate_replay("silver-key")))
    return scans, replay


def test_bad_files_fail_alone_and_the_batch_exits_1(tmp_path):
    scans, replay = _replay_batch(tmp_path)
    (scans / "empty.png").write_bytes(b"")
    (scans / "notes.jpg").write_text("not a picture")
    out = tmp_path / "out"
    args = ["ocr", str(scans), "--out", str(out), f"--engine=replay:{replay}", "--format", "json"]
    result = run_cli(args)
    assert result.returncode == 1
    summary = json.loads(result.stdout)
    assert summary["drafts"] == 1 and summary["failed"] == 2
    assert [s["ok"] for s in summary["scans"]] == [False, False, True]
    assert summary["scans"][2]["drafts"][0]["kind"] == "villainous/card"
    lines = result.stderr.splitlines()
    assert len(lines) == 2
    assert "empty.png: empty file" in lines[0] and "notes.jpg: not an image" in lines[1]
    assert (out / "silver-key.yaml").is_file()


@pytest.mark.parametrize(
    # the crash must come before the timeout even on a loaded machine: a long one there
    ("engine", "says", "timeout"),
    [
        ("tests.ocr_engines:Crash", "test engine crashed", "120"),
        ("tests.ocr_engines:Hang", "timed out", "2"),
    ],
)
def test_a_crashing_or_hanging_engine_fails_each_scan_not_the_run(tmp_path, engine, says, timeout):
    scans = tmp_path / "scans"
    scans.mkdir()
    for name in ("a", "b"):
        blank_card(scans / f"{name}.png")
    out = tmp_path / "out"
    result = run_cli(
        [
            "ocr",
            str(scans),
            "--out",
            str(out),
            f"--engine={engine}",
            "--timeout",
            timeout,
            "-j",
            "2",
        ]
    )
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and all(says in line for line in lines), lines
    assert "a.png" in lines[0] and "b.png" in lines[1]
    assert not list(out.glob("*.yaml"))


def test_drafts_are_never_overwritten_without_force(tmp_path):
    scans, replay = _replay_batch(tmp_path)
    out = tmp_path / "out"
    args = ["ocr", str(scans), "--out", str(out), f"--engine=replay:{replay}"]
    assert run_cli(args).returncode == 0
    draft = out / "silver-key.yaml"
    draft.write_text("# my edits\n" + draft.read_text())
    again = run_cli(args)  # read again (after adding scans, say): the draft is kept
    assert again.returncode == 0, again.stderr
    assert again.stdout.endswith(
        "0 failed, 1 kept (their drafts exist: --force reads them again)\n"
    )
    assert draft.read_text().startswith("# my edits")
    assert run_cli([*args, "--force"]).returncode == 0
    assert not draft.read_text().startswith("# my edits")


def test_two_scans_that_would_share_a_draft_both_fail_naming_each_other(tmp_path):
    scans, replay = _replay_batch(tmp_path)
    other = tmp_path / "elsewhere" / "villainous"
    other.mkdir(parents=True)
    blank_card(other / "silver-key.tiff")
    out = tmp_path / "out"
    args = ["ocr", str(scans), str(other), str(scans / "silver-key.png"), "--out", str(out)]
    result = run_cli([*args, f"--engine=replay:{replay}"])
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 2  # the file named twice is one scan
    assert "silver-key.png: its draft" in lines[0] and "silver-key.tiff" in lines[0]
    assert "silver-key.tiff: its draft" in lines[1] and "silver-key.png" in lines[1]
    assert not out.exists() or not list(out.glob("*.yaml"))


def test_missing_tesseract_is_exit_3_with_the_install_command(tmp_path):
    blank_card(tmp_path / "x.png")
    bare = tmp_path / "bin"
    bare.mkdir()
    env = {"PATH": str(bare)}
    result = run_cli(
        ["ocr", str(tmp_path / "x.png"), "--out", str(tmp_path / "o"), "--engine=tesseract-cli"],
        env=env,
    )
    assert result.returncode == 3
    assert "apt-get install -y tesseract-ocr" in result.stderr
    assert "Traceback" not in result.stderr


def test_usage_errors_are_exit_2(tmp_path):
    result = run_cli(["ocr", str(tmp_path / "nothing.png"), "--out", str(tmp_path)])
    assert result.returncode == 2 and "no such file" in result.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run_cli(["ocr", str(empty), "--out", str(tmp_path / "o")])
    assert result.returncode == 2 and "no scans found" in result.stderr


def test_sigkill_during_a_batch_leaves_no_half_written_draft(tmp_path):
    scans = tmp_path / "scans" / "villainous"  # Villainous readings only (see _replay_batch)
    scans.mkdir(parents=True)
    replay = {"engine": "tesseract", "version": "r", "readings": {}}
    for n in range(40):
        blank_card(scans / f"card{n:02}.png")
        replay["readings"].update(fate_replay(f"card{n:02}")["readings"])
    (tmp_path / "replay.json").write_text(json.dumps(replay))
    out = tmp_path / "out"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cardkit",
            "ocr",
            str(scans),
            "--out",
            str(out),
            f"--engine=replay:{tmp_path / 'replay.json'}",
            "-j",
            "2",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(out.glob("*.yaml"))) < 3:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)  # the batch and its workers, mid-run
    process.wait()
    drafts = sorted(out.glob("*.yaml"))
    assert 3 <= len(drafts) < 40
    for draft in drafts:  # every draft on disk is whole
        data = yamlio.load_text(draft.read_text())
        assert data["provenance"]["scan"].endswith(draft.stem + ".png")
        assert data["title"] == "SILVER KEY"


def test_ctrl_c_ends_a_batch_with_one_line_and_no_worker_left(tmp_path):
    scans = tmp_path / "scans"
    scans.mkdir()
    for name in ("a", "b", "c"):
        blank_card(scans / f"{name}.png")
    command = [sys.executable, "-m", "cardkit", "ocr", str(scans), "--out", str(tmp_path / "o")]
    process = subprocess.Popen(
        [*command, "--engine=tests.ocr_engines:Hang", "-j", "2"],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(3)  # the workers are reading (and hang)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert stderr == "cardkit: interrupted\n"
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):  # no worker outlived the batch
        os.killpg(process.pid, 0)


def test_build_drafts_the_scans_under_scans(tmp_path):
    repo = tmp_path / "repo"
    (repo / "cards").mkdir(parents=True)
    promo = repo / "scans" / "villainous" / "promo"
    promo.mkdir(parents=True)
    villainous_card(FATE).save(promo / "harp.png")
    samples = repo / "scans" / "samples"  # the benchmark's synthetic set: not source material
    samples.mkdir()
    villainous_card(FATE).save(samples / "sample.png")
    result = run_cli(["build"], cwd=repo)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ocr: 1 drafts from 1 scans in drafts/" in result.stdout
    draft = _draft(repo / "build" / "drafts", "harp")
    assert draft["title"] == "GOLDEN HARP"
    assert draft["provenance"]["scan"] == "scans/villainous/promo/harp.png"
    again = run_cli(["build"], cwd=repo)
    assert again.stdout.startswith("up to date"), again.stdout


def _read_without_loading(conn) -> None:
    """In a forked worker: read a word with model loading made impossible."""
    import tesserocr
    from PIL import Image, ImageDraw

    def no_loading(*args, **kwargs):
        raise AssertionError("the worker loaded the model again")

    tesserocr.PyTessBaseAPI = no_loading
    from cardkit.ocr.engine import make_engine

    image = Image.new("L", (260, 60), 255)
    ImageDraw.Draw(image).text((10, 10), "KLAW", fill=0, font_size=36)
    try:
        conn.send(make_engine("tesseract").read(image, "line", key="w").text.strip())
    except Exception as err:
        conn.send(repr(err))


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract")
def test_a_batch_loads_the_model_once_and_its_workers_inherit_it(tmp_path):
    import multiprocessing

    pytest.importorskip("tesserocr")
    from cardkit.ocr import batch

    batch.warm(batch.Settings(tmp_path))
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    worker = context.Process(target=_read_without_loading, args=(send,))
    worker.start()
    send.close()
    read = receive.recv() if receive.poll(60) else "no answer in 60 s"
    worker.join(timeout=10)
    assert read == "KLAW"
