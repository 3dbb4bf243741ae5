"""Shared helpers: run the real CLI, in-process or as a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import settings

# CI runs the property tests on a fixed set of examples, so a landing never depends on a
# random draw; locally they explore (and remember failures in .hypothesis/).
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parent.parent


def run_cli(
    args: Sequence[str], cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`python -m cardkit ARGS` in a real process: exit codes and streams as a user sees them."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "cardkit", *args],
        cwd=cwd or ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def cli():
    return run_cli


def cardkit_in_process(
    args: Sequence[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    """The CLI in this process, as `cardkit.cli.main` runs it: exit code, stdout, stderr."""
    from cardkit.cli import main

    argv = sys.argv
    sys.argv = ["cardkit", *args]
    try:
        main()
        code = 0
    except SystemExit as done:
        code = int(done.code or 0)
    finally:
        sys.argv = argv
    out, err = capsys.readouterr()
    return code, out, err
