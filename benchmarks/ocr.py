"""OCR accuracy and speed: cardkit's pipeline against raw `tesseract IMG -` in the same run.

Sets (one table row each):
- the synthetic samples in `scans/samples/<system>/`, per system and degradation (clean,
  150dpi, skew2, phone): Marvel United (benchmarks/make_samples.py; scored with
  benchmarks/ocr_synthetic.py's functions, imported), Villainous and Marvel Champions
  (benchmarks/make_samples_vc.py; scored like the real sets, their truth has that form);
- real Villainous, Marvel Champions and Marvel United images with hand-checked truth, read
  from `../shared/ocr-real/` (or $CARDKIT_OCR_REAL) when it exists; never copied here. Each
  set is copied, for the run only, into its temporary folder under neutral stems (c01,
  c02, ...: a draft's id repeats its scan's stem) and split in two: the odd-numbered cards
  (`dev`, looked at while the reader was developed) and the even ones (`held-out`, measured
  only); Champions villains and schemes are rows apart;
- the Marvel United designs cardkit did not paint (`--sets designs`, benchmarks/ocr_designs.py).

Measures, per set: field CER (mean over the fields the truth gives), numbers right, Move
values and token counts right (Marvel United master plans), and seconds per scan (wall and
CPU, one scan at a time, OMP_THREAD_LIMIT=1 for both; cardkit as `cardkit ocr -j 1` runs
it: one batch per folder, its worker forked from a parent that loaded the pipeline and
tesseract's model once (batch.warm), each scan timed by the worker plus an even share of
its batch's own time beyond the scans (fork, pipes, the worker's end; printed under the table)).

How CER is computed (the same normalisation for both): NFC, curly quotes as straight,
`{icon}` tokens dropped from the truth, whitespace collapsed; titles compared without
case (they are printed in small caps). cardkit is scored field to field: the value in
the draft against the truth's value. Raw tesseract has no fields, so each truth field is
scored against the best-matching stretch of its whole output (lenient to it). A number
is right for cardkit when the draft's value equals the printed one, and for raw
tesseract when a line of its output is exactly the printed number. "draft holds (scored
as raw)" scores cardkit the lenient way too, against everything its draft holds as read
(fields and kept_text; not id, provenance, notes or gaps); every field where that is worse
than raw's by more than 0.01 is listed under the table.

    python benchmarks/ocr.py [--sets synthetic,designs,villainous,marvel-champions,marvel-united]
        [--markdown]

(`designs`: scans/samples/marvel-united-design-*/, scored and reported apart by
benchmarks/ocr_designs.py, one row per design and degradation.)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # ocr_synthetic: the Marvel United scoring

from ocr_scoring import best_substring_cer, cer, geometric_ratio  # noqa: E402

from cardkit.ocr import batch  # noqa: E402
from cardkit.ocr.pipeline import Options  # noqa: E402


def _real_folder() -> Path:
    """$CARDKIT_OCR_REAL, or `shared/ocr-real` beside the checkout (or its worktree folder)."""
    if os.environ.get("CARDKIT_OCR_REAL"):
        return Path(os.environ["CARDKIT_OCR_REAL"])
    for base in (ROOT.parent, ROOT.parent.parent):
        if (base / "shared" / "ocr-real").is_dir():
            return base / "shared" / "ocr-real"
    return ROOT.parent / "shared" / "ocr-real"


REAL = _real_folder()
TEXT_FACES = {"fate", "villain", "main-scheme", "side-scheme", "location"}
NOT_READ = {"id", "provenance", "gaps", "notes", "unconfirmed", "kind", "face"}  # cardkit's own


def draft_text(draft: dict[str, Any]) -> str:
    """Everything a draft holds as read from the card (fields and kept_text), in one text:
    what raw tesseract's output is to it. Its id and provenance repeat the file name and
    its notes are cardkit's own words, so they are not counted."""

    def flat(value: Any) -> str:
        if isinstance(value, dict):
            return "\n".join(flat(v) for v in value.values())
        if isinstance(value, list):
            return "\n".join(flat(v) for v in value)
        return "" if value is None or isinstance(value, bool) else str(value)

    return flat({k: v for k, v in draft.items() if k not in NOT_READ})


