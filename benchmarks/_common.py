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


def measure_command(argv: Sequence[str], cwd: Path | None = None) -> tuple[float, float, float]:
    """Wall time (s), peak resident memory (MB) and CPU time (s) of one run of `argv`, from
    the kernel. CPU time is the fairer figure on a shared, busy machine."""
    import os
    import tempfile

    # stderr goes to a file, not a pipe: a tool naming thousands of skipped files would
    # fill a pipe nobody reads until it exits, and wait for ever.
    with tempfile.TemporaryFile(mode="w+") as errors:
        start = time.perf_counter()
        process = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        process.returncode = code
        if code not in (0, 1):
            errors.seek(0)
            raise SystemExit(f"{argv[0]} exited {code}: {errors.read()[-500:]}")
    return elapsed, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime
