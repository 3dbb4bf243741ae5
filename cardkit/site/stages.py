"""The stages of a build after validate and gaps: re-read the rulebooks, draft the scans,
print the proofs and cut the thumbnails, each reused from the last build when its own
inputs (site/inputs.py) are unchanged."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit.errors import CardkitError
from cardkit.files import staging, yamlio
from cardkit.rulebook import importer
from cardkit.site.inputs import code_key, digest, inputs_under, rulebooks, scan_images


@dataclass
class BuildResult:
    lines: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    failed: bool = False
    up_to_date: bool = False
    warnings: list[str] = field(default_factory=list)  # the proofs' (text cut, glyph missing)


@dataclass
class Job:
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


def ocr_stage(job: Job) -> None:
    """Draft every scan image under scans/ into build/drafts (cardkit/ocr/batch.py)."""
    from cardkit.ocr import batch

    scans = scan_images(job.root)
    key = digest(code_key(job.inputs), inputs_under(job.inputs, "scans/"))
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


def import_stage(job: Job) -> list[str]:
    """Re-read each scans/*/*/rulebook.txt; an unreadable one is a finding and the rest go on."""
    summaries: list[str] = []
    reused = 0
    cards = job.root / "cards"
    for book in rulebooks(job.root):
        system, box = book.parts[-3], book.parts[-2]
        name = book.relative_to(job.root).as_posix()
        key = digest(
            code_key(job.inputs),
            job.inputs.get(name),
            inputs_under(job.inputs, f"cards/{system}/{box}/"),
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
    books = len(rulebooks(job.root))
    job.result.lines.append(
        f"import: {books - reused} of {books} rulebooks re-read from scans/ "
        f"({reused} unchanged), see {job.out / 'import.txt'}"
    )
    return summaries


def proof_stage(job: Job, documents: list[Any]) -> str | None:
    """proofs.pdf and a PNG of its first sheet; the preview's name, None when nothing prints."""
    from cardkit.render import content
    from cardkit.render.proof import ProofOptions, make_proof

    key = digest(
        code_key(job.inputs),
        inputs_under(job.inputs, "cards/"),
        inputs_under(job.inputs, "schemas:"),
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


def thumb_stage(job: Job, documents: list[Any]) -> list[Any]:
    """build/thumbs/: a PNG per card, cut from proofs.pdf; a card that did not change keeps
    the last build's file (its name is a hash of what it shows and the code)."""
    from cardkit.site import thumbs

    proofs = job.staged / "proofs.pdf"
    if not proofs.exists():
        return []
    code = code_key(job.inputs)
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


def _unconfirmed_proof(job: Job, documents: list[Any], files: list[str]) -> str:
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
