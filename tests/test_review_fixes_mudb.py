"""Review fixes on mu-db import: hostile inputs and files that would be written twice."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

BOX = ROOT / "tests/data/mudb/handmade-box.json"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_named_like_a_box_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "box.json"
    os.mkfifo(fifo)
    # Were the FIFO read (the bug), the read would wait for a writer: this one opens it
    # and writes nothing, so the test ends either way and says which it was.

    def writer() -> None:
        fd = os.open(fifo, os.O_WRONLY)  # waits until a reader opens it
        os.close(fd)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        result = run_cli(["import", "mu-db", str(fifo), "--out", str(tmp_path / "cards")])
    finally:
        if thread.is_alive():  # unblock the writer: open for reading ourselves
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        thread.join(5)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "not a JSON file" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "cards").exists()


def test_a_sidecar_file_name_taken_twice_is_refused_not_written_over(tmp_path: Path) -> None:
    source = tmp_path / "handmade-box.json"
    shutil.copy(BOX, source)
    # An extra document the sidecar puts in box.yaml, where the box's manifest goes.
    (tmp_path / "handmade-box.cardkit.yaml").write_text(
        "format: cardkit mu-db sidecar 1\n"
        "documents:\n"
        "  - file: box.yaml\n"
        "    document: {kind: marvel-united/villain, id: extra-villain, name: Extra}\n",
        encoding="utf-8",
    )
    out = tmp_path / "cards"
    result = run_cli(["import", "mu-db", str(source), "--out", str(out)])
    assert result.returncode == 2, result.stdout + result.stderr
    assert "two documents go to" in result.stderr and "box.yaml" in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists()  # refused before anything was written


def _imported(tmp_path: Path) -> Path:
    cards = tmp_path / "cards"
    run_cli(["import", "mu-db", str(BOX), "--out", str(cards)])
    return cards


def test_an_export_file_name_from_the_data_cannot_leave_the_out_folder(tmp_path: Path) -> None:
    cards = _imported(tmp_path)
    manifest = cards / "ck-handmade" / "box.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert "    file: handmade-box.json\n" in text
    manifest.write_text(
        text.replace("    file: handmade-box.json\n", "    file: ../../escaped.json\n"), "utf-8"
    )
    out = tmp_path / "out" / "deep"
    result = run_cli(["export", "mu-db", str(cards), "--out", str(out)])
    assert not (tmp_path / "escaped.json").exists()
    assert result.returncode == 2, result.stdout + result.stderr
    assert "escaped.json" in result.stderr and "Traceback" not in result.stderr


def test_two_boxes_exported_to_one_file_are_refused(tmp_path: Path) -> None:
    cards = _imported(tmp_path)
    twin = cards / "ck-twin"
    shutil.copytree(cards / "ck-handmade", twin)
    for path in twin.glob("*.yaml"):  # the same box under another id, same source file
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("ck-handmade", "ck-twin"), encoding="utf-8")
    out = tmp_path / "out"
    result = run_cli(["export", "mu-db", str(cards), "--out", str(out)])
    assert result.returncode == 2, result.stdout + result.stderr
    assert "handmade-box.json" in result.stderr and "ck-twin" in result.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    "patch",
    ["{sub: [1]}", "{keep: 3}", "{was: {name: 1}}", "{order: 5}"],
)
def test_a_sidecar_patch_not_shaped_as_one_is_one_line(tmp_path: Path, patch: str) -> None:
    source = tmp_path / "handmade-box.json"
    shutil.copy(BOX, source)
    (tmp_path / "handmade-box.cardkit.yaml").write_text(
        f"format: cardkit mu-db sidecar 1\ndocuments:\n  - at: box\n    patch: {patch}\n",
        encoding="utf-8",
    )
    out = tmp_path / "cards"
    result = run_cli(["import", "mu-db", str(source), "--out", str(out)])
    assert result.returncode == 2, result.stdout + result.stderr
    assert "handmade-box.cardkit.yaml: documents[0].patch" in result.stderr
    assert "internal error" not in result.stderr and len(result.stderr.splitlines()) == 1
    assert not out.exists()


def test_a_sidecar_file_name_with_a_nul_is_one_line(tmp_path: Path) -> None:
    source = tmp_path / "handmade-box.json"
    shutil.copy(BOX, source)
    (tmp_path / "handmade-box.cardkit.yaml").write_text(
        'format: cardkit mu-db sidecar 1\ndocuments:\n  - file: "x\\0.yaml"\n'
        "    document: {kind: marvel-united/villain, id: extra-villain, name: Extra}\n",
        encoding="utf-8",
    )
    result = run_cli(["import", "mu-db", str(source), "--out", str(tmp_path / "cards")])
    assert result.returncode == 2, result.stdout + result.stderr
    assert "is not a path inside the box folder" in result.stderr
    assert "internal error" not in result.stderr
