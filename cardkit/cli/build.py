"""build: the main job over a repository."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli._app import app
from cardkit.errors import CardkitError, ExitCode


@app.command()
def build(
    out: Annotated[Path, typer.Option(help="Output folder.")] = Path("build"),
) -> None:
    """The main job over this repository: validate, list gaps, re-read scans/, print proofs.

    Writes build/validate.json, build/gaps.json, build/gaps.md, build/gaps.csv (a
    checklist for confirm --batch), build/import.txt and build/proofs.pdf (A4, duplex
    backs). Exit 1 on validation errors or on a rulebook line that no document holds.
    """
    from cardkit.build import run

    if not Path("cards").is_dir():
        raise CardkitError("no cards/ folder here; run cardkit build from the repository root")
    result = run(Path("."), out)
    for line in result.lines:
        sys.stdout.write(line + "\n")
    sys.stdout.write(f"wrote {', '.join(str(p) for p in result.written)}\n")
    raise typer.Exit(ExitCode.FINDINGS if result.failed else ExitCode.OK)
