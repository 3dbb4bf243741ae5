"""A batch of scans: N worker processes read them, each scan with a timeout.

A scan that fails (unreadable file, engine crash, timeout) fails alone: the others
finish, and the result says which failed and why in one line each. Workers run with
OMP_THREAD_LIMIT=1 so N workers use N cores, not N x tesseract's threads. Drafts are
written atomically (temporary file, fsync, rename): a killed batch leaves whole drafts
or none, never half of one.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardkit.ocr.pipeline import Options
from cardkit.ocr.scan import ScanResult, Settings, draft_name, process_scan, scan_once
from cardkit.ocr.scanfiles import sharing_a_draft
from cardkit.ocr.workers import Worker, wait

__all__ = ["ScanResult", "Settings", "draft_name", "process_scan", "run", "scan_once", "warm"]

TIMEOUT = 120.0  # seconds per scan


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
    chosen systems' templates, their readers and schemas, and tesseract's model. Workers are
    forked from this process and inherit all of it; each scan then pays for its own reading
    only. An optimisation, never a failure: what breaks here breaks the scans that need it,
    each alone and saying why."""
    import cv2

    cv2.setNumThreads(1)  # a worker is one core; and no thread pool is forked with the parent
    with contextlib.suppress(Exception):
        _load_templates(settings.options.systems)
    with contextlib.suppress(Exception):
        _walk_blank_card(settings.options)
    with contextlib.suppress(Exception):  # each scan reports it (the CLI probed already)
        from cardkit.ocr.engine import make_engine

        make_engine(settings.engine, settings.language).version()


def _load_templates(systems: tuple[str, ...]) -> None:
    from cardkit.ocr import layout
    from cardkit.schemas import registry as schemas

    for name, templates in layout.template_sets().items():
        if systems and name not in systems:
            continue
        for template in templates.templates:
            if template.kind in schemas.kinds():
                schemas.detailed_validator(template.kind)
            for region in template.regions:
                if region.reader != "text":
                    layout.reader(region.reader)


def _walk_blank_card(options: Options) -> None:
    """A blank card through the pipeline and the draft writer, with an engine that reads
    nothing: the first calls into OpenCV, numpy, jsonschema and ruamel are made here."""
    from PIL import Image

    from cardkit.ocr import draft, intake, pipeline

    blank = Image.new("RGB", (250, 350), (255, 255, 255))
    frame = intake.Frame("warm-up", Path("warm-up.png"), "", blank, None)
    read = pipeline.read_frame(frame, _ReadsNothing(), options)
    document = draft.build(
        read, scan="warm-up.png", engine="none", engine_version="0", language="", options=options
    )
    draft.render(document, "warm-up.png")


def workers_for(scans: int, jobs: int = 0) -> int:
    """How many workers a batch starts: `jobs` (0: every core), never more than the cores
    (a worker reads on one core; more only share them) nor than the scans."""
    cores = os.cpu_count() or 1
    return max(1, min(jobs or cores, cores, scans))


def run(
    paths: list[Path],
    settings: Settings,
    *,
    jobs: int = 1,
    timeout: float = TIMEOUT,
    progress: Callable[[ScanResult, int, int], None] | None = None,
) -> list[ScanResult]:
    """Every scan read by one of `jobs` worker processes; results in the order of `paths`."""
    settings.out.mkdir(parents=True, exist_ok=True)
    os.environ["OMP_THREAD_LIMIT"] = "1"
    warm(settings)
    context = multiprocessing.get_context("fork")
    results: dict[int, ScanResult] = {}
    for index, others in sharing_a_draft(paths).items():
        path = paths[index]
        results[index] = ScanResult(
            str(path),
            False,
            f"{path}: its draft {settings.out / draft_name(path.stem)} would also be that of "
            f"{', '.join(map(str, others))}: rename one, or read them into separate --out folders",
        )
    pending = [(i, p) for i, p in enumerate(paths) if i not in results]
    pool: list[Worker] = []
    refused = 0  # scans handed to workers that had died since their last scan, in a row
    completed = False
    try:
        while pending or any(w.busy for w in pool):
            pool = [w for w in pool if not w.dead]  # crashed or killed: replaced below
            idle = [w for w in pool if not w.busy]
            while pending and len(pool) < max(1, min(jobs, len(paths))):
                pool.append(Worker(context, settings))
                idle.append(pool[-1])
            for worker in idle:
                if not pending:
                    break
                if worker.give(*pending[0]):
                    pending.pop(0)
                    refused = 0
                elif (refused := refused + 1) > 3:  # workers die before reading anything
                    index, path = pending.pop(0)
                    results[index] = ScanResult(str(path), False, f"{path}: no worker took it")
            wait(pool)
            for worker in pool:
                done = worker.collect(timeout)
                if done is None:
                    continue
                results[done[0]] = done[1]
                if progress:
                    progress(done[1], len(results), len(paths))
        completed = True
    finally:  # an interrupted batch kills its workers mid-scan; drafts are whole or absent
        for worker in pool:
            worker.stop(now=not completed)
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
    results = run(scans, settings, jobs=workers_for(len(scans)))
    failed = [r for r in results if not r.ok]
    files = [Path(d["draft"]).relative_to(out.parent).as_posix() for r in results for d in r.drafts]
    line = f"ocr: {len(files)} drafts from {len(results)} scans in {out.name}/"
    line += "".join(f"\n  failed: {r.message}" for r in failed)
    return line, files, bool(failed)
