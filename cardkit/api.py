"""cardkit as a library: the stable entry points the CLI itself calls.

Each function is a thin, typed door into one room of the tree (docs/architecture.md);
the rooms' own modules may change, these names and signatures do not without notice.
Imports are lazy, so `import cardkit.api` stays as cheap as the CLI's start.

    from pathlib import Path
    from cardkit import api

    report = api.validate([Path("cards")])
    for gap in api.gap_rows([Path("cards")]):
        print(gap.file, gap.address, gap.why)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardkit.confirm.edit import Outcome, Request
    from cardkit.gaps.rows import Gap
    from cardkit.model import Diagnostic, Document
    from cardkit.render.proof import ProofOptions, ProofResult
    from cardkit.report.findings import SpooledReport
    from cardkit.rulebook.importer import ImportResult
    from cardkit.site.build import BuildResult, Progress

__all__ = ["build", "confirm", "gap_rows", "import_rulebook", "load", "proof", "validate"]


def validate(paths: Sequence[Path], *, context_root: Path | None = None) -> SpooledReport:
    """Every card file under `paths` against its schema and the rules: the one validation
    entry point. Diagnostics wait on disk in order, so memory stays flat."""
    from cardkit.check.validate import report_paths

    return report_paths(paths, context_root=context_root)


def load(paths: Sequence[Path]) -> tuple[list[Document], list[Diagnostic]]:
    """The schema-valid documents under `paths`, and why the others were not read."""
    from cardkit.gaps.rows import load as load_documents

    return load_documents(list(paths))


def gap_rows(
    paths: Sequence[Path], on_problem: Callable[[Diagnostic], None] | None = None
) -> Iterator[Gap]:
    """Every gap row under `paths` (noted, unconfirmed, inferred), as each file is read;
    `on_problem` hears why a file is not read."""
    from cardkit.gaps.stream import stream

    return stream(paths, on_problem or (lambda _problem: None))


def confirm(plan: dict[Path, list[Request]]) -> list[Outcome]:
    """Apply confirmations to files, all or nothing, each file under its lock."""
    from cardkit.confirm.edit import confirm_files

    return confirm_files(plan)


def import_rulebook(
    path: Path, out: Path, *, system: str | None = None, box: str | None = None
) -> ImportResult:
    """A rulebook transcription read into documents (nothing written: see `write_import`)."""
    from cardkit.rulebook.importer import plan_import

    return plan_import(path, out, system=system, box=box)


def write_import(result: ImportResult, *, force: bool = False) -> list[Path]:
    """Write an import's files atomically, never over a file without `force`."""
    from cardkit.rulebook.importer import write

    return write(result, force=force)


def proof(documents: list[Document], out: Path, options: ProofOptions) -> ProofResult:
    """Proof sheets (PDF, optional PNGs) of the documents' cards."""
    from cardkit.render.proof import make_proof

    return make_proof(documents, out, options)


def build(
    root: Path,
    out: Path,
    *,
    progress: Progress | None = None,
    waiting: Callable[[int | None], Any] | None = None,
) -> BuildResult:
    """`cardkit build`: check, list gaps, re-read scans and print proofs into `out`; a
    second build of one `out` waits for the first (`waiting(pid)` is told once)."""
    from cardkit.site.build import run

    return run(root, out, progress=progress, waiting=waiting)
