"""cardkit ocr vs raw `tesseract IMG -` on the synthetic samples (scans/samples/), same run.

For every sample with a truth file (written from the YAML the card was drawn from):
cardkit's pipeline (intake, geometry, template, regions, token counting, finish) drafts
the card; raw tesseract reads the whole image once. Both are scored against the truth:

- field CER: per text field (effect names and texts, movement, threat names and texts,
  dashboard section texts, villainous plot names), edit distance / truth length, capped at
  1. cardkit's field is compared whole; for raw tesseract, which has no fields, the best
  matching stretch of its output is taken (approximate substring match), which favours it;
- numbers: Move values, card numbers, Health and player-count values read right; raw
  tesseract gets "Move N", "<name> N", "N Health" found in its text;
- Move values and token counts (per card, every slot right) on their own, as the goals
  name them; raw tesseract reads no icons;
- seconds per scan, each on one core (OMP_THREAD_LIMIT=1), and the ratio.

Only Marvel United samples are scored (a truth file's `game:`); the Villainous and Champions
samples under the same folder are skipped and counted (benchmarks/ocr.py scores every game).

    python benchmarks/ocr_synthetic.py [--samples scans/samples] [--only phone] [--show]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

os.environ.setdefault("OMP_THREAD_LIMIT", "1")
ROOT = Path(__file__).resolve().parent.parent
GAME = "marvel-united"  # the only game whose truth files this script reads (`game:` in each)
sys.path.insert(0, str(ROOT))  # measure this checkout's cardkit, whatever the venv points at


def distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def substring_distance(needle: str, hay: str) -> int:
    """Edit distance from `needle` to the best-matching stretch of `hay` (Sellers)."""
    previous = [0] * (len(hay) + 1)
    for i, cn in enumerate(needle, 1):
        current = [i]
        for j, ch in enumerate(hay, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (cn != ch)))
        previous = current
    return min(previous)


def norm(text: Any) -> str:
    text = str(text or "").replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return re.sub(r"\s+", " ", text).strip()


def cer(truth: str, read: str, *, within: bool = False) -> float:
    truth, read = norm(truth), norm(read)
    if not truth:
        return 0.0 if not read else 1.0
    found = substring_distance(truth, read) if within else distance(truth, read)
    return min(1.0, found / len(truth))


# ---------------------------------------------------------------- what a draft says


def text_fields(truth: dict[str, Any], draft: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(field, truth text, drafted text) for every text field the truth has."""
    out = []
    card = draft.get("card", {}) if isinstance(draft.get("card"), dict) else {}
    if truth["card"] == "masterplan":
        effects = card.get("effects", [])
        for index, effect in enumerate(truth.get("effects") or []):
            got = effects[index] if index < len(effects) else {}
            if effect.get("name"):
                out.append((f"effect {index} name", effect["name"], got.get("name", "")))
            out.append((f"effect {index} text", effect["text"], got.get("text", "")))
        if truth.get("movement"):
            out.append(("movement", truth["movement"], card.get("movement", "")))
    elif truth["card"] == "threat":
        out.append(("name", truth["name"], card.get("name", "")))
        out.append(("text", truth["text"], card.get("text", "")))
    else:
        board = draft.get("dashboard", {}) if isinstance(draft.get("dashboard"), dict) else {}
        keys = {
            "Special Rules": "special_rules",
            "BAM!": "bam",
            "Overflow": "overflow",
            "Heroic Goal": "heroic_goal",
            "Commander Solo Mode": "commander_solo_mode",
        }
        for section in truth["sections"]:
            heading = section["heading"]
            if heading.startswith("Villainous Plot"):
                plot = board.get("villainous_plot", {}) or {}
                name = heading.partition(" - ")[2]
                if name:
                    out.append(("plot name", name, plot.get("name", "")))
                out.append(("plot text", section["text"], plot.get("text", "")))
            else:
                got = board.get(keys.get(heading, ""), "")
                out.append((heading, section["text"], got if isinstance(got, str) else ""))
    return out


