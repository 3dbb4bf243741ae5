"""A batch of scans: one worker process per scan, N at a time, each with a timeout.

A scan that fails (unreadable file, engine crash, timeout) fails alone: the others
finish, and the result says which failed and why in one line each. Workers run with
OMP_THREAD_LIMIT=1 so N workers use N cores, not N x tesseract's threads. Drafts are
written atomically (temporary file, fsync, rename): a killed batch leaves whole drafts
or none, never half of one.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
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


def draft_name(frame_name: str) -> str:
    return f"{frame_name}.yaml"


def process_scan(path: Path, settings: Settings) -> ScanResult:
    """Everything for one scan file, in this process: intake, read, draft, write."""
    from cardkit import yamlio
    from cardkit.ocr import draft, intake
    from cardkit.ocr.engine import make_engine
    from cardkit.ocr.pipeline import read_frame

    started = time.monotonic()
    result = ScanResult(str(path), ok=True)
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
    return result


def _worker(path: Path, settings: Settings, conn: Connection) -> None:
    os.environ["OMP_THREAD_LIMIT"] = "1"
    try:
        result = process_scan(path, settings)
    except CardkitError as err:
        result = ScanResult(str(path), False, str(err))
    except Exception as err:  # an engine or pipeline bug: this scan fails, the batch goes on
        result = ScanResult(str(path), False, f"{path}: {type(err).__name__}: {err}")
    conn.send(result)
    conn.close()


def run(
    paths: list[Path],
    settings: Settings,
    *,
    jobs: int = 1,
    timeout: float = TIMEOUT,
    progress: Callable[[ScanResult, int, int], None] | None = None,
) -> list[ScanResult]:
    """Every scan in its own process, `jobs` at a time; results in the order of `paths`."""
    settings.out.mkdir(parents=True, exist_ok=True)
    os.environ["OMP_THREAD_LIMIT"] = "1"
    context = multiprocessing.get_context("fork")
    pending = list(enumerate(paths))
    running: dict[int, tuple[Any, Connection, float, Path]] = {}
    results: dict[int, ScanResult] = {}
    jobs = max(1, jobs)
    while pending or running:
        while pending and len(running) < jobs:
            index, path = pending.pop(0)
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=_worker, args=(path, settings, send), daemon=True)
            process.start()
            send.close()
            running[index] = (process, receive, time.monotonic(), path)
        done = []
        for index, (process, receive, started, path) in running.items():
            result = None
            if receive.poll():
                try:
                    result = receive.recv()
                except EOFError:
                    result = ScanResult(str(path), False, f"{path}: worker died")
            elif not process.is_alive():
                result = ScanResult(str(path), False, f"{path}: worker died ({process.exitcode})")
            elif time.monotonic() - started > timeout:
                process.kill()
                result = ScanResult(str(path), False, f"{path}: timed out after {timeout:g} s")
            if result is not None:
                process.join(timeout=5)
                receive.close()
                results[index] = result
                done.append(index)
                if progress:
                    progress(result, len(results), len(paths))
        for index in done:
            del running[index]
        if not done:
            time.sleep(0.02)
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
