"""The main job over a repository: check cards/, list its gaps, re-read scans/, print proofs.

Writes build/validate.json, build/gaps.{json,md,csv}, build/checklist.csv (open gaps only),
build/import.txt, build/proofs.pdf (with a PNG of its first sheet) and build/index.html
over all of it; returns the report lines for the terminal and whether anything failed.

Whole and incremental:
- Everything is written into a staging folder that replaces `out` in one step at the
  end (cardkit.files.staging), so an interrupted build leaves the old outputs untouched.
- `out/.cardkit-build.json` records a fingerprint of the inputs (content hashes of
  cards/, schemas/, scans/*/*/rulebook.txt and the cardkit code). When nothing changed
  the build stops at once, "up to date". Otherwise validation and gaps run again
  (they are the cheap, cross-file part), while each rulebook re-read and the proofs are
  reused from the last build when their own inputs are unchanged.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardkit import __version__
from cardkit.check.validate import check
from cardkit.files import locks, staging, yamlio
from cardkit.gaps import rows as gaps
from cardkit.model import Severity, printable
from cardkit.report import RENDERERS, gaps_report
from cardkit.site.inputs import digest, fingerprint
from cardkit.site.stages import BuildResult, Job, import_stage, ocr_stage, proof_stage, thumb_stage

__all__ = ["MANIFEST", "BuildResult", "Progress", "fingerprint", "run"]

MANIFEST = ".cardkit-build.json"
Progress = Callable[[str], None]


def _read_manifest(out: Path) -> dict[str, Any]:
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _stages(job: Job, progress: Progress) -> None:
    cards = job.root / "cards"
    progress("validating cards/")
    report, documents = check([cards], context_root=cards)
    job.write("validate.json", RENDERERS["json"](report))
    job.result.lines.append("validate: " + RENDERERS["text"](report).splitlines()[-1])
    failing = sorted(
        (d for d in report.diagnostics if d.severity is Severity.ERROR),
        key=lambda d: (d.path, d.line, d.column),
    )
    for d in failing[:5]:  # name what failed, not just a count
        where = f"{printable(d.path)}:{d.line}:{d.column}"
        job.result.lines.append(f"  {where}: {d.code} {printable(d.message)}")
    if len(failing) > 5:
        job.result.lines.append(f"  ... {len(failing) - 5} more in {job.out / 'validate.json'}")
    job.result.failed |= report.errors > 0

    progress("listing gaps")
    rows = gaps.collect(documents, gaps.system_findings(report.diagnostics))
    for name, fmt in (("gaps.json", "json"), ("gaps.md", "markdown"), ("gaps.csv", "csv")):
        job.write(name, gaps_report.RENDERERS[fmt](rows, "box" if fmt == "markdown" else None))
    open_rows = [row for row in rows if row.status == "open"]
    job.write("checklist.csv", gaps_report.RENDERERS["csv"](open_rows, None))
    job.result.lines.append("gaps: " + gaps.summary(rows))

    progress("re-reading rulebooks")
    summaries = import_stage(job)
    progress("reading scans")
    ocr_stage(job)
    progress("printing proofs")
    preview = proof_stage(job, documents)
    progress("drawing card thumbnails")
    shown = thumb_stage(job, documents)
    progress("writing the report")
    from cardkit.site import html  # proofs and thumbnails: not loaded when up to date

    page = html.render(
        report,
        rows,
        summaries,
        "proofs.pdf" if preview else None,
        preview,
        thumbs=shown,
        link=lambda path: Path(os.path.relpath(job.root / path, job.out)).as_posix(),
    )
    job.write("index.html", page)


def run(
    root: Path,
    out: Path,
    *,
    progress: Progress | None = None,
    waiting: Callable[[int | None], Any] | None = None,
) -> BuildResult:
    """Build `out` from the repository at `root`; nothing is replaced until all is written.

    One build per output folder at a time: a second waits for the first (`waiting(pid)`
    is told once), under a lock on the folder holding `out` (files/locks.py); so one
    build never takes the other's staging folder for a dead run's leftovers."""
    out = staging.check_target(out, root)
    out.parent.mkdir(parents=True, exist_ok=True)
    with locks.exclusive(out.parent, f".{out.name}.lock", waiting):
        return _run_locked(root, out, progress)


def _run_locked(root: Path, out: Path, progress: Progress | None) -> BuildResult:
    staging.recover(out)
    inputs = fingerprint(root)
    before = _read_manifest(out)
    key = digest(inputs)
    if before.get("key") == key and all((out / n).exists() for n in before.get("outputs", [])):
        failed = bool(before.get("failed"))
        found = f"; it found problems, see {out / 'index.html'}" if failed else ""
        return BuildResult(
            lines=[f"up to date: nothing changed since the last build of {out}{found}"],
            failed=failed,
            up_to_date=True,
        )
    job = Job(root, out, staging.start(out), inputs, before)
    try:
        _stages(job, progress or (lambda _: None))
        manifest = {
            "key": key,
            "cardkit": __version__,
            "outputs": sorted(set(job.made)),
            "failed": job.result.failed,
            "stages": job.stages,
        }
        yamlio.atomic_write(job.staged / MANIFEST, json.dumps(manifest, indent=1) + "\n")
        staging.carry_foreign(out, job.staged, {*before.get("outputs", []), MANIFEST})
        staging.commit(job.staged, out)
    except BaseException:
        staging.abandon(job.staged)
        raise
    return job.result
