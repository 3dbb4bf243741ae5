"""proof: printable proxy sheets."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli import complete
from cardkit.cli._app import PathsArg, app, default_paths, report_skipped
from cardkit.cli.choose import BoxesOpt, IdsOpt, KindsOpt
from cardkit.errors import ExitCode


class Flip(StrEnum):
    long = "long"
    short = "short"


class Only(StrEnum):
    unconfirmed = "unconfirmed"


@app.command()
def proof(
    paths: PathsArg = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="The PDF to write.")] = Path(
        "build/proofs.pdf"
    ),
    paper: Annotated[
        str,
        typer.Option(
            help="a4, letter, a3 (any case) or a size such as 210mmx297mm.",
            autocompletion=complete.papers,
        ),
    ] = "a4",
    bleed: Annotated[str, typer.Option(help="Bleed around each card: 0mm, 3mm, 0.125in.")] = "0mm",
    margin: Annotated[
        str | None,
        typer.Option(
            help="Nothing is drawn this close to the paper's edge (the printer's unprintable "
            "band). Default 0.25in.",
            show_default=False,
        ),
    ] = None,
    gutter: Annotated[
        str | None,
        typer.Option(
            help="Space between cards: 0mm shares cut lines (bleed on the outer edges only). "
            "Default: each card keeps its bleed, unless sharing cut lines fits more cards.",
            show_default=False,
        ),
    ] = None,
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
    png_dpi: Annotated[int, typer.Option(help="Resolution of the PNG pages (36-600).")] = 100,
    only: Annotated[
        Only | None,
        typer.Option(help="unconfirmed: just the cards with open gaps, to check against a box."),
    ] = None,
    card_id: IdsOpt = None,
    kind: KindsOpt = None,
    box: BoxesOpt = None,
    from_scans: Annotated[
        bool,
        typer.Option(
            "--from-scans",
            help="Print a card from its own image (provenance.scan) when it names one.",
        ),
    ] = False,
) -> None:
    """Render proxy cards as printable PDF proof sheets.

    Cards sit in a centred grid (9 poker cards on A4, 6 on Letter), nothing drawn within
    --margin of the edge, crop marks outside the bleed and a 100 mm ruler on every
    sheet; icons are vector drawings with a legend; unconfirmed values are marked in red.
    Each kind prints at its size (render/formats.yaml). --backs adds duplex backs placed
    for a long- or short-edge flip; --alignment prints a test sheet to measure
    --back-offset. Selections combine. A sheet holding fewer cards than its paper says why.
    Warnings (text that does not fit, characters the font lacks) name the card on stderr.
    """
    from cardkit.gaps import rows as gap_core
    from cardkit.render.content import Selection
    from cardkit.render.proof import ProofOptions, make_proof

    documents, problems = gap_core.load(default_paths(paths))
    report_skipped(problems)
    selection = Selection(
        only_unconfirmed=only is Only.unconfirmed,
        ids=tuple(card_id or ()),
        kinds=tuple(kind or ()),
        boxes=tuple(box or ()),
    )
    options = ProofOptions(
        paper,
        bleed,
        backs,
        flip.value,
        back_offset,
        alignment,
        png,
        gutter=gutter,
        png_dpi=png_dpi,
        selection=selection,
        from_scans=from_scans,
        margin=margin,
    )
    result = make_proof(documents, out, options)
    for warning in [*result.shortfalls, *result.warnings]:
        sys.stderr.write(f"warning: {warning}\n")
    count = f"{result.cards} card{'' if result.cards == 1 else 's'}"
    what = "alignment sheet" if alignment else f"{count}, {result.per_sheet} per sheet"
    pngs = f", {len(result.pngs)} PNG pages in {png}" if png else ""
    skipped = f"; {len(problems)} file(s) skipped" if problems else ""
    if result.cards or alignment:
        sys.stdout.write(f"wrote {out}: {what}{pngs}{skipped}\n")
    for form in result.forms:
        sys.stdout.write(f"wrote {form}: a fillable form\n")
    if problems:  # a skipped file is cards not printed: not all the work was done
        raise typer.Exit(ExitCode.FINDINGS)
