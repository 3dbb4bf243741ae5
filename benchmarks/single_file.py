"""What one-file commands cost in a big repository (issue 21): `validate FILE` and
`confirm ID FIELD` inside a tree of N card files, as a pre-commit hook runs them.

Both need every file's kind and id (references, and finding an id). Peer, in the same run:
the same command with `CARDKIT_CACHE=off`, which reads every file as cardkit did before the
id index (cardkit/check/id_index.py); and the same command in a tree of 10 files, the
cost that does not depend on the tree. Each is the best of 3 real processes.

    python benchmarks/single_file.py [--files 20000] [--before OLD_CHECKOUT]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def make_tree(folder: Path, files: int) -> Path:
    cards = folder / "cards" / "marvel-united"
    for box in range(max(1, files // 100)):
        where = cards / f"box-{box}"
        where.mkdir(parents=True)
        (where / "box.yaml").write_text(
            f"kind: marvel-united/box\nid: box-{box}\nname: Box {box}\n", encoding="utf-8"
        )
    for n in range(files):
        (cards / f"box-{n // 100}" / f"hero-{n}.yaml").write_text(
            f"kind: marvel-united/hero\nid: hero-{n}\nname: Hero {n}\nbox: box-{n // 100}\n"
            "unconfirmed: [name]\n",
            encoding="utf-8",
        )
    return folder


def best(args: list[str], cwd: Path, env: dict[str, str]) -> float:
    times = []
    for _ in range(3):
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "cardkit", *args], cwd=cwd, env=env, capture_output=True
        )
        times.append(time.perf_counter() - started)
        if done.returncode not in (0, 1):
            raise SystemExit(f"{args}: exit {done.returncode}: {done.stderr.decode()[-300:]}")
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--before", type=Path, help="also time the cardkit of this checkout")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="cardkit-single-"))
    cache = work / "cache"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CARDKIT_CACHE": str(cache)}
    try:
        big = make_tree(work / "big", args.files)
        small = make_tree(work / "small", 10)
        one = Path("cards/marvel-united/box-0/hero-7.yaml")
        validate = ["validate", str(one)]
        # the first run confirms; the next find the file by its id and say "unchanged"
        confirm = ["confirm", "hero-7", "name", "--by", "bench", "--evidence", "card"]
        warming = [sys.executable, "-m", "cardkit", *validate]
        subprocess.run(warming, cwd=big, env=env, capture_output=True)  # the index is made
        rows = []
        for name, command in (("validate FILE", validate), ("confirm ID FIELD", confirm)):
            warm = best(command, big, env)
            cold = best(command, big, {**env, "CARDKIT_CACHE": "off"})
            tiny = best(command, small, env)
            old = best(command, big, {**env, "PYTHONPATH": str(args.before)}) if args.before else 0
            rows.append((name, warm, cold, tiny, old))
        print(f"tree of {args.files:,} card files (+{args.files // 100} boxes)")
        print(
            "| command | index warm | every file read (CARDKIT_CACHE=off) | tree of 10 | "
            "off / warm | warm / tree of 10 | --before code |"
        )
        print("|---|---|---|---|---|---|---|")
        for name, warm, cold, tiny, old in rows:
            print(
                f"| `{name}` | {warm:.2f} s | {cold:.2f} s | {tiny:.2f} s | "
                f"{cold / warm:.1f} | {warm / tiny:.1f} | {old:.2f} s |"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