def numbers(truth: dict[str, Any], draft: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    card = draft.get("card", {}) if isinstance(draft.get("card"), dict) else {}
    if truth["card"] == "masterplan":
        return [("n", truth["n"], card.get("n")), ("move", truth["move"], card.get("move"))]
    if truth["card"] == "threat":
        return [("health", truth["health"], card.get("health"))] if truth["health"] else []
    board = draft.get("dashboard", {}) if isinstance(draft.get("dashboard"), dict) else {}
    heroes = (board.get("player_count") or {}).get("heroes", {})
    return [(f"player count {k}", v, heroes.get(str(k))) for k, v in truth["player_count"].items()]


def raw_numbers(truth: dict[str, Any], text: str) -> list[bool]:
    flat = norm(text)
    if truth["card"] == "masterplan":
        move = re.search(r"Move\s*(\d+|\*)", flat)
        title = re.search(re.escape(truth["name"]) + r"\s+(\d+)", flat)
        return [
            bool(title and int(title[1]) == truth["n"]),
            bool(move and move[1] == str(truth["move"])),
        ]
    if truth["card"] == "threat":
        if not truth["health"]:
            return []
        health = re.search(r"(\d+)\s*Health", flat)
        return [bool(health and int(health[1]) == truth["health"])]
    rows = [re.findall(r"\d+", line) for line in text.splitlines()]
    values = [str(v) for v in truth["player_count"].values()]
    found = any(row[: len(values)] == values for row in rows)
    return [found] * len(values)


def placement(truth: dict[str, Any]) -> Any:
    place = truth.get("place")
    if isinstance(place, dict):
        return {slot: counts for slot, counts in place.items() if counts} or None
    return place


# ---------------------------------------------------------------- running


@dataclass
class Tally:
    cer: list[float] = field(default_factory=list)
    raw_cer: list[float] = field(default_factory=list)
    numbers: list[bool] = field(default_factory=list)
    raw_numbers: list[bool] = field(default_factory=list)
    moves: list[bool] = field(default_factory=list)
    tokens: list[bool] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    raw_seconds: list[float] = field(default_factory=list)
    kinds: list[bool] = field(default_factory=list)


class Drafter:
    """cardkit's pipeline in this process, one engine for the whole run (as a batch worker)."""

    def __init__(self) -> None:
        from cardkit.ocr.engine import make_engine
        from cardkit.ocr.pipeline import Options

        self.engine = make_engine("tesseract")
        self.version = self.engine.version()
        self.options = Options()

    def __call__(self, path: Path) -> dict[str, Any]:
        from cardkit.ocr import draft, intake, pipeline

        frame = intake.load(path)[0]
        read = pipeline.read_frame(frame, self.engine, self.options)
        document: dict[str, Any] = draft.build(
            read,
            scan=str(path),
            engine="tesseract",
            engine_version=self.version,
            language="eng",
            options=self.options,
        )
        return document


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=Path, default=ROOT / "scans" / "samples")
    parser.add_argument("--only", help="only samples whose name contains this")
    parser.add_argument("--show", action="store_true", help="print every field that differs")
    args = parser.parse_args()
    tallies: dict[str, Tally] = {}
    draft_of = Drafter()
    skipped = designs = 0
    for truth_path in sorted(args.samples.rglob("*.truth.yaml")):
        stem = truth_path.name.removesuffix(".truth.yaml")
        if args.only and args.only not in stem:
            continue
        folder = truth_path.parent
        image = next(p for p in folder.glob(stem + ".*") if not p.name.endswith(".yaml"))
        truth = yaml.safe_load(truth_path.read_text(encoding="utf-8"))
        if truth.get("game") != GAME:
            skipped += 1  # Villainous and Champions samples: benchmarks/ocr.py scores those
            continue
        if truth.get("design"):  # designs cardkit did not paint: benchmarks/ocr_designs.py
            designs += 1
            continue
        tally = tallies.setdefault(truth["degradation"], Tally())
        start = time.perf_counter()
        draft = draft_of(image)
        tally.seconds.append(time.perf_counter() - start)
        start = time.perf_counter()
        raw = subprocess.run(
            ["tesseract", str(image), "-"], capture_output=True, text=True, check=False
        ).stdout
        tally.raw_seconds.append(time.perf_counter() - start)
        kind = {"masterplan": "masterplan-card", "threat": "threat-card"}.get(
            truth["card"], truth["card"]
        )
        tally.kinds.append(draft.get("kind") == f"marvel-united/{kind}")
        for name, want, got in text_fields(truth, draft):
            tally.cer.append(cer(want, got))
            tally.raw_cer.append(cer(want, raw, within=True))
            if args.show and tally.cer[-1] > 0:
                print(f"{stem}: {name}: {tally.cer[-1]:.3f}\n  want {want!r}\n  got  {got!r}")
        for name, want, got in numbers(truth, draft):
            tally.numbers.append(want == got)
            if args.show and want != got:
                print(f"{stem}: {name}: want {want!r} got {got!r}")
        tally.raw_numbers += raw_numbers(truth, raw)
        if truth["card"] == "masterplan":
            card = draft.get("card", {})
            tally.moves.append(card.get("move") == truth["move"])
            tally.tokens.append(card.get("place") == placement(truth))
            if args.show and not tally.tokens[-1]:
                print(f"{stem}: place: want {placement(truth)!r} got {card.get('place')!r}")
    report(tallies)
    if skipped:
        print(f"({skipped} samples of other games skipped: this benchmark reads {GAME} cards)")
    if designs:
        print(f"({designs} samples of other designs skipped: benchmarks/ocr_designs.py)")


def _share(flags: list[bool]) -> str:
    return f"{sum(flags)}/{len(flags)}" if flags else "–"


def report(tallies: dict[str, Tally]) -> None:
    order = ["clean", "150dpi", "skew2", "phone"]
    rows = [(name, tallies[name]) for name in order if name in tallies]
    if not rows:
        print(f"no {GAME} samples with a truth file")
        return
    everything = Tally()
    for _, tally in rows:
        for key in vars(everything):
            getattr(everything, key).extend(getattr(tally, key))
    print(
        "| set | scans | right kind | field CER cardkit | field CER raw tesseract"
        " | numbers cardkit | numbers raw | Move values | token counts"
        " | s/scan cardkit | s/scan raw | ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, tally in [*rows, ("all synthetic", everything)]:
        mean = statistics.fmean(tally.cer) if tally.cer else 0.0
        raw = statistics.fmean(tally.raw_cer) if tally.raw_cer else 0.0
        ours, theirs = statistics.fmean(tally.seconds), statistics.fmean(tally.raw_seconds)
        print(
            f"| {name} | {len(tally.seconds)} | {_share(tally.kinds)} | {mean:.3f} | {raw:.3f} |"
            f" {_share(tally.numbers)} | {_share(tally.raw_numbers)} | {_share(tally.moves)} |"
            f" {_share(tally.tokens)} | {ours:.2f} | {theirs:.2f} | {ours / theirs:.2f}× |"
        )


if __name__ == "__main__":
    main()
