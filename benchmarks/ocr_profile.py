"""Where `cardkit ocr`'s time goes: engine calls per pipeline stage, their pixels and CPU.

Every scan of a folder is read in this process, as a batch worker reads it
(cardkit.ocr.scan.process_scan after batch.warm), with the engine class that
`make_engine("tesseract")` really returns wrapped at class level (each scan makes its
own engine, so wrapping an instance would miss them). Each engine call is filed under
its stage (the function `pipeline.read_frame` called that led to it: kind_choice.weigh,
Reader.probe, grammar_refine.title_band, numbers.refine, ...) and under its site (the
innermost cardkit function that called the engine). A call whose image, mode and
whitelist repeat an earlier call of the same scan is counted as a repeat.

    python benchmarks/ocr_profile.py FOLDER [--system marvel-united] [--palette FILE]
        [--raw] [--limit N] [--scans]

--raw also times `tesseract IMG -` per scan (one thread) and prints the geometric mean of
the per-scan CPU ratios, as benchmarks/ocr.py does.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import math
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardkit.ocr import batch, engine  # noqa: E402
from cardkit.ocr.pipeline import Options  # noqa: E402

IMAGES = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp", ".bmp"}


@dataclass
class Tally:
    calls: int = 0
    seconds: float = 0.0
    pixels: int = 0
    repeats: int = 0
    repeat_seconds: float = 0.0

    def add(self, seconds: float, pixels: int, repeat: bool) -> None:
        self.calls += 1
        self.seconds += seconds
        self.pixels += pixels
        if repeat:
            self.repeats += 1
            self.repeat_seconds += seconds


@dataclass
class Profile:
    stages: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    sites: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    reads: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    seen: set[str] = field(default_factory=set)  # this scan's calls (image, mode, whitelist)
    scan_engine: float = 0.0
    scan_calls: int = 0


PROFILE = Profile()


def _where() -> tuple[str, str]:
    """(stage, site) of the engine call being made, from the stack."""
    frames = traceback.extract_stack()[:-2]  # without _where and the wrapper
    cardkit = [f for f in frames if "/cardkit/" in f.filename and "engine.py" not in f.filename]
    site = f"{Path(cardkit[-1].filename).stem}.{cardkit[-1].name}" if cardkit else "?"
    stage = "?"
    for caller, callee in itertools.pairwise(cardkit):
        if caller.name == "read_frame" and caller.filename.endswith("pipeline.py"):
            stage = f"{Path(callee.filename).stem}.{callee.name}"
            break
    else:
        if cardkit and cardkit[-1].name == "read_frame":
            stage = "pipeline.read_frame"
    return stage, site


def what(key: str) -> str:
    """A key's kind of read: its last part without numbers (`page-inverted`, `near`,
    `glyph`), a template region's field (`region name`)."""
    region = re.search(r"/([^/@]+(?:/[^/@]+)*)@[0-9.]+,", key)
    if region:  # a template region: `<frame>/<turn>/<field>@<box>/<mode>`
        return "region " + region.group(1).split("/", 2)[-1]
    last = key.rsplit("/", 1)[-1]
    return re.sub(r"[-.@]?[0-9][0-9.,@-]*", "", last) or last


def _wrap(cls: Any) -> None:
    inner = cls.read

    def read(self: Any, image: Any, mode: Any, *, key: str, whitelist: str = "") -> Any:
        digest = hashlib.blake2b(image.tobytes(), digest_size=16)
        digest.update(f"{image.mode}{image.size}{mode}{whitelist}".encode())
        repeat = digest.hexdigest() in PROFILE.seen
        PROFILE.seen.add(digest.hexdigest())
        cpu = time.process_time()
        try:
            return inner(self, image, mode, key=key, whitelist=whitelist)
        finally:
            spent = time.process_time() - cpu
            stage, site = _where()
            pixels = image.width * image.height
            PROFILE.stages[stage].add(spent, pixels, repeat)
            PROFILE.sites[site].add(spent, pixels, repeat)
            PROFILE.reads[f"{what(key)} ({mode})"].add(spent, pixels, repeat)
            PROFILE.scan_engine += spent
            PROFILE.scan_calls += 1

    cls.read = read


def raw_cpu(image: Path) -> float:
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    before = os.times()
    subprocess.run(["tesseract", str(image), "-"], capture_output=True, env=env, check=False)
    after = os.times()
    return (after.children_user + after.children_system) - (
        before.children_user + before.children_system
    )


def table(title: str, rows: dict[str, Tally], total: float, scans: int) -> str:
    out = [
        f"\n{title}",
        f"{'':44} {'calls/scan':>10} {'s/scan':>8} {'share':>6} {'Mpx/scan':>9} {'repeats':>8}",
    ]
    for name, t in sorted(rows.items(), key=lambda kv: -kv[1].seconds):
        out.append(
            f"{name[:44]:44} {t.calls / scans:10.1f} {t.seconds / scans:8.3f} "
            f"{t.seconds / max(total, 1e-9):6.1%} {t.pixels / scans / 1e6:9.2f} "
            f"{t.repeats / scans:8.1f}"
        )
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--system", default=None)
    parser.add_argument("--palette", default=None)
    parser.add_argument("--raw", action="store_true", help="time raw tesseract too")
    parser.add_argument("--limit", type=int, default=0, help="only the first N scans")
    parser.add_argument("--scans", action="store_true", help="one line per scan")
    args = parser.parse_args()
    os.environ["OMP_THREAD_LIMIT"] = "1"
    _wrap(type(engine.make_engine("tesseract")))
    images = sorted(p for p in args.folder.iterdir() if p.suffix.lower() in IMAGES)
    if args.limit:
        images = images[: args.limit]
    from cardkit.ocr.scan import process_scan

    with tempfile.TemporaryDirectory() as tmp:
        options = Options((args.system,) if args.system else (), 0.9, palette=args.palette)
        settings = batch.Settings(Path(tmp), force=True, options=options)
        batch.warm(settings)
        total_cpu, engine_cpu, ratios = 0.0, 0.0, []
        for image in images:
            PROFILE.seen.clear()
            PROFILE.scan_engine, PROFILE.scan_calls = 0.0, 0
            cpu = time.process_time()
            result = process_scan(image, settings)
            spent = time.process_time() - cpu
            total_cpu += spent
            engine_cpu += PROFILE.scan_engine
            line = (
                f"{image.name}: {spent:.2f}s cpu, {PROFILE.scan_calls} calls, "
                f"engine {PROFILE.scan_engine:.2f}s"
            )
            if args.raw:
                raw = raw_cpu(image)
                ratios.append(spent / max(raw, 1e-3))
                line += f", raw {raw:.2f}s, ratio {ratios[-1]:.2f}"
            if args.scans:
                print(line, flush=True)
            if not result.ok:
                print(f"  failed: {result.message}", file=sys.stderr)
    n = max(1, len(images))
    print(
        f"\n{len(images)} scans: {total_cpu / n:.3f}s cpu/scan, engine {engine_cpu / n:.3f}s "
        f"({engine_cpu / max(total_cpu, 1e-9):.0%}), the rest {(total_cpu - engine_cpu) / n:.3f}s"
    )
    if ratios:
        mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"CPU ratio to raw tesseract (geometric mean): {mean:.2f}")
    print(table("by stage (what pipeline.read_frame called)", PROFILE.stages, engine_cpu, n))
    print(table("by site (the cardkit function calling the engine)", PROFILE.sites, engine_cpu, n))
    print(table("by read (the engine key's last part)", PROFILE.reads, engine_cpu, n))


if __name__ == "__main__":
    main()
