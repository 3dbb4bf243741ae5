"""cardkit validate vs check-jsonschema on the same synthetic tree, same schema, same venv.

Generates FILES villain files of CARDS master plan cards each (default 1,000 x 10 =
10,000 cards), a tenth of them with schema errors, then times both tools over several
rounds and prints the ratio. cardkit also runs its rules and reports line numbers.

    python benchmarks/validate.py [--files 1000] [--cards 10] [--rounds 3]

The scale series (issue 12) runs `cardkit validate` and `cardkit gaps` once per size and
prints time, peak memory and the ratio to the floor (the same libraries with nothing
else: libyaml load and jsonschema-rs validity, one process) and to check-jsonschema
(only up to --peer-max files: it needs ~30 ms a file):

    python benchmarks/validate.py --scale 1000,10000,50000 [--peer-max 1000] [--trees /tmp/scale]

--trees keeps the generated trees there and reuses them on the next run.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import measure_command, time_command

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "benchmarks" / "_work" / "validate"
SCHEMA = ROOT / "schemas" / "marvel-united" / "villain.schema.json"


def villain(index: int, cards: int, broken: bool, rng: random.Random) -> str:
    lines = [
        "kind: marvel-united/villain",
        f"id: villain-{index}",
        f"name: Villain {index}",
        "dashboard:",
        "  bam: Deal 1 damage to each Hero in the Villain's Location.",
        "  player_count:",
        '    heroes: {"2": 5, "3": 6, "4": 7}',
        "masterplan:",
        "  cards:",
    ]
    for n in range(1, cards + 1):
        move = "far" if broken and n == cards else rng.randint(0, 5)
        left, right = rng.randint(0, 2), rng.randint(0, 2)
        lines += [
            f"    - n: {n}",
            f"      move: {move}",
            f"      bam: {'true' if n % 2 else 'false'}",
            f"      place: {{left: {{civilian: {left}}}, right: {{thug: {right}}}}}",
        ]
        if n % 3 == 0:
            lines.append("      unconfirmed: [place]")
    return "\n".join(lines) + "\n"


def generate(files: int, cards: int, where: Path = WORK) -> list[Path]:
    shutil.rmtree(where, ignore_errors=True)
    where.mkdir(parents=True)
    rng = random.Random(7)
    paths = []
    for i in range(files):
        folder = where / f"box-{i // 1000:03d}"  # a thousand files a folder, as boxes would be
        folder.mkdir(exist_ok=True)
        path = folder / f"villain-{i:05d}.yaml"
        path.write_text(villain(i, cards, broken=i % 10 == 0, rng=rng))
        paths.append(path)
    return paths


FLOOR = """
import sys, pathlib, json, yaml, jsonschema_rs
schema = json.loads(pathlib.Path(sys.argv[1]).read_text())
common = pathlib.Path(sys.argv[1]).parent.parent / "common.schema.json"
base = "https://cardkit.invalid/schemas/"
registry = jsonschema_rs.Registry([(base + "common.schema.json", json.loads(common.read_text()))])
check = jsonschema_rs.validator_for(schema, registry=registry,
                                    base_uri=base + "marvel-united/villain.schema.json")
bad = 0
for path in sorted(pathlib.Path(sys.argv[2]).rglob("*.yaml")):
    bad += not check.is_valid(yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader))
print(bad)
"""


def _cell(measured: tuple[float, float, float]) -> str:
    wall, memory, cpu = measured
    return f"{cpu:.1f} s ({wall:.1f} s), {memory:.0f} MB"


def _tree(files: int, cards: int, trees: Path | None) -> tuple[Path, list[Path]]:
    """The tree for a size: generated into WORK (and removed after), or kept in `trees`
    and reused when it is already there (a 50,000-file tree takes a while to write)."""
    if trees is None:
        where = WORK.parent / f"scale-{files}"
        return where, generate(files, cards, where)
    where = trees / f"tree-{files}"
    paths = sorted(where.rglob("*.yaml")) if where.is_dir() else []
    if len(paths) != files:
        paths = generate(files, cards, where)
    return where, paths


def scale(
    sizes: list[int], cards: int, peer_max: int, with_gaps: bool = True, trees: Path | None = None
) -> None:
    bin_dir = Path(sys.executable).parent
    cardkit, peer = str(bin_dir / "cardkit"), str(bin_dir / "check-jsonschema")
    print("Each cell: CPU seconds (wall seconds), peak RSS. Ratios are of CPU time.")
    print("| files | floor | cardkit validate | vs floor | check-jsonschema | peer / validate "
          "| cardkit gaps | gaps vs floor |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for files in sizes:
        where, paths = _tree(files, cards, trees)
        floor = measure_command([sys.executable, "-c", FLOOR, str(SCHEMA), str(where)])
        ours = measure_command([cardkit, "validate", str(where), "--format", "json"])
        gaps = (
            measure_command([cardkit, "gaps", str(where), "--format", "json"])
            if with_gaps
            else None
        )
        if files <= peer_max:
            theirs = measure_command([peer, "--schemafile", str(SCHEMA), *map(str, paths)])
            peer_cell = f"{_cell(theirs)} | {theirs[2] / ours[2]:.1f}x"
        else:
            peer_cell = "not run (--peer-max) | "
        gaps_cell = f"{_cell(gaps)} | {gaps[2] / floor[2]:.2f}x" if gaps else "not run | "
        print(
            f"| {files:,} | {_cell(floor)} | {_cell(ours)} | {ours[2] / floor[2]:.2f}x "
            f"| {peer_cell} | {gaps_cell} |",
            flush=True,
        )
        if trees is None:
            shutil.rmtree(where, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--cards", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scale", help="comma-separated tree sizes, e.g. 1000,10000,50000")
    parser.add_argument("--peer-max", type=int, default=10000)
    parser.add_argument("--skip-gaps", action="store_true", help="time validate only")
    parser.add_argument(
        "--trees", type=Path, help="keep the scale trees here and reuse them (e.g. /tmp/scale)"
    )
    args = parser.parse_args()
    if args.scale:
        sizes = [int(n) for n in args.scale.split(",")]
        scale(sizes, args.cards, args.peer_max, with_gaps=not args.skip_gaps, trees=args.trees)
        return

    bin_dir = Path(sys.executable).parent
    cardkit, peer = bin_dir / "cardkit", bin_dir / "check-jsonschema"
    if not peer.exists():
        raise SystemExit(
            "check-jsonschema is not installed in this environment (pip install -e '.[dev]')"
        )
    paths = generate(args.files, args.cards)
    ours = time_command([str(cardkit), "validate", str(WORK), "--format", "json"], args.rounds)
    theirs = time_command([str(peer), "--schemafile", str(SCHEMA), *map(str, paths)], args.rounds)
    try:
        import yaml

        clib = hasattr(yaml, "CSafeLoader")
    except ImportError:
        clib = False
    print(
        f"tree: {args.files} files x {args.cards} cards = {args.files * args.cards} cards, "
        f"{args.files // 10} files invalid; libyaml: {clib}; rounds: {args.rounds}"
    )
    print(f"cardkit validate:  {ours:.2f} s (schema + rules + line numbers)")
    print(f"check-jsonschema:  {theirs:.2f} s (schema only)")
    print(f"ratio: cardkit is {theirs / ours:.1f}x faster (goal: at least 2x)")


if __name__ == "__main__":
    main()
