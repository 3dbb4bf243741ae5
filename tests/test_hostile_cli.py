"""Exit codes for what is not the data's fault (issue 21): a full disk or a closed pipe on
the standard output, a broken schema file. Real processes: the streams are what is tested."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_validate_to_a_full_disk_is_one_line_and_exit_2():
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "cardkit", "validate", "cards"],
            cwd=ROOT,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert done.returncode == 2
    assert done.stderr == "cardkit: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("command", [["validate", "cards"], ["gaps", "cards"]])
def test_a_closed_pipe_is_no_finding_and_prints_nothing(command):
    process = subprocess.Popen(
        [sys.executable, "-m", "cardkit", *command],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # as `| true`: the reader is gone before anything is written
    stderr = process.stderr.read()
    process.wait(timeout=300)
    assert process.returncode == 141
    assert stderr == b""


def test_a_broken_schema_file_is_exit_3_naming_it(tmp_path):
    schemas = tmp_path / "schemas"
    shutil.copytree(ROOT / "schemas", schemas)
    broken = schemas / "marvel-united" / "hero.schema.json"
    broken.write_text('{\n  "type": "object",\n  oops\n}\n', encoding="utf-8")
    done = run_cli(["validate", "cards/marvel-united"], env={"CARDKIT_SCHEMAS": str(schemas)})
    assert done.returncode == 3
    assert done.stderr == (
        f"cardkit: {broken}:3:3: schema is not JSON: Expecting property name enclosed in "
        "double quotes\n"
    )


def test_a_schema_that_is_not_a_json_schema_is_exit_3_naming_it(tmp_path):
    schemas = tmp_path / "schemas"
    shutil.copytree(ROOT / "schemas", schemas)
    broken = schemas / "marvel-united" / "hero.schema.json"
    broken.write_text('{"type": 5}\n', encoding="utf-8")
    done = run_cli(["validate", "cards/marvel-united"], env={"CARDKIT_SCHEMAS": str(schemas)})
    assert done.returncode == 3
    assert done.stderr.startswith(f"cardkit: {broken}: not a usable JSON Schema: ")
    assert len(done.stderr.splitlines()) == 1
