"""`cardkit gaps` on a terminal against the same command in a pipe (the peer), one run each.

    python benchmarks/gaps_terminal.py [--files 1000,10000] [--cards 10] [--trees /tmp/scale]

A terminal is a pseudo-terminal (`pty`) whose output this script reads and throws away.
Per tree size it prints, for the pipe and the terminal: wall and CPU seconds, peak RSS,
seconds to the first byte of output, and the terminal/pipe ratios. The trees are
benchmarks/validate.py's (villains of CARDS master plan cards; every third card's
placement unconfirmed, a tenth of the files invalid and skipped).
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from validate import _tree


def run(argv: list[str], terminal: bool) -> tuple[float, float, float, float, int]:
    """(wall s, CPU s, peak RSS MB, first byte s, bytes) of one run, stdout a pty or a pipe."""
    if terminal:
        reader, writer = pty.openpty()
        os.set_blocking(reader, False)
    else:
        reader, writer = os.pipe()
    start = time.perf_counter()
    process = subprocess.Popen(
        argv,
        stdout=writer,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "COLUMNS": "160", "LINES": "50"},
    )
    os.close(writer)
    first, size = 0.0, 0
    while True:
        ready, _, _ = select.select([reader], [], [], 0.5)
        if not ready:
            if process.poll() is not None and terminal:
                break
            continue
        try:
            chunk = os.read(reader, 1 << 16)
        except OSError:  # a pty reads EIO once the child has closed it
            break
        if not chunk:
            break
        first = first or time.perf_counter() - start
        size += len(chunk)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    os.close(reader)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{argv} exited {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, first, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", default="1000,10000", help="comma-separated tree sizes")
    parser.add_argument("--cards", type=int, default=10)
    parser.add_argument("--trees", type=Path, help="keep the trees here and reuse them")
    args = parser.parse_args()
    cardkit = str(Path(sys.executable).parent / "cardkit")
    print("| files | rows | pipe: wall / CPU / RSS / first byte | terminal: same "
          "| terminal/pipe CPU | RSS |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for files in (int(n) for n in args.files.split(",")):
        where, _ = _tree(files, args.cards, args.trees)
        argv = [cardkit, "gaps", str(where)]
        rows = subprocess.run(argv, capture_output=True, text=True).stdout.count("\n") - 1
        pipe, tty = run(argv, terminal=False), run(argv, terminal=True)
        cells = [f"{w:.1f} s / {c:.1f} s / {m:.0f} MB / {f:.2f} s" for w, c, m, f, _ in (pipe, tty)]
        print(
            f"| {files:,} | {rows:,} | {cells[0]} | {cells[1]} "
            f"| {tty[1] / pipe[1]:.2f}x | {tty[2] / pipe[2]:.2f}x |",
            flush=True,
        )
        if args.trees is None:
            import shutil

            shutil.rmtree(where, ignore_errors=True)


if __name__ == "__main__":
    main()
