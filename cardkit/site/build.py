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

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit import __version__
from cardkit.check.validate import check, collect_files
from cardkit.errors import CardkitError
from cardkit.files import locks, staging, yamlio
from cardkit.gaps import rows as gaps
from cardkit.model import Severity, printable
from cardkit.report import RENDERERS, gaps_report
from cardkit.rulebook import importer

MANIFEST = ".cardkit-build.json"
Progress = Callable[[str], None]


@dataclass
class BuildResult:
    lines: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    failed: bool = False
    up_to_date: bool = False
    warnings: list[str] = field(default_factory=list)  # the proofs' (text cut, glyph missing)


@dataclass
class _Job:
    """One build in progress: where it writes, what the last build left, what it reuses."""

    root: Path
    out: Path
    staged: Path
    inputs: dict[str, str]
    before: dict[str, Any]
    result: BuildResult = field(default_factory=BuildResult)
    made: list[str] = field(default_factory=list)
    stages: dict[str, Any] = field(default_factory=dict)

    def write(self, name: str, text: str | bytes) -> None:
        yamlio.atomic_write(self.staged / name, text)
        self.made.append(name)
        self.result.written.append(self.out / name)

    def reuse(self, stage: str, key: str) -> dict[str, Any] | None:
        """The last build's record of a stage, when its key matches and its files are there."""
        record = self.before.get("stages", {}).get(stage)
        if not isinstance(record, dict) or record.get("key") != key:
            return None
        files = record.get("files", [])
        if not all((self.out / name).exists() for name in files):
            return None
        staging.carry(self.out, self.staged, files)
        self.made.extend(files)
        self.result.written.extend(self.out / name for name in files)
        return record


