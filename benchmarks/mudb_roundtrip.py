"""Every shared Marvel United JSON Database box imported, validated and exported again.

nice -n 10 python benchmarks/mudb_roundtrip.py [--data ../shared/mu-db] [--rounds 1]

For each box file: `import mu-db` into a scratch folder (JSON read, mapped, YAML written),
`validate` of what was written (schemas and rules), then `export mu-db` from the YAML files
on disk. Prints cards in / out / identical (a card is identical when the exported card at
its place equals the source's, as JSON), whether the box is JSON-equal and byte-identical,
the time of each step and of the mapping alone (both ways in memory, without YAML or
files: the share cardkit's YAML writer does not take), and the peer: plain `json.loads`
+ `json.dumps(indent=2)` of the same file in the same run. The data (GPL-3.0) is read
where it is and never copied.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardkit.check.validate import check  # noqa: E402
from cardkit.exchange.residual import _same  # noqa: E402
from cardkit.files import yamlio  # noqa: E402
from cardkit.games.marvel_united import mudb_box, mudb_files  # noqa: E402


def _default_data() -> Path:
    if os.environ.get("CARDKIT_MUDB"):
        return Path(os.environ["CARDKIT_MUDB"])
    near = [up / "shared" / "mu-db" for up in (ROOT.parent, ROOT.parent.parent)]
    return next((p for p in near if p.is_dir()), near[0])


def _cards(data: dict[str, Any]) -> list[tuple[str, Any]]:
    """Every card of a box, by its place: (`characters[3].cards[5]`, card)."""
    found: list[tuple[str, Any]] = []
    for i, card in enumerate(data.get("cards") or []):
        found.append((f"cards[{i}]", card))
    for key in ("challenges", "characters"):
        for i, owner in enumerate(data.get(key) or []):
            cards = owner.get("cards") if isinstance(owner, dict) else None
            for j, card in enumerate(cards or []):
                found.append((f"{key}[{i}].cards[{j}]", card))
    return found


def _timed(step: Any) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = step()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def one_box(path: Path, scratch: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    source = json.loads(text)

    def do_import() -> mudb_files.MudbImport:
        plan = mudb_files.plan_import([path], scratch)
        mudb_files.write_import(plan, force=False)
        return plan

    plan, import_wall, import_cpu = _timed(do_import)
    folder = scratch / plan.boxes[0]
    report, validate_wall, validate_cpu = _timed(lambda: check([folder], keep=False)[0])

    def do_export() -> tuple[dict[str, Any], str]:
        documents = [yamlio.load_text(p.read_text("utf-8")) for p in sorted(folder.glob("*.yaml"))]
        built = mudb_files.build([(d, "") for d in documents])
        ((name, data),) = built.boxes.items()
        out = scratch / "json" / name
        out.parent.mkdir(exist_ok=True)
        written = mudb_files.dump_json(data, newline=built.newline[name])
        yamlio.atomic_write(out, written)
        return data, written

    (exported, written), export_wall, export_cpu = _timed(do_export)

    def mapping() -> None:  # the mapping alone, both ways, in memory: no YAML, no files
        found = mudb_box.documents_from(source, box=None, where=path.name)
        mudb_files.build([(d, "") for d in found.documents])

    _, mapping_wall, _ = _timed(mapping)

    def peer() -> str:
        return json.dumps(json.loads(path.read_text(encoding="utf-8")), indent=2)

    _, peer_wall, peer_cpu = _timed(peer)
    cards_in = _cards(source)
    cards_out = dict(_cards(exported))
    identical = sum(1 for where, card in cards_in if _same(cards_out.get(where), card))
    return {
        "file": f"{path.parent.name}/{path.name}",
        "documents": plan.documents,
        "cards_in": len(cards_in),
        "cards_counted": mudb_box.count_cards(source),
        "cards_out": len(cards_out),
        "identical": identical,
        "json_equal": _same(exported, source),
        "bytes_identical": written == text,
        "errors": report.errors,
        "warnings": report.warnings,
        "import_s": import_wall,
        "validate_s": validate_wall,
        "export_s": export_wall,
        "mapping_s": mapping_wall,
        "cpu_s": import_cpu + validate_cpu + export_cpu,
        "peer_s": peer_wall,
        "peer_cpu_s": peer_cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=_default_data())
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    boxes = sorted(args.data.glob("*/*.json"))
    if not boxes:
        raise SystemExit(f"no Marvel United JSON Database boxes under {args.data}")
    rows = []
    for path in boxes:
        runs = []
        for _ in range(args.rounds):
            with tempfile.TemporaryDirectory() as scratch:
                runs.append(one_box(path, Path(scratch)))
        row = runs[0]
        for key in ("import_s", "validate_s", "export_s", "mapping_s", "cpu_s", "peer_s"):
            row[key] = statistics.median(r[key] for r in runs)
        rows.append(row)
    print(
        "| box | documents | cards in | out | identical | JSON-equal | byte-identical "
        "| validate errors / warnings | import | validate | export | mapping alone "
        "| peer json load+dump | ratio | mapping ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        total = r["import_s"] + r["validate_s"] + r["export_s"]
        print(
            f"| {r['file']} | {r['documents']} | {r['cards_in']} | {r['cards_out']} "
            f"| {r['identical']} | {'yes' if r['json_equal'] else 'NO'} "
            f"| {'yes' if r['bytes_identical'] else 'no'} | {r['errors']} / {r['warnings']} "
            f"| {r['import_s']:.2f} s | {r['validate_s']:.2f} s | {r['export_s']:.2f} s "
            f"| {r['mapping_s']:.2f} s | {r['peer_s'] * 1000:.0f} ms | {total / r['peer_s']:.0f}x "
            f"| {r['mapping_s'] / r['peer_s']:.1f}x |"
        )
    cards = sum(r["cards_in"] for r in rows)
    same = sum(r["identical"] for r in rows)
    total = sum(r["import_s"] + r["validate_s"] + r["export_s"] for r in rows)
    peer = sum(r["peer_s"] for r in rows)
    cpu = sum(r["cpu_s"] for r in rows)
    print(
        f"\nall {len(rows)} boxes: {cards} cards in, {sum(r['cards_out'] for r in rows)} out, "
        f"{same} identical; {sum(r['json_equal'] for r in rows)} of {len(rows)} boxes JSON-equal; "
        f"{total:.1f} s wall ({cpu:.1f} s CPU) against {peer * 1000:.0f} ms for json load+dump "
        f"({total / peer:.0f}x)"
    )
    if same != cards or not all(r["json_equal"] for r in rows):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
