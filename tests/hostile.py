"""Helpers for the hostile-input tests: cardkit's own entry point, in this process."""

from __future__ import annotations

import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass
class Ran:
    code: int
    out: str
    err: str


def cardkit(args: list[str], capsys: pytest.CaptureFixture[str], cwd: Path | None = None) -> Ran:
    """`cardkit ARGS` through `cardkit.cli.main` (its one error handler included), in-process."""
    from cardkit.cli import main

    capsys.readouterr()
    before, argv, here = signal.getsignal(signal.SIGTERM), sys.argv, os.getcwd()
    sys.argv = ["cardkit", *args]
    try:
        if cwd is not None:
            os.chdir(cwd)
        try:
            main()
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        sys.argv = argv
        os.chdir(here)
        signal.signal(signal.SIGTERM, before)
    captured = capsys.readouterr()
    return Ran(code, captured.out, captured.err)


def one_line(ran: Ran) -> str:
    """The single stderr line of a refusal (asserting there is exactly one, no traceback)."""
    lines = ran.err.splitlines()
    assert len(lines) == 1, ran.err
    assert "Traceback" not in ran.err
    return lines[0]
