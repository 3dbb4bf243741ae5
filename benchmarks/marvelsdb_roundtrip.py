"""All of marvelsdb in and out again: cards in, out, identical, moved, lost, and the time.

python benchmarks/marvelsdb_roundtrip.py [--pack ../shared/marvelsdb/pack]

Runs `cardkit import marvelsdb PACK/*.json` and `cardkit export marvelsdb` as a user
would (real processes), then compares every card of every source file with what came
back: *identical* is JSON-equal in the same file at the same place; *moved* is JSON-equal
but in another file or place; *changed* is the same code with other fields; *lost* is a
code that did not come back. Also counts the files that came back byte for byte and runs
`cardkit validate` on the imported tree. The peer, in the same run: a plain Python
process that json-loads and json-dumps the same files (no YAML, no schema).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import measure_command

ROOT = Path(__file__).resolve().parent.parent
PEER = (
    "import json, sys, pathlib\n"
    "out = pathlib.Path(sys.argv[1])\n"
    "for name in sys.argv[2:]:\n"
    "    p = pathlib.Path(name)\n"
    "    data = json.loads(p.read_text(encoding='utf-8'))\n"
    "    (out / p.name).write_text(json.dumps(data, indent='\\t', ensure_ascii=False),"
    " encoding='utf-8')\n"
)


def _cards(path: Path) -> list[dict[str, object]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return data if isinstance(data, list) else []


def compare(sources: list[Path], back: Path) -> dict[str, int]:
    """Per card: identical, moved, changed or lost; per file: byte-equal or not."""
    found: dict[str, tuple[str, int, dict[str, object]]] = {}
    out = 0
    for path in sorted(back.glob("*.json")):
        for index, card in enumerate(_cards(path)):
            found[str(card.get("code"))] = (path.name, index, card)
            out += 1
    tally = {"in": 0, "out": out, "identical": 0, "moved": 0, "changed": 0, "lost": 0}
    tally["files"] = len(sources)
    tally["byte-equal files"] = sum(
        (back / s.name).exists() and (back / s.name).read_bytes() == s.read_bytes() for s in sources
    )
    for source in sources:
        for index, card in enumerate(_cards(source)):
            tally["in"] += 1
            there = found.get(str(card.get("code")))
            if there is None:
                tally["lost"] += 1
            elif there[2] != card:
                tally["changed"] += 1
            elif there[:2] == (source.name, index):
                tally["identical"] += 1
            else:
                tally["moved"] += 1
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # ../shared/marvelsdb/pack beside the repository (or beside the worktrees' folder)
    near = [p / "shared/marvelsdb/pack" for p in ROOT.parents]
    default = Path(os.environ.get("MARVELSDB_PACK", next((p for p in near if p.is_dir()), near[0])))
    parser.add_argument("--pack", type=Path, default=default)
    args = parser.parse_args()
    sources = sorted(args.pack.glob("*.json"))
    if not sources:
        raise SystemExit(f"no pack files in {args.pack} (give --pack or MARVELSDB_PACK)")
    cardkit = [sys.executable, "-m", "cardkit"]
    with tempfile.TemporaryDirectory() as scratch:
        cards, back, peer = Path(scratch, "cards"), Path(scratch, "back"), Path(scratch, "peer")
        peer.mkdir()
        imported = measure_command([*cardkit, "import", "marvelsdb", *map(str, sources),
                                    "--out", str(cards)])  # fmt: skip
        exported = measure_command([*cardkit, "export", "marvelsdb", str(cards),
                                    "--out", str(back)])  # fmt: skip
        checked = subprocess.run([*cardkit, "validate", str(cards)], capture_output=True,
                                 text=True)  # fmt: skip
        plain = measure_command([sys.executable, "-c", PEER, str(peer), *map(str, sources)])
        tally = compare(sources, back / "pack")
    for key, value in tally.items():
        print(f"{key:>17}: {value:,}")
    print(f"{'validate':>17}: {checked.stdout.strip().splitlines()[-1]}")
    ours = imported[0] + exported[0]
    print(f"{'import':>17}: {imported[0]:.2f} s wall, {imported[2]:.2f} s CPU")
    print(f"{'export':>17}: {exported[0]:.2f} s wall, {exported[2]:.2f} s CPU")
    print(f"{'json load+dump':>17}: {plain[0]:.2f} s wall, {plain[2]:.2f} s CPU (peer)")
    cpu = imported[2] + exported[2]
    print(
        f"{'ratio':>17}: cardkit round trip {ours / plain[0]:.1f}x the plain JSON round trip "
        f"(wall), {cpu / plain[2]:.1f}x (CPU)"
    )
    goal = tally["identical"] == tally["in"] and not (tally["moved"] or tally["lost"])
    sys.exit(0 if goal and tally["changed"] == 0 else 1)


if __name__ == "__main__":
    main()