def _digest(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def _hash_file(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as err:
        return f"unreadable: {err.strerror}"


def _code_fingerprint() -> str:
    """cardkit's version and the size and time of every file of its code and data."""
    package = Path(__file__).resolve().parent
    stats = sorted(
        (p.relative_to(package).as_posix(), p.stat().st_size, p.stat().st_mtime_ns)
        for p in package.rglob("*")
        if p.suffix in (".py", ".yaml", ".json", ".ttf") and p.is_file()
    )
    return _digest(__version__, stats)


def _plugin_files() -> dict[str, str]:
    """Content hashes of the game systems that live outside cardkit (entry points,
    CARDKIT_SYSTEMS): every code and data file of their package, its `schemas/` folder
    included. Found without importing them, so an up-to-date build stays quick."""
    import importlib.util

    from cardkit import systems

    package = Path(__file__).resolve().parent
    found: dict[str, str] = {}
    for name in systems.module_names():
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is None or spec.origin is None:
            found[f"system:{name}"] = "not found"  # the build names the problem itself
            continue
        origin = Path(spec.origin).resolve()
        if origin.is_relative_to(package):
            continue
        home = origin.parent
        files = sorted(home.rglob("*")) if spec.submodule_search_locations else [origin]
        for path in files:
            if path.suffix in (".py", ".yaml", ".yml", ".json", ".ttf") and path.is_file():
                found[f"system:{name}:{path.relative_to(home).as_posix()}"] = _hash_file(path)
    return found


def fingerprint(root: Path) -> dict[str, str]:
    """Content hash of every input, by path relative to the repository."""
    from cardkit.schemas import registry as schemas

    found: dict[str, str] = {"cardkit": _code_fingerprint(), **_plugin_files()}
    cards = root / "cards"
    for path in collect_files([cards]) if cards.is_dir() else []:
        found[path.relative_to(root).as_posix()] = _hash_file(path)
    for path in sorted(schemas.schema_dir().rglob("*.schema.json")):
        found[f"schemas:{path.relative_to(schemas.schema_dir()).as_posix()}"] = _hash_file(path)
    for path in _rulebooks(root):
        found[path.relative_to(root).as_posix()] = _hash_file(path)
    for path in _scan_images(root):
        found[path.relative_to(root).as_posix()] = _hash_file(path)
    return found


def _scan_images(root: Path) -> list[Path]:
    """Source scans: images under scans/, less scans/samples (the OCR benchmark's set)."""
    from cardkit.ocr.scanfiles import scan_paths

    scans = root / "scans"
    found = scan_paths([scans]) if scans.is_dir() else []
    return [p for p in found if p.relative_to(scans).parts[0] != "samples"]


def _ocr_stage(job: _Job) -> None:
    """Draft every scan image under scans/ into build/drafts (cardkit/ocr/batch.py)."""
    from cardkit.ocr import batch

    scans = _scan_images(job.root)
    key = _digest(_code(job.inputs), _inputs_under(job.inputs, "scans/"))
    record = job.reuse("ocr", key)
    if record is None:
        line, files, failed = batch.build_drafts(scans, job.staged / "drafts", job.root)
        record = {"key": key, "files": ["drafts"] if files else [], "line": line}
        record["failed"] = failed
        job.made.extend(record["files"])
        job.result.written.extend(job.out / name for name in record["files"])
    job.stages["ocr"] = record
    job.result.lines.append(record["line"])
    job.result.failed |= bool(record["failed"])


def _rulebooks(root: Path) -> list[Path]:
    return sorted((root / "scans").glob("*/*/rulebook.txt"))


def _read_manifest(out: Path) -> dict[str, Any]:
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _inputs_under(inputs: dict[str, str], prefix: str) -> dict[str, str]:
    return {k: v for k, v in inputs.items() if k.startswith(prefix)}


def _code(inputs: dict[str, str]) -> str:
    """What every stage depends on: cardkit's code and the plugin systems' code and schemas."""
    return _digest(inputs["cardkit"], _inputs_under(inputs, "system:"))


def _import_stage(job: _Job) -> list[str]:
    """Re-read each scans/*/*/rulebook.txt; an unreadable one is a finding and the rest go on."""
    summaries: list[str] = []
    reused = 0
    cards = job.root / "cards"
    for book in _rulebooks(job.root):
        system, box = book.parts[-3], book.parts[-2]
        name = book.relative_to(job.root).as_posix()
        key = _digest(
            _code(job.inputs),
            job.inputs.get(name),
            _inputs_under(job.inputs, f"cards/{system}/{box}/"),
        )
        record = job.reuse(f"import:{name}", key)
        reused += record is not None
        if record is None:
            try:
                plan = importer.plan_import(book, cards / system / box, system=system, box=box)
                lines = [importer.summary(plan)]
                lines += [f"  unrepresented: {line}" for line in plan.unrepresented]
                failed = bool(plan.unrepresented)
            except CardkitError as err:
                lines, failed = [f"{system} / {box}: not read: {err}"], True
            record = {"key": key, "lines": lines, "failed": failed, "files": []}
        job.stages[f"import:{name}"] = record
        summaries.extend(record["lines"])
        job.result.failed |= bool(record["failed"])
    job.write("import.txt", "\n".join(summaries) + "\n")
    books = len(_rulebooks(job.root))
    job.result.lines.append(
        f"import: {books - reused} of {books} rulebooks re-read from scans/ "
        f"({reused} unchanged), see {job.out / 'import.txt'}"
    )
    return summaries


def _proof_stage(job: _Job, documents: list[Any]) -> str | None:
    """proofs.pdf and a PNG of its first sheet; the preview's name, None when nothing prints."""
    from cardkit.render import content
    from cardkit.render.proof import ProofOptions, make_proof

    key = _digest(
        _code(job.inputs),
        _inputs_under(job.inputs, "cards/"),
        _inputs_under(job.inputs, "schemas:"),
    )
    record = job.reuse("proofs", key)
    note = " (unchanged)" if record else ""
    if record is None:
        record = {"key": key, "files": [], "line": None, "preview": None}
        if content.collect(documents):
            options = ProofOptions(backs=True, png=job.staged, png_pages=1)
            try:
                proof = make_proof(documents, job.staged / "proofs.pdf", options)
            except CardkitError as err:
                record["line"] = f"proof: not printed: {err}"
                job.result.failed = True
            else:
                sheets = -(-proof.cards // proof.per_sheet)
                record["files"] = ["proofs.pdf", *(p.name for p in proof.pngs)]
                record["line"] = f"proof: {proof.cards} proxy cards on {sheets} A4 sheets"
                record["preview"] = proof.pngs[0].name if proof.pngs else None
                record["warnings"] = proof.warnings
                record["line"] += _unconfirmed_proof(job, documents, record["files"])
                job.made.extend(record["files"])
                job.result.written.extend(job.out / n for n in record["files"])
    job.stages["proofs"] = record
    job.result.warnings += record.get("warnings", [])
    if record["line"]:
        job.result.lines.append(record["line"] + note)
    return record["preview"] if record["files"] else None


def _thumb_stage(job: _Job, documents: list[Any]) -> list[Any]:
    """build/thumbs/: a PNG per card, cut from proofs.pdf; a card that did not change keeps
    the last build's file (its name is a hash of what it shows and the code)."""
    from cardkit.site import thumbs

    proofs = job.staged / "proofs.pdf"
    if not proofs.exists():
        return []
    code = _code(job.inputs)
    cards = thumbs.plan(documents, code)
    names = sorted({card.name for card in cards})
    (job.staged / thumbs.FOLDER).mkdir(exist_ok=True)
    kept = [n for n in names if (job.out / thumbs.FOLDER / n).is_file()]
    staging.carry(job.out, job.staged, [f"{thumbs.FOLDER}/{n}" for n in kept])
    missing = set(names) - set(kept)
    drawn = thumbs.draw(proofs, documents, missing, code, job.staged / thumbs.FOLDER)
    job.made.append(thumbs.FOLDER)
    job.result.written.append(job.out / thumbs.FOLDER)
    job.result.lines.append(
        f"thumbs: {len(names)} card thumbnails ({len(drawn)} drawn, {len(kept)} unchanged)"
    )
    return cards


def _unconfirmed_proof(job: _Job, documents: list[Any], files: list[str]) -> str:
    """unconfirmed.pdf: only the cards with a value still to check, to print and hold up
    against the real cards. Adds its name to files; returns the words for the report line."""
    from cardkit.render import content
    from cardkit.render.proof import ProofOptions, make_proof

    options = ProofOptions(backs=True, selection=content.Selection(only_unconfirmed=True))
    try:
        proof = make_proof(documents, job.staged / "unconfirmed.pdf", options)
    except CardkitError as err:  # no card is unconfirmed, or it cannot print: not a failure
        return f"; unconfirmed.pdf not printed ({err})"
    files.append("unconfirmed.pdf")
    return f"; {proof.cards} with unconfirmed values in unconfirmed.pdf"


def _stages(job: _Job, progress: Progress) -> None:
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
    summaries = _import_stage(job)
    progress("reading scans")
    _ocr_stage(job)
    progress("printing proofs")
    preview = _proof_stage(job, documents)
    progress("drawing card thumbnails")
    shown = _thumb_stage(job, documents)
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
    key = _digest(inputs)
    if before.get("key") == key and all((out / n).exists() for n in before.get("outputs", [])):
        failed = bool(before.get("failed"))
        found = f"; it found problems, see {out / 'index.html'}" if failed else ""
        return BuildResult(
            lines=[f"up to date: nothing changed since the last build of {out}{found}"],
            failed=failed,
            up_to_date=True,
        )
    job = _Job(root, out, staging.start(out), inputs, before)
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
