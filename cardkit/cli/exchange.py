"""exchange: cardkit's data to and from other tools: Tabletop Simulator decks, CSV, and the
formats each game brings through its CLI face (`cardkit/games/<game>/cli.py`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardkit.cli import complete
from cardkit.cli._app import PathsArg, default_paths, export_app, report_skipped
from cardkit.cli.choose import BoxesOpt, IdsOpt, KindsOpt
from cardkit.errors import ExitCode, UsageError

if TYPE_CHECKING:  # the contract, for types only: not loaded at every start
    from cardkit.plugin import ImportVerb


def documents_of(paths: list[Path] | None) -> tuple[list, int]:  # type: ignore[type-arg]
    """The documents, and how many files were skipped (each named on stderr)."""
    from cardkit.gaps import rows as gap_core

    documents, problems = gap_core.load(default_paths(paths))
    report_skipped(problems)
    return documents, len(problems)


def skipped_note(skipped: int) -> str:
    return f"; {skipped} file(s) skipped" if skipped else ""


def exit_if_skipped(skipped: int) -> None:
    """A skipped file is cards not exported: the run is not all done, so it exits 1."""
    if skipped:
        raise typer.Exit(ExitCode.FINDINGS)


# `cardkit import WORD FILE...` verbs that games bring (`import marvelsdb`), by word.
IMPORT_FORMATS: dict[str, ImportVerb] = {}


def _add_game_faces() -> None:
    """Each game's CLI face (`<game>/cli.py`, `register(formats, export_app)`) adds its
    exchange verbs; only those modules are imported, not the games' rules."""
    import importlib
    import importlib.util

    from cardkit import systems

    for name in systems.module_names():
        try:
            found = importlib.util.find_spec(f"{name}.cli")
        except ImportError:
            continue  # a plug-in that cannot be imported is named when it loads
        if found is not None:
            importlib.import_module(f"{name}.cli").register(IMPORT_FORMATS, export_app)


_add_game_faces()


@export_app.command("tts")
def export_tts(
    paths: PathsArg = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for sheets and JSON.")] = Path(
        "build/tts"
    ),
    base_url: Annotated[
        str | None,
        typer.Option(help="Where the images will be hosted (default: local file:// URLs)."),
    ] = None,
    deck: Annotated[
        list[str] | None,
        typer.Option(metavar="TEXT", help="Only decks whose name contains this (repeatable)."),
    ] = None,
) -> None:
    """Write Tabletop Simulator decks: 10 x 7 deck sheets, a back and a saved object each.

    One deck per deck of proof cards (a villain's master plan, a threat deck, a
    decklist). A card whose `back_link` names another card in the deck shows that card
    on its back. Copy the JSON into TTS's Saved Objects folder; its cards point at the
    sheet images by URL (--base-url once you upload them).
    """
    from cardkit.exchange import tts_files
    from cardkit.render import content

    documents, skipped = documents_of(paths)
    cards = content.collect(documents)
    for part in deck or ():
        if not any(part.lower() in c.deck.lower() for c in cards):
            decks = sorted({c.deck for c in cards})
            shown = ", ".join(decks[:4]) + (f"... ({len(decks)} in all)" if len(decks) > 4 else "")
            raise UsageError(f"--deck {part} matches no deck here; decks: {shown}")
    if deck:
        cards = [c for c in cards if any(part.lower() in c.deck.lower() for part in deck)]
    if not cards:
        raise UsageError("no printable cards in those files")
    written = tts_files.export(cards, out, base_url=base_url, links=tts_files.back_links(documents))
    sheets = sum(len(d.sheets) for d in written)
    total = sum(d.cards for d in written)
    sys.stdout.write(
        f"wrote {len(written)} decks to {out}: {total} cards on {sheets} sheets"
        f"{skipped_note(skipped)}\n"
    )
    exit_if_skipped(skipped)


