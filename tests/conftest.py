"""Shared helpers: run the real CLI, in-process or as a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import traceback
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
# the id index of one-file commands (cardkit/check/id_index.py) caches under the user's
# cache folder; the suite's runs, in-process and as processes, keep theirs apart
os.environ.setdefault("CARDKIT_CACHE", tempfile.mkdtemp(prefix="cardkit-test-cache-"))


# Variables a run inside this process honours as a new process would; any other (a
# plug-in's CARDKIT_SYSTEMS, PYTHONPATH, PYTHONHASHSEED) needs a process of its own.
IN_PROCESS_ENV = {"COLUMNS"}


def run_cli(
    args: Sequence[str], cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The real CLI as a user calls it: exit code and both streams.

    In this process (through the same `main` and its one error handler) unless the
    environment asks for what only a new process has; `run_process` always starts one.
    """
    if env and set(env) - IN_PROCESS_ENV:
        return run_process(args, cwd=cwd, env=env)
    return run_in_process(args, cwd=cwd, env=env)


def run_in_process(
    args: Sequence[str], cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    from click.testing import CliRunner

    from cardkit.cli import main

    runner = CliRunner()
    old_cwd, old_argv = Path.cwd(), sys.argv
    code: int
    with runner.isolation(env=env) as (out, err, _):
        os.chdir(cwd or ROOT)
        sys.argv = ["cardkit", *args]
        try:
            main()
            code = 0
        except SystemExit as done:
            code = _exit_code(done.code)
        except Exception:  # what a process would print and exit 1 with
            sys.stderr.write(traceback.format_exc())
            code = 1
        finally:
            sys.argv = old_argv
            os.chdir(old_cwd)
            sys.stdout.flush()
            sys.stderr.flush()
        stdout = out.getvalue().decode("utf-8", "replace")
        stderr = err.getvalue().decode("utf-8", "replace")
    return subprocess.CompletedProcess(["cardkit", *args], code, stdout, stderr)


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    sys.stderr.write(f"{code}\n")
    return 1


def run_process(
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
