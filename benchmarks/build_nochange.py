"""An up-to-date `cardkit build` against bare `python -c pass` (goal: under 0.5 s).

python benchmarks/build_nochange.py [--rounds 10]

Copies cards/ and scans/ into a scratch folder, builds once (cold, timed once), then
times builds with nothing changed (each must say "up to date") and one with a card's
comment changed.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import measure_command, time_command

ROOT = Path(__file__).resolve().parent.parent


def _once(argv: list[str], cwd: Path) -> tuple[float, str]:
    start = time.perf_counter()
    result = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        raise SystemExit(f"cardkit build exited {result.returncode}: {result.stderr[-500:]}")
    return time.perf_counter() - start, result.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    build = [str(Path(sys.executable).parent / "cardkit"), "build"]
    with tempfile.TemporaryDirectory() as scratch:
        repo = Path(scratch)
        for part in ("cards", "scans"):
            shutil.copytree(ROOT / part, repo / part)
        cold, _ = _once(build, repo)
        _, said = _once(build, repo)
        if not said.startswith("up to date"):
            raise SystemExit(f"a second build did not say 'up to date': {said[:200]}")
        bare = time_command([sys.executable, "-c", "pass"], args.rounds, ok=(0,))
        idle = time_command(build, args.rounds, cwd=repo)
        cpu = sorted(measure_command(build, cwd=repo)[2] for _ in range(args.rounds))
        idle_cpu = cpu[len(cpu) // 2]
        card = next((repo / "cards").rglob("*.yaml"))
        card.write_text(card.read_text(encoding="utf-8") + "# touched\n", encoding="utf-8")
        one, _ = _once(build, repo)
    print(f"python -c pass:             {bare * 1000:.0f} ms (median of {args.rounds})")
    print(f"cardkit build, cold:        {cold:.2f} s (once)")
    print(f"cardkit build, up to date:  {idle:.2f} s wall, {idle_cpu:.2f} s CPU (medians)")
    print(f"cardkit build, one comment: {one:.2f} s (once)")
    verdict = "within" if idle < 0.5 else "OVER"
    print(f"ratio: {idle / bare:.1f}x bare Python; {verdict} the 0.5 s goal (wall; CPU is the")
    print("steadier figure on a shared machine)")


if __name__ == "__main__":
    main()
