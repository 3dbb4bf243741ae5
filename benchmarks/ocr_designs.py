"""cardkit ocr vs raw `tesseract IMG -` on the Marvel United designs cardkit did not paint
(scans/samples/marvel-united-design-*/, benchmarks/paint_designs.py), one row per design
and degradation, and one per design. design-k is held out: measured, never tuned on;
design-b, design-c, design-d, design-e, design-f, design-g, design-h, design-i and design-j
(each held out until it was measured; design-g measured once on 2026-12-03, design-h,
design-i and design-j on 2026-12-04) are development designs.

Per row: right kind (the draft's `kind` is the truth's card kind), and of the wrong ones how
many say so (`kind` in the draft's `unconfirmed`); field CER (benchmarks/ocr_synthetic.py's
fields and CER, cardkit field to field, raw tesseract against the best-matching stretch of
its whole output); cards where cardkit's mean field CER exceeds raw's by more than 0.01;
numbers (card number, Move, Health, player-count values; raw: the number alone on a line,
or "Move N" / "N Health" in its text); Move right on master plans (raw: the same test for
the Move value alone); BAM! told right; per-slot icon counts right (every slot of every
diagram: left, the Villain's, right; each slot's counts by token equal the truth's) and
master plans with all tokens right; seconds per scan, cardkit as `cardkit ocr -j 1` with
--system marvel-united and raw tesseract, one thread each, and their ratio.

The placement icons are named by a box palette (docs/ocr.md, "Box palettes"); how it was
obtained is printed per design. `--palette calibrated` (the default): learnt, as
`cardkit palette` does, from the clean scans of every other master plan card with a
diagram (sorted by name), their truth standing in for the placements a person confirmed
on those drafts; `slots right, not calibrated on` counts only the other cards, and `slots
right, kind right` only the master plans drafted as master plans (a card read as another
kind has no placement field: that miss is the kind's).
`--palette hand`: benchmarks/palettes/<design>.yaml, written by a person from the design's
description (its provenance line says so). `--palette none`: the system's own icons.

    python benchmarks/ocr_designs.py [--samples scans/samples] [--only design-b] [--show]
                                     [--palette calibrated|hand|none]
    python benchmarks/ocr.py --sets designs        (the same table, from benchmarks/ocr.py)
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import ocr_synthetic as mu  # noqa: E402  (the Marvel United fields and CER)
from ocr_scoring import geometric_ratio  # noqa: E402

HELD_OUT = "design-k"  # measured, never tuned on (design-j a development design since 2026-12-04)
DEGRADATIONS = ("clean", "150dpi", "skew2", "phone")
KIND = {"masterplan": "masterplan-card", "threat": "threat-card", "dashboard": "dashboard"}


@dataclass
class Tally:
    scans: int = 0
    kinds: list[bool] = field(default_factory=list)
    kind_doubted: int = 0  # wrong kind, and the draft says the kind is unconfirmed
    cers: list[float] = field(default_factory=list)
    raw_cers: list[float] = field(default_factory=list)
    worse_than_raw: list[str] = field(default_factory=list)
    numbers: list[bool] = field(default_factory=list)
    raw_numbers: list[bool] = field(default_factory=list)
    moves: list[bool] = field(default_factory=list)
    raw_moves: list[bool] = field(default_factory=list)
    bams: list[bool] = field(default_factory=list)
    slots: list[bool] = field(default_factory=list)
    fresh_slots: list[bool] = field(default_factory=list)  # cards not calibrated on
    kind_slots: list[bool] = field(default_factory=list)  # master plans read as master plans
    tokens: list[bool] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    raw_seconds: list[float] = field(default_factory=list)
    raw_cpu: list[float] = field(default_factory=list)


def _lines(raw: str) -> set[str]:
    return {line.strip() for line in raw.splitlines() if line.strip()}


def raw_holds(value: Any, raw: str, label: str) -> bool:
    """Raw tesseract's output holds the number: alone on a line, or beside its label."""
    if not label:
        return str(value) in _lines(raw)
    text = re.escape(str(value))
    near = re.search(rf"{label}\s*{text}(?!\d)|(?<!\d){text}\s*{label}", raw, re.IGNORECASE)
    return str(value) in _lines(raw) or bool(near)


