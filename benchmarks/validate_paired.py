"""`cardkit validate` and `cardkit gaps` of two cardkit trees, alternating, with the floor.

    python benchmarks/validate_paired.py --before /tmp/base --tree /tmp/scale/tree-5000 [--rounds 3]

On a loaded machine one run of each says little: this runs the floor (benchmarks/validate.py's
libyaml + jsonschema-rs loop), then validate and gaps of the `--before` tree and of this one,
in turn, for each round, and prints each child's CPU seconds and the best of the rounds with
its ratio to the floor. `--before` is a cardkit source tree (e.g. a `git archive` of main).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from validate import FLOOR, SCHEMA

ROOT = Path(__file__).resolve().parent.parent
CARDKIT = str(Path(sys.executable).parent / "cardkit")


def _cpu(argv: list[str], env: dict[str, str] | None = None) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--tree", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    trees = {"before": str(args.before), "after": str(ROOT)}
    times: dict[str, list[float]] = {}
    for round_ in range(1, args.rounds + 1):
        times.setdefault("floor", []).append(
            _cpu([sys.executable, "-c", FLOOR, str(SCHEMA), str(args.tree)])
        )
        for command in ("validate", "gaps"):
            for name, tree in trees.items():
                env = {**os.environ, "PYTHONPATH": tree, "OMP_THREAD_LIMIT": "1"}
                argv = [CARDKIT, command, str(args.tree), "--format", "json"]
                times.setdefault(f"{command} {name}", []).append(_cpu(argv, env))
        print(f"round {round_}: " + ", ".join(f"{k} {v[-1]:.2f} s" for k, v in times.items()))
    floor = min(times["floor"])
    print(f"best of {args.rounds}: floor {floor:.2f} s")
    for key, values in times.items():
        if key != "floor":
            print(f"  {key}: {min(values):.2f} s ({min(values) / floor:.2f}x the floor)")


if __name__ == "__main__":
    main()
