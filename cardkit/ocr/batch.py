"""A batch of scans: N worker processes read them, each scan with a timeout.

A scan that fails (unreadable file, engine crash, timeout) fails alone: the others
finish, and the result says which failed and why in one line each. Workers run with
OMP_THREAD_LIMIT=1 so N workers use N cores, not N x tesseract's threads. Drafts are
written atomically (temporary file, fsync, rename): a killed batch leaves whole drafts
or none, never half of one.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit.errors import CardkitError
from cardkit.ocr.pipeline import Options

TIMEOUT = 120.0  # seconds per scan


@dataclass
class Settings:
    out: Path
    engine: str = "tesseract"
    language: str = "eng"
    force: bool = False
    options: Options = field(default_factory=Options)
    drafted: str | None = None  # the date written into provenance (today when None)
    root: Path | None = None  # provenance names scans relative to this folder when under it


@dataclass
class ScanResult:
    scan: str
    ok: bool
    message: str = ""
    drafts: list[dict[str, Any]] = field(default_factory=list)  # one per frame
    seconds: float = 0.0
    cpu: float = 0.0  # seconds of CPU the scan took in its worker
    worker: int = 0  # the process id of the worker that read it


def draft_name(frame_name: str) -> str:
    return f"{frame_name}.yaml"


def process_scan(path: Path, settings: Settings) -> ScanResult:
    """Everything for one scan file, in this process: intake, read, draft, write."""
    from cardkit import yamlio
    from cardkit.ocr import draft, intake
    from cardkit.ocr.engine import make_engine
    from cardkit.ocr.pipeline import read_frame

    started, cpu = time.monotonic(), time.process_time()
    result = ScanResult(str(path), ok=True, worker=os.getpid())
    shown = str(path)
    if settings.root is not None and path.resolve().is_relative_to(settings.root.resolve()):
        shown = path.resolve().relative_to(settings.root.resolve()).as_posix()
    frames = intake.load(path)
    engine = make_engine(settings.engine, settings.language)
    version = engine.version()
    for frame in frames:
        target = settings.out / draft_name(frame.name)
        if target.exists() and not settings.force:
            raise CardkitError(f"{target} exists: not overwritten (use --force)")
        read = read_frame(frame, engine, settings.options)
        document = draft.build(
            read,
            scan=shown,
            engine=engine.name,
            engine_version=version,
            language=settings.language,
            options=settings.options,
            drafted=settings.drafted,
        )
        yamlio.atomic_write(target, draft.render(document, shown))
        result.drafts.append(
            {
                "frame": frame.name,
                "draft": str(target),
                "kind": document["kind"],
                "template": document["provenance"]["template"],
                "mean_confidence": document["provenance"]["mean_confidence"],
                "unconfirmed": len(document.get("unconfirmed", [])),
            }
        )
    result.seconds = round(time.monotonic() - started, 3)
    result.cpu = round(time.process_time() - cpu, 3)
    return result


def scan_once(path: Path, settings: Settings) -> ScanResult:
    """One scan, its failure kept as its result: the batch goes on."""
    try:
        return process_scan(path, settings)
    except CardkitError as err:
        return ScanResult(str(path), False, str(err))
    except Exception as err:  # an engine or pipeline bug: this scan fails, the batch goes on
        return ScanResult(str(path), False, f"{path}: {type(err).__name__}: {err}")


class _ReadsNothing:
    """An engine that reads nothing: `warm` walks the pipeline with it, tesseract unused."""

    name = "none"

    def version(self) -> str:
        return "0"

    def read(self, image: Any, mode: str, *, key: str, whitelist: str = "") -> Any:
        from cardkit.ocr.engine import Reading

        return Reading(())


def warm(settings: Settings) -> None:
    """Do once, in the batch's parent, what every scan would otherwise do first: import and
    set up the pipeline's libraries (OpenCV's first calls, jsonschema, ruamel), load the
    templates, their readers and schemas, and tesseract's model. Workers are forked from
    this process and inherit all of it; each scan then pays for its own reading only."""
    from PIL import Image

    from cardkit import schemas
    from cardkit.ocr import draft, intake, layout, pipeline
    from cardkit.ocr.engine import make_engine

    sets = layout.template_sets()
    for templates in sets.values():
        for template in templates.templates:
            if template.kind in schemas.kinds():
                schemas.detailed_validator(template.kind)
            for region in template.regions:
                if region.reader != "text":
                    layout.reader(region.reader)
    blank = Image.new("RGB", (250, 350), (255, 255, 255))
    frame = intake.Frame("warm-up", Path("warm-up.png"), "", blank, None)
    read = pipeline.read_frame(frame, _ReadsNothing(), settings.options)
    document = draft.build(
        read,
        scan="warm-up.png",
        engine="none",
        engine_version="0",
        language="",
        options=settings.options,
    )
    draft.render(document, "warm-up.png")
    with contextlib.suppress(CardkitError):  # each scan reports it (the CLI probed already)
        make_engine(settings.engine, settings.language).version()
    gc.freeze()  # the workers' collections then leave the inherited objects (and pages) alone


def run(
    paths: list[Path],
    settings: Settings,
    *,
    jobs: int = 1,
    timeout: float = TIMEOUT,
    progress: Callable[[ScanResult, int, int], None] | None = None,
) -> list[ScanResult]:
    """Every scan read by one of `jobs` worker processes; results in the order of `paths`."""
    from cardkit.ocr.workers import Worker, wait

    settings.out.mkdir(parents=True, exist_ok=True)
    os.environ["OMP_THREAD_LIMIT"] = "1"
    warm(settings)
    context = multiprocessing.get_context("fork")
    pending = list(enumerate(paths))
    results: dict[int, ScanResult] = {}
    pool: list[Worker] = []
    try:
        while pending or any(w.busy for w in pool):
            for worker in pool:
                if not worker.busy and pending:
                    worker.give(*pending.pop(0))
            while pending and len(pool) < max(1, jobs):
                pool.append(Worker(context, settings))
                pool[-1].give(*pending.pop(0))
            wait(pool)
            for worker in list(pool):
                done = worker.collect(timeout)
                if done is None:
                    continue
                index, result = done
                results[index] = result
                if worker.dead:  # crashed or killed: another is forked when there is work
                    pool.remove(worker)
                if progress:
                    progress(result, len(results), len(paths))
    finally:
        for worker in pool:
            worker.stop()
    return [results[i] for i in range(len(paths))]


def build_drafts(scans: list[Path], out: Path, root: Path) -> tuple[str, list[str], bool]:
    """`cardkit build`'s OCR stage: every scan to `out`, overwriting (build/ is all output).

    Returns the report line, the drafts written (relative to out's parent) and whether a
    scan failed.
    """
    if not scans:
        return (
            "ocr: no scan images under scans/ (scans/samples is benchmark material, not read)",
            [],
            False,
        )
    settings = Settings(out, force=True, root=root)
    results = run(scans, settings, jobs=os.cpu_count() or 1)
    failed = [r for r in results if not r.ok]
    files = [Path(d["draft"]).relative_to(out.parent).as_posix() for r in results for d in r.drafts]
    line = f"ocr: {len(files)} drafts from {len(results)} scans in {out.name}/"
    line += "".join(f"\n  failed: {r.message}" for r in failed)
    return line, files, bool(failed)
