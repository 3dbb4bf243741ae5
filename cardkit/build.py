"""The main job over a repository: check cards/, list its gaps, re-read scans/, print proofs.

Writes build/validate.json, build/gaps.{json,md,csv}, build/import.txt, build/proofs.pdf
(with a PNG of its first sheet) and build/index.html over all of it; returns the report
lines for the terminal and whether anything failed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit import gaps, importer, yamlio
from cardkit.report import RENDERERS, gaps_report, html
from cardkit.validate import check


@dataclass
class BuildResult:
    lines: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    failed: bool = False


def _write(result: BuildResult, path: Path, text: str | bytes) -> None:
    yamlio.atomic_write(path, text)
    result.written.append(path)


def _proofs(result: BuildResult, documents: list[Any], out: Path) -> Path | None:
    """build/proofs.pdf and a PNG of its first sheet; None when nothing is printable."""
    from cardkit.render import content
    from cardkit.render.proof import ProofOptions, make_proof

    if not content.collect(documents):
        return None
    options = ProofOptions(backs=True, png=out, png_pages=1)
    proof = make_proof(documents, out / "proofs.pdf", options)
    result.written += [out / "proofs.pdf", *proof.pngs]
    sheets = -(-proof.cards // proof.per_sheet)
    result.lines.append(f"proof: {proof.cards} proxy cards on {sheets} A4 sheets")
    return proof.pngs[0] if proof.pngs else None


def run(root: Path, out: Path) -> BuildResult:
    result = BuildResult()
    out.mkdir(parents=True, exist_ok=True)
    cards = root / "cards"
    report, documents = check([cards], context_root=cards)
    _write(result, out / "validate.json", RENDERERS["json"](report))
    result.lines.append("validate: " + RENDERERS["text"](report).splitlines()[-1])
    result.failed |= report.errors > 0

    rows = gaps.collect(documents, gaps.system_findings(report.diagnostics))
    for name, fmt in (("gaps.json", "json"), ("gaps.md", "markdown"), ("gaps.csv", "csv")):
        _write(
            result,
            out / name,
            gaps_report.RENDERERS[fmt](rows, "box" if fmt == "markdown" else None),
        )
    result.lines.append("gaps: " + gaps.summary(rows))

    summaries = []
    for book in sorted((root / "scans").glob("*/*/rulebook.txt")):
        system, box = book.parts[-3], book.parts[-2]
        plan = importer.plan_import(book, cards / system / box, system=system, box=box)
        summaries.append(importer.summary(plan))
        summaries.extend(f"  unrepresented: {line}" for line in plan.unrepresented)
        result.failed |= bool(plan.unrepresented)
    _write(result, out / "import.txt", "\n".join(summaries) + "\n")
    result.lines.append(
        f"import: {len(summaries)} rulebooks re-read from scans/, see {out / 'import.txt'}"
    )
    preview = _proofs(result, documents, out)
    page = html.render(
        report,
        rows,
        summaries,
        "proofs.pdf" if preview else None,
        preview.name if preview else None,
    )
    _write(result, out / "index.html", page)
    return result
