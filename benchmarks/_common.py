"""Helpers for the benchmarks: timing subprocesses the same way for every tool."""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path


def time_command(
    argv: Sequence[str], rounds: int, cwd: Path | None = None, ok: Sequence[int] = (0, 1)
) -> float:
    """Median wall time of `argv` over `rounds` runs; checks the exit code each time."""
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        result = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
        samples.append(time.perf_counter() - start)
        if result.returncode not in ok:
            raise SystemExit(f"{argv[0]} exited {result.returncode}: {result.stderr[-500:]}")
    return statistics.median(samples)
