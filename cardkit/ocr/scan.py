"""One scan file read in this process: intake, read, draft, write; and its result.

`batch` runs many of these in worker processes (cardkit/ocr/workers.py).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit.errors import CardkitError
from cardkit.ocr.pipeline import Options


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
    skipped: list[str] = field(default_factory=list)  # drafts that exist, not read again


def draft_name(frame_name: str) -> str:
    return f"{frame_name}.yaml"


def process_scan(path: Path, settings: Settings) -> ScanResult:
    """Everything for one scan file, in this process: intake, read, draft, write."""
    from cardkit.files import atomic, yamlio
    from cardkit.ocr import draft, intake
    from cardkit.ocr.engine import make_engine
    from cardkit.ocr.pipeline import read_frame

    started, cpu = time.monotonic(), time.process_time()
    result = ScanResult(str(path), ok=True, worker=os.getpid())
    shown = str(path)
    if settings.root is not None and path.resolve().is_relative_to(settings.root.resolve()):
        shown = path.resolve().relative_to(settings.root.resolve()).as_posix()
    elif ".." in path.parts:  # `provenance.scan` never climbs: absolute, tied by its sha256
        shown = str(path.resolve())
    frames = intake.load(path)
    engine = make_engine(settings.engine, settings.language)
    version = engine.version()
    for frame in frames:
        target = settings.out / draft_name(frame.name)
        if target.exists() and not settings.force:
            result.skipped.append(str(target))  # a person's draft, maybe edited: left alone
            continue
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
        text = draft.render(document, shown)
        if settings.force:
            yamlio.atomic_write(target, text)
        else:
            try:  # checked again as it is written: a person may have saved it meanwhile
                atomic.create_new(target, text)
            except atomic.AlreadyThere:
                result.skipped.append(str(target))
                continue
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
