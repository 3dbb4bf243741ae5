"""`cardkit --help` start-up time against bare `python -c pass` (goal: within 0.25 s).

python benchmarks/startup.py [--rounds 20]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import time_command


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    cardkit = Path(sys.executable).parent / "cardkit"
    bare = time_command([sys.executable, "-c", "pass"], args.rounds, ok=(0,))
    helped = time_command([str(cardkit), "--help"], args.rounds, ok=(0,))
    print(f"python -c pass:  {bare * 1000:.0f} ms (median of {args.rounds})")
    print(f"cardkit --help:  {helped * 1000:.0f} ms")
    verdict = "within" if helped <= 0.25 else "OVER"
    print(f"ratio: {helped / bare:.1f}x bare Python; {verdict} the 0.25 s goal")


if __name__ == "__main__":
    main()