def score(
    truth: dict[str, Any],
    draft: dict[str, Any],
    raw: str,
    tally: Tally,
    stem: str,
    show: bool = False,
    calibrated_on: bool = False,
) -> None:
    """One scan's draft and raw text against its truth, into the tally."""
    tally.scans += 1
    kind_right = draft.get("kind") == f"marvel-united/{KIND[truth['card']]}"
    tally.kinds.append(kind_right)
    if not kind_right and "kind" in (draft.get("unconfirmed") or []):
        tally.kind_doubted += 1
    ours, theirs = [], []
    for name, want, got in mu.text_fields(truth, draft):
        ours.append(mu.cer(want, got))
        theirs.append(mu.cer(want, raw, within=True))
        if show and ours[-1] > 0:
            print(f"{stem}: {name}: {ours[-1]:.3f}\n  want {want!r}\n  got  {got!r}")
    tally.cers += ours
    tally.raw_cers += theirs
    if ours and statistics.fmean(ours) > statistics.fmean(theirs) + 0.01:
        tally.worse_than_raw.append(stem)
    for name, want, got in mu.numbers(truth, draft):
        tally.numbers.append(want == got)
        label = {"n": truth["name"], "move": "move", "health": "health"}.get(name, "")
        tally.raw_numbers.append(raw_holds(want, raw, label) if want is not None else False)
    if truth["card"] != "masterplan":
        return
    card = draft.get("card") if isinstance(draft.get("card"), dict) else {}
    assert isinstance(card, dict)
    tally.moves.append(card.get("move") == truth["move"])
    tally.raw_moves.append(raw_holds(truth["move"], raw, "move"))
    tally.bams.append(bool(card.get("bam")) == truth["bam"])
    tally.tokens.append(card.get("place") == mu.placement(truth))
    place = card.get("place")
    if isinstance(truth["place"], dict):
        for slot, counts in truth["place"].items():
            got = (place.get(slot) or {}) if isinstance(place, dict) else None
            tally.slots.append(got == counts)
            if not calibrated_on:
                tally.fresh_slots.append(got == counts)
            if kind_right:
                tally.kind_slots.append(got == counts)
    if show and not tally.tokens[-1]:
        print(f"{stem}: place: want {mu.placement(truth)!r} got {place!r}")


