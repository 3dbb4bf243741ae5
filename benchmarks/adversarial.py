"""Growth of every reader and rule on crafted inputs: nothing may be worse than linear.

For each reader (the YAML loader, each system's rulebook import with its "nothing lost"
check, the checklist CSV reader, the dashboard token reader) and each rule, builds
inputs of growing size from patterns that make backtracking regexes and quadratic
diffs slow (long runs of card numbers, capitalised words, counts without their noun,
identical lines, tab-nested bullets), times the call, and fits the growth exponent k in
time ~ size^k (least squares over all sizes, so one noisy point on a busy machine does
not decide it). Linear is 1.0; the goal is k <= 1.2 for every one. As a peer measured
in the same run, `str.splitlines` over the same sizes gives the machine's linear
baseline (its own exponent is printed too), and each row prints its time at the
largest size against that peer.

    python benchmarks/adversarial.py [--max-kb 100] [--steps 5]

Exits 1 if any exponent is over 1.2 or any input of the largest size takes over 2 s.
"""

from __future__ import annotations

import argparse
import copy
import gc
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardkit.check.rules import Tree, all_rules  # noqa: E402
from cardkit.confirm import checklist as checklists  # noqa: E402
from cardkit.files import yamlio  # noqa: E402
from cardkit.games.marvel_united import dashboard  # noqa: E402
from cardkit.model import Document  # noqa: E402
from cardkit.rulebook import importer  # noqa: E402

GOAL = 1.2
LIMIT_S = 2.0

# Units repeated to size: each one is the worst case for some pattern seen in the wild.
HOSTILE = {
    "card numbers": "Cards 1, 2 and 3, ",
    "capitalised words": "The Abc Def ",
    "count without noun": "1 word ",
    "token count": "one ab cd ",
    "read as": "Cards 1 read as one Thug ",
    "plain run": "a",
    "sentences": "The Klaw card. ",
}