@dataclass
class Tally:
    cers: list[float] = field(default_factory=list)
    raw_cers: list[float] = field(default_factory=list)
    per_field: dict[str, list[float]] = field(default_factory=dict)
    numbers: int = 0
    numbers_right: int = 0
    raw_numbers_right: int = 0
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    raw_seconds: list[float] = field(default_factory=list)
    raw_cpu: list[float] = field(default_factory=list)
    invented: int = 0
    textless: int = 0
    scans: int = 0
    moves: list[bool] = field(default_factory=list)
    tokens: list[bool] = field(default_factory=list)
    per_hero: list[bool] = field(default_factory=list)  # Champions: the mark told right
    held_cers: list[float] = field(default_factory=list)  # cardkit scored as raw is
    worse: list[str] = field(default_factory=list)  # cards where the draft holds less than raw


def _children_cpu() -> float:
    times = os.times()
    return times.children_user + times.children_system


def _self_cpu() -> float:
    times = os.times()
    return times.user + times.system


def raw_tesseract(image: Path, tally: Tally) -> str:
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    cpu0, wall0 = _children_cpu(), time.perf_counter()
    result = subprocess.run(["tesseract", str(image), "-"], capture_output=True, text=True, env=env)
    tally.raw_seconds.append(time.perf_counter() - wall0)
    tally.raw_cpu.append(_children_cpu() - cpu0)
    return result.stdout


@dataclass
class Batch:
    """One `cardkit ocr` batch over a folder: its drafts, and what the whole batch cost."""

    results: dict[Path, batch.ScanResult]
    scans: int
    wall: float  # the batch.run call: forking the worker, every scan, the worker's end
    cpu: float

    @property
    def overhead_wall(self) -> float:
        """Per scan: the batch's wall time beyond its scans' own."""
        return (self.wall - sum(r.seconds for r in self.results.values())) / max(1, self.scans)

    @property
    def overhead_cpu(self) -> float:
        return (self.cpu - sum(r.cpu for r in self.results.values())) / max(1, self.scans)


BATCHES: list[Batch] = []


def read_folder(
    images: list[Path], out: Path, system: str | None, palette: str | None = None
) -> Batch:
    """The images as `cardkit ocr` reads them: one batch, one worker (one core), forked from
    this process after batch.warm (done once per run, before any clock, as the CLI does once
    per batch). Each scan's wall and CPU time come from its worker; the batch's own totals
    (fork, pipes, the worker's end) are kept to show that overhead."""
    settings = batch.Settings(
        out, force=True, options=Options((system,) if system else (), 0.9, palette=palette)
    )
    cpu0, wall0 = _self_cpu() + _children_cpu(), time.perf_counter()
    results = batch.run(images, settings, jobs=1)
    done = Batch(
        dict(zip(images, results, strict=True)),
        len(images),
        time.perf_counter() - wall0,
        _self_cpu() + _children_cpu() - cpu0,
    )
    BATCHES.append(done)
    return done


def ours(image: Path, read: Batch, tally: Tally) -> list[dict[str, Any]]:
    """The scan's drafts; its time is its worker's plus an even share of the batch's own."""
    result = read.results[image]
    tally.seconds.append(result.seconds + read.overhead_wall)
    tally.cpu.append(result.cpu + read.overhead_cpu)
    if not result.ok:  # a failed scan scores as nothing read
        print(f"  {image.name}: failed: {result.message}", file=sys.stderr)
    return [yaml.safe_load(Path(d["draft"]).read_text()) for d in result.drafts]


def _number_text(value: Any) -> str:
    return str(value).strip()


def _as_int(value: Any) -> int | None:
    try:
        return int(str(value).replace("+", "").rstrip("*"))  # `3*`: a star beside the number
    except (TypeError, ValueError):
        return None


# truth field -> (draft field, fold case)
FIELDS = {
    "villainous": {"title": ("title", True), "text": ("ability", False), "type": ("type", False)},
    "marvel-champions": {"title": ("name", True), "text": ("text", False), "type": ("_type", True)},
    "marvel-united": {"title": ("name", True), "text": ("text", False)},
}
NUMBERS = {
    "villainous": {"cost": "cost", "strength": "strength"},
    "marvel-champions": {
        "threat": "threat",
        "escalation_threat": "escalation_threat",
        "starting_threat": "base_threat",
        "scheme": "scheme",
        "attack": "attack",
        "hit_points": "health",
    },
    "marvel-united": {},
}


