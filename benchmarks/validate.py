"""cardkit validate vs check-jsonschema on the same synthetic tree, same schema, same venv.

Generates FILES villain files of CARDS master plan cards each (default 1,000 x 10 =
10,000 cards), a tenth of them with schema errors, then times both tools over several
rounds and prints the ratio. cardkit also runs its rules and reports line numbers.

    python benchmarks/validate.py [--files 1000] [--cards 10] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import time_command

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


def generate(files: int, cards: int) -> list[Path]:
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    rng = random.Random(7)
    paths = []
    for i in range(files):
        path = WORK / f"villain-{i:05d}.yaml"
        path.write_text(villain(i, cards, broken=i % 10 == 0, rng=rng))
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--cards", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

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