def fill(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def per_call(func: Callable[[], Any]) -> float:
    """Seconds per call, best of 5 batches of at least 0.05 s; the garbage collector is off
    while timing, as `timeit` does, so a collection that happens to fall in one batch does
    not pass for growth."""
    best = math.inf
    gc.collect()
    gc.disable()
    try:
        for _ in range(5):
            calls, start = 0, time.perf_counter()
            while True:
                func()
                calls += 1
                elapsed = time.perf_counter() - start
                if elapsed > 0.05 or elapsed > LIMIT_S:
                    break
            best = min(best, elapsed / calls)
            if best > LIMIT_S:
                break
    finally:
        gc.enable()
    return best


def exponent(sizes: list[int], times: list[float]) -> float:
    """k in time ~ size^k: the least-squares slope of log time over log size."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(max(t, 1e-9)) for t in times]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


# --- readers -----------------------------------------------------------------------------


def yaml_inputs(size: int) -> dict[str, str]:
    items = size // 12
    return {
        "long scalar": "a: " + fill("word ", size) + "\n",
        "many keys": "".join(f"k{i}: v\n" for i in range(items)),
        "many aliases": "a: &x [1, 2]\nb: [" + ", ".join(["*x"] * (size // 4)) + "]\n",
        "flow list": "a: [" + ", ".join(["1"] * (size // 3)) + "]\n",
    }


def rulebook_inputs(size: int) -> dict[str, tuple[Path, str]]:
    """Each system's smallest rulebook we hold, followed by size bytes of hostile lines."""
    bases = [ROOT / "tests" / "data" / "new-villain-rulebook.txt"]
    bases += sorted((ROOT / "scans").glob("*/*/rulebook.txt"), key=lambda p: p.stat().st_size)
    found: dict[str, tuple[Path, str]] = {}
    for source in bases:
        base = source.read_text(encoding="utf-8")
        system = importer.detect_system(base)
        if f"{system}: identical lines" in found:
            continue
        found[f"{system}: identical lines"] = (source, base + fill("Same line again.\n", size))
        bullets = "".join("\t" * (i % 12) + f"• item {i}\n" for i in range(size // 12 + 1))
        found[f"{system}: tab-nested bullets"] = (source, base + bullets[:size])
    return found


def import_reader(source: Path, text: str) -> Callable[[], Any]:
    module = importer.system_module(importer.detect_system(text))

    def run() -> Any:
        try:
            documents = module.parse(text, "bench", source.name)
        except (ValueError, StopIteration):
            return None
        return importer.unrepresented(module, text, documents)

    return run


HEADER = "path,line,document,card,field,origin,status,code,why,current,address,value,by,evidence\n"


def checklist(size: int) -> str:
    row = "cards/a.yaml,1,a,,f,unconfirmed,open,,why,,masterplan/cards/1/place,,ana,seen\n"
    return HEADER + fill(row, size)


Row = tuple[str, list[int], list[float]]


def readers(sizes: list[int]) -> list[Row]:
    rows: list[Row] = []
    for name in yaml_inputs(sizes[0]):
        texts = [yaml_inputs(s)[name] for s in sizes]
        times = [per_call(lambda t=t: _load(t)) for t in texts]
        rows.append((f"yaml loader: {name}", [len(t) for t in texts], times))
    for name in rulebook_inputs(sizes[0]):
        inputs = [rulebook_inputs(s)[name] for s in sizes]
        times = [per_call(import_reader(source, text)) for source, text in inputs]
        rows.append((f"import {name}", [len(t) for _, t in inputs], times))
    tmp = ROOT / "benchmarks" / "_work" / "adversarial"
    tmp.mkdir(parents=True, exist_ok=True)
    times, lengths = [], []
    for size in sizes:
        path = tmp / f"checklist-{size}.csv"
        path.write_text(checklist(size), encoding="utf-8")
        lengths.append(path.stat().st_size)
        times.append(per_call(lambda p=path: checklists.read_checklist(p)))
    rows.append(("checklist CSV reader", lengths, times))
    for name, unit in HOSTILE.items():
        texts = [fill(unit, s) for s in sizes]
        times = [per_call(lambda t=t: dashboard.starting_tokens(t)) for t in texts]
        rows.append((f"dashboard tokens: {name}", sizes, times))
    return rows


def _load(text: str) -> Any:
    try:
        return yamlio.load_text(text)
    except yamlio.YamlProblem:
        return None


# --- rules -------------------------------------------------------------------------------

TEXT_KEYS = {"note", "text", "detail", "effect", "special_rules", "bam", "overflow"}


def base_documents() -> list[Document]:
    """One schema-valid document of each kind that the tests and the corpus hold."""
    from cardkit.check.validate import collect_files, load_document, schema_diagnostics

    seen: dict[str, tuple[int, Document]] = {}
    folders = [ROOT / "cards", ROOT / "tests" / "cases" / "valid"]
    for path in collect_files([f for f in folders if f.is_dir()]):
        loaded = load_document(path)
        if isinstance(loaded, Document) and not schema_diagnostics(loaded):
            size = path.stat().st_size  # the largest of a kind has the most text fields
            if loaded.kind not in seen or size > seen[loaded.kind][0]:
                seen[loaded.kind] = (size, loaded)
    return [document for _, document in seen.values()]


def inflate(value: Any, text: str) -> Any:
    """The document with every free-text field replaced by text."""
    if isinstance(value, dict):
        return {
            k: text if k in TEXT_KEYS and isinstance(v, str) else inflate(v, text)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [inflate(v, text) for v in value]
    return value


def rules(sizes: list[int]) -> list[Row]:
    documents = base_documents()
    rows: list[Row] = []
    for rule in all_rules():
        targets = [d for d in documents if rule.applies_to(d) or rule.tree_check is not None]
        worst: tuple[list[float], str] | None = None
        for name, unit in HOSTILE.items():
            times = []
            for size in sizes:
                text = fill(unit, size)
                tree = Tree([_inflated(d, text) for d in targets])
                times.append(per_call(lambda t=tree, r=rule: list(r.run(t))))
            if worst is None or times[-1] > worst[0][-1]:
                worst = (times, name)
        assert worst is not None
        rows.append((f"rule {rule.code} (worst: {worst[1]})", sizes, worst[0]))
    return rows


def _inflated(document: Document, text: str) -> Document:
    data = inflate(copy.deepcopy(document.data), text)
    return Document(document.path, document.display_path, data, document.locate)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-kb", type=int, default=100)
    parser.add_argument("--steps", type=int, default=5)
    args = parser.parse_args()
    top = args.max_kb * 1000
    sizes = [top // 2 ** (args.steps - 1 - i) for i in range(args.steps)]
    peer = [per_call(lambda s=s: fill("Same line.\n", s).splitlines()) for s in sizes]
    print(f"sizes: {', '.join(f'{s / 1000:g} KB' for s in sizes)}; goal: exponent <= {GOAL}")
    print(f"{'what':<58} {'exponent':>8} {'at max':>10} {'vs peer':>9}")
    print(f"{'peer: str.splitlines':<58} {exponent(sizes, peer):>8.2f} {peer[-1] * 1000:>8.2f}ms")
    failed = 0
    for label, lengths, times in readers(sizes) + rules(sizes):
        grow = exponent(lengths, times)
        # below 1 ms at the largest size, timer noise decides the slope: flat by any measure
        bad = (grow > GOAL and times[-1] > 1e-3) or times[-1] > LIMIT_S
        failed += bad
        print(
            f"{label:<58} {grow:>8.2f} {times[-1] * 1000:>8.2f}ms {times[-1] / peer[-1]:>8.1f}x"
            + ("  OVER" if bad else "")
        )
    print(f"{failed} over the goal")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
