"""build: the main job over a repository."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli._app import app
from cardkit.errors import CardkitError, ExitCode


def _progress(stage: str) -> None:
    """One status line on a terminal, rewritten in place; nothing in a pipe."""
    sys.stderr.write(f"\r\x1b[Kbuild: {stage}...")
    sys.stderr.flush()


def _waiting(out: Path) -> Callable[[int | None], None]:
    def say(pid: int | None) -> None:
        by = f" (process {pid})" if pid else ""
        sys.stderr.write(
            f"cardkit: another cardkit build is writing {out}{by}; waiting for it to finish\n"
        )
        sys.stderr.flush()

    return say


@app.command()
def build(
    out: Annotated[Path, typer.Option(help="Output folder.")] = Path("build"),
) -> None:
    """The main job over this repository: validate, list gaps, re-read scans/, print proofs.

    Writes build/validate.json, build/gaps.json, build/gaps.md, build/gaps.csv (every gap),
    build/checklist.csv (open gaps: a checklist for confirm --batch), build/import.txt,
    build/proofs.pdf (A4, duplex backs), build/unconfirmed.pdf (cards with values still to
    check), build/drafts/ (OCR of scans/), build/thumbs/ (a PNG per card) and
    build/index.html (the gaps filtered by box, group (as each game groups its documents:
    a villain), field, origin or text, and the cards' thumbnails; it works offline, from
    the file). The new outputs replace the
    old ones in one step at the end, so an interrupted build leaves the last one whole.
    A second build with nothing changed says "up to date" and stops. Exit 1 on validation
    errors or on a rulebook line that no document holds, after writing everything it could.
    """
    from cardkit import api

    if not Path("cards").is_dir():
        raise CardkitError("no cards/ folder here; run cardkit build from the repository root")
    terminal = sys.stderr.isatty()
    try:
        result = api.build(
            Path("."), out, progress=_progress if terminal else None, waiting=_waiting(out)
        )
    finally:
        if terminal:
            sys.stderr.write("\r\x1b[K")
    for warning in result.warnings:  # as `cardkit proof` prints them
        sys.stderr.write(f"warning: {warning}\n")
    for line in result.lines:
        sys.stdout.write(line + "\n")
    if result.written:
        sys.stdout.write(f"wrote {', '.join(str(p) for p in result.written)}\n")
    raise typer.Exit(ExitCode.FINDINGS if result.failed else ExitCode.OK)