def _draft_value(draft: dict[str, Any], name: str) -> Any:
    if name == "_type":  # Champions: the type line is implied by type_code
        code = draft.get("type_code")
        return str(code).replace("_", " ").upper() if code else None
    value = draft.get(name)
    return " ".join(map(str, value)) if isinstance(value, list) else value


def _pairs(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    """(image, truth) for every `<stem>.truth.yaml` in the folder."""
    out = []
    for truth_path in sorted(folder.glob("*.truth.yaml")):
        stem = truth_path.name.removesuffix(".truth.yaml")
        image = next(p for p in folder.iterdir() if p.stem == stem and p.suffix != ".yaml")
        out.append((image, yaml.safe_load(truth_path.read_text(encoding="utf-8"))))
    return out


def score_cards(system: str, folder: Path, tally_of: Any, work: Path) -> None:
    """Villainous and Champions cards (real, or synthetic with truth of the same form)."""
    pairs = _pairs(folder)
    read = read_folder([image for image, _ in pairs], work, system)
    for image, truth in pairs:
        tally = tally_of(truth)
        raw = raw_tesseract(image, tally)
        drafts = ours(image, read, tally)
        tally.scans += 1
        held = draft_text(drafts[0]) if drafts else ""
        frames = truth.get("frames") or [{}]
        for index, frame_truth in enumerate(frames):
            expected = {**truth, **frame_truth}
            draft = drafts[index] if index < len(drafts) else {}
            first_frame = index == 0  # raw tesseract reads a file's first frame only
            if expected.get("card") not in TEXT_FACES:
                tally.textless += 1
                if any(draft.get(k) for k in ("ability", "text", "flavor")):
                    tally.invented += 1
                continue
            for key, (name, fold) in FIELDS[system].items():
                if not expected.get(key):
                    continue
                value = cer(_draft_value(draft, name), expected[key], fold=fold)
                tally.cers.append(value)
                tally.per_field.setdefault(key, []).append(value)
                if first_frame:
                    raw_cer = best_substring_cer(raw, expected[key], fold=fold)
                    held_cer = best_substring_cer(held, expected[key], fold=fold)
                    tally.raw_cers.append(raw_cer)
                    tally.held_cers.append(held_cer)
                    if held_cer > raw_cer + 0.01:
                        tally.worse.append(f"{image.name} {key} {held_cer:.2f} > raw {raw_cer:.2f}")
            if system == "marvel-champions" and expected.get("name"):
                # the printed case of a small-caps title (truth `name`): shown, not in the mean
                kept = cer(draft.get("name"), expected["name"])
                tally.per_field.setdefault("name (case kept)", []).append(kept)
            for key, name in NUMBERS[system].items():
                if f"{key}_per_hero" in expected:  # `<field>_fixed`: true where no mark
                    fixed = draft.get(f"{name}_fixed")
                    tally.per_hero.append(fixed is (not expected[f"{key}_per_hero"]))
                if expected.get(key) in (None, ""):
                    continue
                tally.numbers += 1
                got = _as_int(draft.get(name))
                tally.numbers_right += got is not None and got == _as_int(expected[key])
                if first_frame:
                    printed = _number_text(expected[key])
                    lines = {line.strip() for line in raw.splitlines()}
                    tally.raw_numbers_right += printed in lines


def score_marvel_united(folder: Path, tally_of: Any, work: Path) -> None:
    """The Marvel United samples, scored by benchmarks/ocr_synthetic.py's own functions."""
    import ocr_synthetic as mu

    pairs = _pairs(folder)
    read = read_folder([image for image, _ in pairs], work, "marvel-united")
    for image, truth in pairs:
        tally = tally_of(truth)
        raw = raw_tesseract(image, tally)
        drafts = ours(image, read, tally)
        draft = drafts[0] if drafts else {}
        tally.scans += 1
        for _name, want, got in mu.text_fields(truth, draft):
            tally.cers.append(mu.cer(want, got))
            tally.raw_cers.append(mu.cer(want, raw, within=True))
        for _name, want, got in mu.numbers(truth, draft):
            tally.numbers += 1
            tally.numbers_right += want == got
        tally.raw_numbers_right += sum(mu.raw_numbers(truth, raw))
        if truth["card"] == "masterplan":
            card = draft.get("card", {}) if isinstance(draft.get("card"), dict) else {}
            tally.moves.append(card.get("move") == truth["move"])
            tally.tokens.append(card.get("place") == mu.placement(truth))


# rows of a real set by the truth's card kind (Champions: the villains apart from the schemes)
REAL_ROWS = {"villain": " villains", "main-scheme": " schemes", "side-scheme": " schemes"}


def neutral_copies(folder: Path, work: Path) -> dict[str, Path]:
    """The set copied under neutral stems (c01, c02, ...; a draft repeats its scan's stem in
    `id`, which must not give its title away), in two parts: the odd-numbered cards were
    looked at while developing the reader (`dev`), the even ones were not (`held-out`).
    The copies live in the run's temporary folder and go with it."""
    import shutil

    parts = {"dev": work / "dev" / folder.name, "held-out": work / "held-out" / folder.name}
    for path in parts.values():
        path.mkdir(parents=True, exist_ok=True)
    for number, truth in enumerate(sorted(folder.glob("*.truth.yaml")), 1):
        stem = truth.name.removesuffix(".truth.yaml")
        target = parts["dev" if number % 2 else "held-out"]
        shutil.copy(truth, target / f"c{number:02d}.truth.yaml")
        for image in folder.iterdir():
            if image.stem == stem and not image.name.endswith(".yaml"):
                shutil.copy(image, target / f"c{number:02d}{image.suffix}")
    return parts


def _mean(values: list[float]) -> str:
    return f"{statistics.mean(values):.3f}" if values else "-"


def _share(flags: list[bool]) -> str:
    return f"{sum(flags)}/{len(flags)}" if flags else "-"


def report(tallies: dict[str, Tally], markdown: bool) -> str:
    head = (
        "| set | scans | field CER cardkit | draft holds (scored as raw) | field CER raw "
        "| numbers cardkit | numbers raw "
        "| Move values | token counts | s/scan cardkit | s/scan raw | wall ratio | CPU ratio "
        "| CPU ratio, geometric mean |"
    )
    rows = [head, "|" + "---|" * 14]
    for name, t in tallies.items():
        wall = statistics.mean(t.seconds) if t.seconds else 0
        raw_wall = statistics.mean(t.raw_seconds) if t.raw_seconds else 0
        cpu, raw_cpu = sum(t.cpu), sum(t.raw_cpu)
        rows.append(
            f"| {name} | {t.scans} | {_mean(t.cers)} | {_mean(t.held_cers)} | "
            f"{_mean(t.raw_cers)} | "
            f"{t.numbers_right}/{t.numbers} | {t.raw_numbers_right}/{t.numbers} | "
            f"{_share(t.moves)} | {_share(t.tokens)} | "
            f"{wall:.2f} | {raw_wall:.2f} | {wall / raw_wall if raw_wall else 0:.2f} | "
            f"{cpu / raw_cpu if raw_cpu else 0:.2f} | {geometric_ratio(t.cpu, t.raw_cpu):.2f} |"
        )
    every = _total(list(tallies.values()))
    lines = [
        *rows,
        f"\nCPU ratio over all {len(every.cpu)} scans, geometric mean of per-scan ratios: "
        f"{geometric_ratio(every.cpu, every.raw_cpu):.2f}",
    ]
    for name, t in tallies.items():
        if t.per_field:
            parts = ", ".join(f"{k} {_mean(v)}" for k, v in t.per_field.items())
            lines.append(f"\n{name}: per field CER {parts}")
        if t.per_hero:
            lines.append(f"{name}: per-hero marks told right {_share(t.per_hero)}")
        if t.held_cers:
            worse = "; ".join(t.worse) or "none"
            lines.append(f"{name}: fields where the draft holds less than raw (> +0.01): {worse}")
        if t.textless:
            lines.append(
                f"{name}: {t.textless} faces without rules text, {t.invented} with text invented"
            )
    text = "\n".join(lines)
    return text if markdown else text.replace("|", " ").replace("---", "")


def _total(tallies: list[Tally]) -> Tally:
    everything = Tally()
    for tally in tallies:
        for key, value in vars(tally).items():
            if isinstance(value, list):
                getattr(everything, key).extend(value)
            elif isinstance(value, int):
                setattr(everything, key, getattr(everything, key) + value)
    return everything


SYSTEMS = {"marvel-united": "MU", "villainous": "V", "marvel-champions": "C"}
DEGRADATIONS = ("clean", "150dpi", "skew2", "phone")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sets", default="synthetic,designs,villainous,marvel-champions,marvel-united"
    )
    parser.add_argument("--samples", type=Path, default=ROOT / "scans" / "samples")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    wanted = args.sets.split(",")
    os.environ["OMP_THREAD_LIMIT"] = "1"
    cpu0, wall0 = _self_cpu(), time.perf_counter()
    batch.warm(batch.Settings(Path(tempfile.gettempdir())))  # once per batch, as the CLI does
    warm = (time.perf_counter() - wall0, _self_cpu() - cpu0)
    tallies: dict[str, Tally] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if "synthetic" in wanted:
            for system, short in SYSTEMS.items():
                folder = args.samples / system
                if not folder.is_dir():
                    continue

                def tally_of(truth: dict[str, Any], short: str = short) -> Tally:
                    key = f"synthetic {short} {truth.get('degradation', '?')}"
                    return tallies.setdefault(key, Tally())

                if system == "marvel-united":
                    score_marvel_united(folder, tally_of, work)
                else:
                    score_cards(system, folder, tally_of, work)
            synthetic = [t for k, t in tallies.items() if k.startswith("synthetic")]
            for degradation in DEGRADATIONS:
                same = [t for k, t in tallies.items() if k.endswith(f" {degradation}")]
                if same:
                    tallies[f"synthetic all {degradation}"] = _total(same)
            tallies["synthetic all"] = _total(synthetic)
        designs = {}
        if "designs" in wanted:  # Marvel United designs cardkit did not paint, one table
            import ocr_designs

            designs = ocr_designs.run(args.samples, work, read_folder, raw_tesseract, ours)
        for system in ("villainous", "marvel-champions", "marvel-united"):
            if system in wanted and (REAL / system).is_dir():
                for part, folder in neutral_copies(REAL / system, work / "real" / system).items():

                    def real_row(
                        truth: dict[str, Any], part: str = part, system: str = system
                    ) -> Tally:
                        kind = REAL_ROWS.get(str(truth.get("card")), "")
                        return tallies.setdefault(f"real {system}{kind} ({part})", Tally())

                    score_cards(system, folder, real_row, work / "drafts" / system / part)
            elif system in wanted:
                print(f"({REAL / system} not found: real {system} set skipped)", file=sys.stderr)
    order = [f"synthetic {s} {d}" for s in SYSTEMS.values() for d in DEGRADATIONS]
    ordered = {k: tallies[k] for k in order if k in tallies}
    ordered.update({k: v for k, v in tallies.items() if k not in ordered})
    version = subprocess.run(["tesseract", "--version"], capture_output=True, text=True)
    print(f"raw: {version.stdout.splitlines()[0]}; cardkit: tesseract via tesserocr")
    print(report(ordered, args.markdown))
    if designs:
        print("\nMarvel United designs cardkit did not paint (benchmarks/ocr_designs.py):")
        print(ocr_designs.report(designs))
    scans = sum(b.scans for b in BATCHES)
    print(
        f"\nbatches: {scans} scans in {len(BATCHES)} batches, {sum(b.wall for b in BATCHES):.1f} s "
        f"wall, {sum(b.cpu for b in BATCHES):.1f} s CPU; beyond the scans' own time (fork, "
        f"pipes, the worker's end; shared out in the table): "
        f"{sum(b.overhead_wall * b.scans for b in BATCHES):.2f} s wall, "
        f"{sum(b.overhead_cpu * b.scans for b in BATCHES):.2f} s CPU; the warm-up, once per "
        f"`cardkit ocr` run and not in the table: {warm[0]:.2f} s wall, {warm[1]:.2f} s CPU"
    )


if __name__ == "__main__":
    main()
