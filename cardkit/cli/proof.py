"""proof: printable proxy sheets."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli._app import app, default_paths, report_skipped


class Flip(StrEnum):
    long = "long"
    short = "short"


@app.command()
def proof(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Files or folders (default: cards/).", show_default=False),
    ] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="The PDF to write.")] = Path(
        "build/proofs.pdf"
    ),
    paper: Annotated[str, typer.Option(help="a4, letter or a3 (render/formats.yaml).")] = "a4",
    bleed: Annotated[str, typer.Option(help="Bleed around each card: 0mm, 3mm, 0.125in.")] = "0mm",
    backs: Annotated[
        bool, typer.Option("--backs", help="Add a back page after each sheet, for duplex printing.")
    ] = False,
    flip: Annotated[Flip, typer.Option(help="Which edge the printer flips on.")] = Flip.long,
    back_offset: Annotated[
        str, typer.Option(help="Shift the backs to fix misregistration: 0.5mm,0mm.")
    ] = "0mm,0mm",
    alignment: Annotated[
        bool, typer.Option("--alignment", help="Write a duplex alignment test sheet instead.")
    ] = False,
    png: Annotated[
        Path | None, typer.Option(help="Also write each page as a PNG into this folder.")
    ] = None,
) -> None:
    """Render proxy cards as printable PDF proof sheets.

    Cards sit in a centred grid with crop marks outside the bleed and a 100 mm ruler on
    every sheet; unconfirmed values are marked in red. --backs adds duplex backs placed
    for a long- or short-edge flip; --alignment prints a test sheet to measure --back-offset.
    """
    from cardkit import gaps as gap_core
    from cardkit.render.proof import ProofOptions, make_proof

    documents, problems = gap_core.load(default_paths(paths))
    report_skipped(problems)
    options = ProofOptions(paper, bleed, backs, flip.value, back_offset, alignment, png)
    result = make_proof(documents, out, options)
    what = "alignment sheet" if alignment else f"{result.cards} cards, {result.per_sheet} per sheet"
    pngs = f", {len(result.pngs)} PNG pages in {png}" if png else ""
    sys.stdout.write(f"wrote {out}: {what}{pngs}\n")