@export_app.command("csv")
def export_csv(
    paths: PathsArg = None,
    kind: Annotated[
        list[str] | None,
        typer.Option(
            metavar="KIND",
            help="Only this kind: marvel-united/villain, or a short name such as hero.",
            autocompletion=complete.document_kinds,
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Folder for one <kind>.csv each (default: stdout)."),
    ] = None,
    raw_cells: Annotated[
        bool,
        typer.Option(
            "--raw-cells",
            help="Write cells as they are, even those a spreadsheet would run as a formula.",
        ),
    ] = False,
) -> None:
    """Write cards as CSV for template tools (Squib, nanDECK): a row per card, icons as {token}.

    Without --out, one kind must be chosen and its CSV goes to stdout. A cell starting
    with = + - @, a tab or a carriage return gets a leading ' so a spreadsheet shows it
    rather than running it (plain numbers stay); --raw-cells writes them as they are.
    """
    from cardkit.exchange import csv_export
    from cardkit.files import yamlio

    documents, skipped = documents_of(paths)
    grouped = csv_export.by_kind(d.data for d in documents)
    if kind:
        grouped = csv_export.choose_kinds(grouped, kind)
    if not grouped:
        raise UsageError("no readable card files here to export")
    if out is None:
        if len(grouped) != 1:
            raise UsageError(
                f"{len(grouped)} kinds here ({', '.join(grouped)}): choose one with --kind, "
                "or give --out DIR for a file per kind"
            )
        sys.stdout.write(csv_export.to_csv(next(iter(grouped.values())), raw=raw_cells))
        exit_if_skipped(skipped)
        return
    out.mkdir(parents=True, exist_ok=True)
    for name, documents in grouped.items():
        yamlio.atomic_write(
            out / f"{name.replace('/', '-')}.csv", csv_export.to_csv(documents, raw=raw_cells)
        )
    sys.stdout.write(f"wrote {len(grouped)} CSV files to {out}{skipped_note(skipped)}\n")
    exit_if_skipped(skipped)


@export_app.command("images")
def export_images(
    paths: PathsArg = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the PNGs.")] = Path(
        "build/images"
    ),
    dpi: Annotated[int, typer.Option(help="Resolution, 72-1200.")] = 300,
    bleed: Annotated[
        str, typer.Option(help="Bleed around each face: 3mm, 0.125in (0.12in: 822 x 1122).")
    ] = "0mm",
    backs: Annotated[
        bool, typer.Option("--backs", help="Also each card's back (its other side or deck back).")
    ] = False,
    card_id: IdsOpt = None,
    kind: KindsOpt = None,
    box: BoxesOpt = None,
) -> None:
    """Write one PNG per card face, at its size plus bleed, and a manifest.csv.

    The faces are the proof sheets' own cards, painted alone: a poker card with 1/8 in
    bleed at 300 dpi is 825 x 1125 px. Copies share a file; manifest.csv lists file,
    card, face (front/back) and copies, for print-on-demand services and proxy tools.
    """
    from cardkit.exchange import images
    from cardkit.render import content
    from cardkit.render.units import points

    width = points(bleed)
    if not 0 <= width <= points("10mm"):
        raise UsageError(f"--bleed takes 0 to 10mm, not '{bleed}'")
    documents, skipped = documents_of(paths)
    collected = content.collect(documents, lambda message: None)
    selection = content.Selection(
        ids=tuple(card_id or ()), kinds=tuple(kind or ()), boxes=tuple(box or ())
    )
    cards = content.chosen(collected, documents, selection)
    result = images.export(cards, out, dpi=dpi, bleed=width, backs=backs)
    for warning in result.warnings:
        sys.stderr.write(f"warning: {warning}\n")
    files = len({face.file for face in result.faces})
    sys.stdout.write(
        f"wrote {files} images to {out} ({len(result.faces)} faces at {dpi} dpi), "
        f"{result.manifest.name}{skipped_note(skipped)}\n"
    )
    exit_if_skipped(skipped)
