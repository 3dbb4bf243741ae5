"""OCR accuracy and speed: cardkit's pipeline against raw `tesseract IMG -` in the same run.

Sets:
- real Villainous and Marvel Champions images with hand-checked truth, read from
  `../shared/ocr-real/` (or $CARDKIT_OCR_REAL) when it exists; never copied here;
- the synthetic samples in `scans/samples/`, per degradation.

Measures, per set: field CER (mean over the fields the truth gives), numbers right, and
seconds per scan (wall and CPU, one scan at a time, OMP_THREAD_LIMIT=1 for both).

How CER is computed (the same normalisation for both): NFC, curly quotes as straight,
`{icon}` tokens dropped from the truth, whitespace collapsed; titles compared without
case (they are printed in small caps). cardkit is scored field to field: the value in
the draft against the truth's value. Raw tesseract has no fields, so each truth field is
scored against the best-matching stretch of its whole output (lenient to it). A number
is right for cardkit when the draft's value equals the printed one, and for raw
tesseract when a line of its output is exactly the printed number.

    python benchmarks/ocr.py [--sets villainous,marvel-champions,synthetic] [--markdown]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardkit.ocr import batch  # noqa: E402
from cardkit.ocr.fields import distance  # noqa: E402
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
TEXT_FACES = {"fate", "villain", "main-scheme", "side-scheme"}


def norm(text: Any) -> str:
    text = unicodedata.normalize("NFC", str(text or ""))
    text = re.sub(r"\{[a-z_]+\}", " ", text)
    text = text.translate(str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-"}))
    return re.sub(r"\s+", " ", text).strip()


def cer(predicted: Any, truth: Any, *, fold: bool = False) -> float:
    p, t = norm(predicted), norm(truth)
    if fold:
        p, t = p.casefold(), t.casefold()
    if not t:
        return 0.0 if not p else 1.0
    return min(1.0, distance(p, t, limit=max(len(p), len(t))) / len(t))


def best_substring_cer(haystack: str, truth: Any, *, fold: bool = False) -> float:
    """Semi-global alignment: the truth against the stretch of the output closest to it."""
    h, t = norm(haystack), norm(truth)
    if fold:
        h, t = h.casefold(), t.casefold()
    if not t:
        return 0.0
    previous = [0] * (len(h) + 1)  # free start anywhere in the output
    for i, ct in enumerate(t, 1):
        current = [i]
        for j, ch in enumerate(h, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ct != ch)))
        previous = current
    return min(1.0, min(previous) / len(t))  # free end anywhere


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


def ours(image: Path, out: Path, system: str | None, tally: Tally) -> list[dict[str, Any]]:
    settings = batch.Settings(out, force=True, options=Options((system,) if system else (), 0.9))
    cpu0, wall0 = _self_cpu() + _children_cpu(), time.perf_counter()
    try:
        result = batch.process_scan(image, settings)
    except Exception as err:  # a failed scan scores as nothing read
        print(f"  {image.name}: failed: {err}", file=sys.stderr)
        result = None
    tally.seconds.append(time.perf_counter() - wall0)
    tally.cpu.append(_self_cpu() + _children_cpu() - cpu0)
    drafts = result.drafts if result else []
    return [yaml.safe_load(Path(d["draft"]).read_text()) for d in drafts]


def _number_text(value: Any) -> str:
    return str(value).strip()


def _as_int(value: Any) -> int | None:
    try:
        return int(str(value).replace("+", ""))
    except (TypeError, ValueError):
        return None


# truth field -> (draft field, fold case)
FIELDS = {
    "villainous": {"title": ("title", True), "text": ("ability", False), "type": ("type", False)},
    "marvel-champions": {"title": ("name", True), "text": ("text", False), "type": ("_type", True)},
}
NUMBERS = {
    "villainous": {"cost": "cost", "strength": "strength"},
    "marvel-champions": {
        "threat": "threat",
        "escalation_threat": "escalation_threat",
        "starting_threat": "base_threat",
    },
}


def _draft_value(draft: dict[str, Any], name: str) -> Any:
    if name == "_type":  # Champions: the type line is implied by type_code
        code = draft.get("type_code")
        return str(code).replace("_", " ").upper() if code else None
    return draft.get(name)


def score_real(system: str, folder: Path, tally: Tally, work: Path) -> None:
    for truth_path in sorted(folder.glob("*.truth.yaml")):
        truth = yaml.safe_load(truth_path.read_text())
        stem = truth_path.name.removesuffix(".truth.yaml")
        image = next(p for p in folder.iterdir() if p.stem == stem and p.suffix != ".yaml")
        raw = raw_tesseract(image, tally)
        drafts = ours(image, work, system, tally)
        tally.scans += 1
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
                    tally.raw_cers.append(best_substring_cer(raw, expected[key], fold=fold))
            for key, name in NUMBERS[system].items():
                if expected.get(key) in (None, ""):
                    continue
                tally.numbers += 1
                tally.numbers_right += _as_int(draft.get(name)) == _as_int(expected[key])
                if first_frame:
                    printed = _number_text(expected[key])
                    lines = {line.strip() for line in raw.splitlines()}
                    tally.raw_numbers_right += printed in lines


def score_synthetic(folder: Path, tallies: dict[str, Tally], work: Path) -> None:
    """The samples' truth names fields as the drafts do (n, move, name, text): compared where
    the truth gives them."""
    for truth_path in sorted(folder.glob("*.truth.yaml")):
        truth = yaml.safe_load(truth_path.read_text())
        tally = tallies.setdefault(f"synthetic {truth.get('degradation', '?')}", Tally())
        stem = truth_path.name.removesuffix(".truth.yaml")
        image = next(p for p in folder.iterdir() if p.stem == stem and p.suffix != ".yaml")
        raw = raw_tesseract(image, tally)
        drafts = ours(image, work, truth.get("game"), tally)
        draft = drafts[0] if drafts else {}
        tally.scans += 1
        for key in ("name", "text"):
            if truth.get(key):
                tally.cers.append(cer(draft.get(key), truth[key], fold=key == "name"))
                tally.raw_cers.append(best_substring_cer(raw, truth[key], fold=key == "name"))
        for key in ("n", "move"):
            if isinstance(truth.get(key), int):
                tally.numbers += 1
                tally.numbers_right += draft.get(key) == truth[key]
                tally.raw_numbers_right += str(truth[key]) in {x.strip() for x in raw.splitlines()}


def _mean(values: list[float]) -> str:
    return f"{statistics.mean(values):.3f}" if values else "-"


def report(tallies: dict[str, Tally], markdown: bool) -> str:
    head = (
        "| set | scans | field CER cardkit | field CER raw | numbers cardkit | numbers raw "
        "| s/scan cardkit | s/scan raw | wall ratio | CPU ratio |"
    )
    rows = [head, "|" + "---|" * 10]
    for name, t in tallies.items():
        wall = statistics.mean(t.seconds) if t.seconds else 0
        raw_wall = statistics.mean(t.raw_seconds) if t.raw_seconds else 0
        cpu, raw_cpu = sum(t.cpu), sum(t.raw_cpu)
        rows.append(
            f"| {name} | {t.scans} | {_mean(t.cers)} | {_mean(t.raw_cers)} | "
            f"{t.numbers_right}/{t.numbers} | {t.raw_numbers_right}/{t.numbers} | "
            f"{wall:.2f} | {raw_wall:.2f} | {wall / raw_wall if raw_wall else 0:.2f} | "
            f"{cpu / raw_cpu if raw_cpu else 0:.2f} |"
        )
    lines = rows
    for name, t in tallies.items():
        if t.per_field:
            parts = ", ".join(f"{k} {_mean(v)}" for k, v in t.per_field.items())
            lines.append(f"\n{name}: per field CER {parts}")
        if t.textless:
            lines.append(
                f"{name}: {t.textless} faces without rules text, {t.invented} with text invented"
            )
    text = "\n".join(lines)
    return text if markdown else text.replace("|", " ").replace("---", "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="villainous,marvel-champions,synthetic")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    wanted = args.sets.split(",")
    os.environ["OMP_THREAD_LIMIT"] = "1"
    tallies: dict[str, Tally] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for system in ("villainous", "marvel-champions"):
            if system in wanted and (REAL / system).is_dir():
                tallies[f"real {system}"] = Tally()
                score_real(system, REAL / system, tallies[f"real {system}"], work)
            elif system in wanted:
                print(f"({REAL / system} not found: real {system} set skipped)", file=sys.stderr)
        if "synthetic" in wanted and (ROOT / "scans" / "samples").is_dir():
            score_synthetic(ROOT / "scans" / "samples", tallies, work)
    version = subprocess.run(["tesseract", "--version"], capture_output=True, text=True)
    print(f"raw: {version.stdout.splitlines()[0]}; cardkit: tesseract via tesserocr")
    print(report(tallies, args.markdown))


if __name__ == "__main__":
    main()