def _pairs(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    out = []
    for truth_path in sorted(folder.glob("*.truth.yaml")):
        stem = truth_path.name.removesuffix(".truth.yaml")
        image = next(p for p in folder.iterdir() if p.stem == stem and p.suffix != ".yaml")
        out.append((image, yaml.safe_load(truth_path.read_text(encoding="utf-8"))))
    return out


def folders(samples: Path, only: str | None = None) -> list[Path]:
    found = sorted(p for p in samples.glob("marvel-united-design-*") if p.is_dir())
    return [p for p in found if not only or only in p.name]


def run(
    samples: Path,
    work: Path,
    read_folder: Callable[..., Any],
    raw_tesseract: Callable[..., str],
    ours: Callable[..., list[dict[str, Any]]],
    only: str | None = None,
    show: bool = False,
    palettes: str = "calibrated",
) -> dict[str, Tally]:
    """Every design folder: one `cardkit ocr` batch each (benchmarks/ocr.py's read_folder,
    --system marvel-united), raw tesseract per image; tallies by design and degradation."""
    tallies: dict[str, Tally] = {}
    for folder in folders(samples, only):
        pairs = _pairs(folder)
        used, chosen = box_palette(folder, pairs, work, palettes)
        read = read_folder([image for image, _ in pairs], work, "marvel-united", used)
        for image, truth in pairs:
            tally = tallies.setdefault(f"{truth['design']} {truth['degradation']}", Tally())
            raw = raw_tesseract(image, tally)
            drafts = ours(image, read, tally)
            draft = drafts[0] if drafts else {}
            score(truth, draft, raw, tally, image.stem, show, _card(image.stem) in chosen)
    return tallies


def _card(stem: str) -> str:
    """A scan's card, without its degradation: design-b-blastaar-mp01."""
    return stem.rsplit("-", 1)[0]


def box_palette(
    folder: Path, pairs: list[tuple[Path, dict[str, Any]]], work: Path, how: str
) -> tuple[str | None, set[str]]:
    """The palette file a design is read with, and the cards it was calibrated on."""
    design = folder.name.removeprefix("marvel-united-")
    if how == "none":
        print(f"{design}: palette: the system's own icons (none given)")
        return None, set()
    if how == "hand":
        path = ROOT / "benchmarks" / "palettes" / f"{design}.yaml"
        if not path.is_file():
            print(f"{design}: palette: no hand-written palette ({path.name}): the system's own")
            return None, set()
        print(f"{design}: palette: hand-written, {path.relative_to(ROOT)}")
        return str(path), set()
    from cardkit.ocr import calibrate, palette

    drawn = sorted(
        {_card(image.stem) for image, truth in pairs if isinstance(truth.get("place"), dict)}
    )
    chosen = set(drawn[::2])
    samples = [
        (image.stem, calibrate.upright(image, ("marvel-united",)), truth["place"])
        for image, truth in pairs
        if _card(image.stem) in chosen and truth["degradation"] == "clean"
    ]
    learnt = calibrate.learn(samples, f"calibrated on {len(samples)} clean {design} scans")
    if not learnt.palette.tokens:  # as `cardkit palette` does: no palette naming nothing
        print(f"{design}: palette: none learnt ({'; '.join(learnt.notes)}): the system's own")
        return None, set()
    target = work / f"{design}-palette.yaml"
    target.write_text(palette.dump(learnt.palette), encoding="utf-8")
    names = ", ".join(t.name for t in learnt.palette.tokens)
    print(
        f"{design}: palette: calibrated on the clean scans of {', '.join(sorted(chosen))} "
        f"({learnt.icons} icons: {names}); {'; '.join(learnt.notes) or 'every slot used'}"
    )
    return str(target), chosen


def _total(parts: list[Tally]) -> Tally:
    whole = Tally()
    for part in parts:
        for key, value in vars(part).items():
            if isinstance(value, list):
                getattr(whole, key).extend(value)
            else:
                setattr(whole, key, getattr(whole, key) + value)
    return whole


def _share(flags: list[bool]) -> str:
    return f"{sum(flags)}/{len(flags)}" if flags else "-"


def _mean(values: list[float]) -> str:
    return f"{statistics.fmean(values):.3f}" if values else "-"


def report(tallies: dict[str, Tally]) -> str:
    designs = sorted({key.split()[0] for key in tallies})
    rows = [
        "| design | set | scans | right kind | wrong kind, doubted | field CER cardkit "
        "| field CER raw | cards worse than raw | numbers cardkit | numbers raw | Move right "
        "| Move in raw | BAM! right | slots right | all tokens right | s/scan cardkit "
        "| s/scan raw | wall ratio | CPU ratio | CPU ratio, geometric mean "
        "| slots right, not calibrated on | slots right, kind right |",
        "|" + "---|" * 22,
    ]
    for design in designs:
        keyed = [(d, tallies[f"{design} {d}"]) for d in DEGRADATIONS if f"{design} {d}" in tallies]
        label = f"{design} (held out)" if design == HELD_OUT else design
        for degradation, t in [*keyed, ("all", _total([t for _, t in keyed]))]:
            wall, raw_wall = statistics.fmean(t.seconds), statistics.fmean(t.raw_seconds)
            cpu, raw_cpu = sum(t.cpu), sum(t.raw_cpu)
            wrong = len(t.kinds) - sum(t.kinds)
            ratio = wall / raw_wall if raw_wall else 0
            cpu_ratio = cpu / raw_cpu if raw_cpu else 0
            rows.append(
                f"| {label} | {degradation} | {t.scans} | {_share(t.kinds)} | "
                f"{t.kind_doubted}/{wrong} | {_mean(t.cers)} | {_mean(t.raw_cers)} | "
                f"{len(t.worse_than_raw)} | {_share(t.numbers)} | {_share(t.raw_numbers)} | "
                f"{_share(t.moves)} | {_share(t.raw_moves)} | {_share(t.bams)} | "
                f"{_share(t.slots)} | {_share(t.tokens)} | {wall:.2f} | {raw_wall:.2f} | "
                f"{ratio:.2f} | {cpu_ratio:.2f} | {geometric_ratio(t.cpu, t.raw_cpu):.2f} | "
                f"{_share(t.fresh_slots)} | {_share(t.kind_slots)} |"
            )
    every = _total(list(tallies.values()))
    rows.append(
        f"\nCPU ratio over all {len(every.cpu)} design scans, geometric mean of per-scan "
        f"ratios: {geometric_ratio(every.cpu, every.raw_cpu):.2f}"
    )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=Path, default=ROOT / "scans" / "samples")
    parser.add_argument("--only", help="only design folders whose name contains this")
    parser.add_argument("--show", action="store_true", help="print every field that differs")
    parser.add_argument(
        "--palette",
        choices=("calibrated", "hand", "none"),
        default="calibrated",
        help="how each design's box palette is obtained (see above)",
    )
    args = parser.parse_args()
    os.environ["OMP_THREAD_LIMIT"] = "1"
    import ocr  # benchmarks/ocr.py: the batch as `cardkit ocr -j 1` runs it, raw tesseract

    start = time.perf_counter()
    ocr.batch.warm(ocr.batch.Settings(Path(tempfile.gettempdir())))
    print(f"(warm-up, once per run, not in the table: {time.perf_counter() - start:.2f} s)")
    with tempfile.TemporaryDirectory() as tmp:
        tallies = run(
            args.samples,
            Path(tmp),
            ocr.read_folder,
            ocr.raw_tesseract,
            ocr.ours,
            args.only,
            args.show,
            args.palette,
        )
    print(report(tallies))
    worse = [stem for t in tallies.values() for stem in t.worse_than_raw]
    if worse:
        print(f"\ncards where cardkit's field CER exceeds raw's by > 0.01: {', '.join(worse)}")


if __name__ == "__main__":
    main()
