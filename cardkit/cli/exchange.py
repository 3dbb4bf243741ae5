"""exchange: cardkit's data to and from marvelsdb JSON, Tabletop Simulator decks and CSV."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli._app import PathsArg, default_paths, export_app, preview, report_skipped
from cardkit.errors import ExitCode, UsageError


def _documents(paths: list[Path] | None) -> list:  # type: ignore[type-arg]
    from cardkit import gaps as gap_core

    documents, problems = gap_core.load(default_paths(paths))
    report_skipped(problems)
    return documents


def import_marvelsdb(
    files: list[Path], out: Path, *, box: str | None, dry_run: bool, force: bool
) -> None:
    """`cardkit import marvelsdb FILE.json... --out DIR`: one card file per marvelsdb card."""
    from cardkit.systems.marvel_champions import marvelsdb_files

    if not files:
        raise UsageError(
            "import marvelsdb needs the pack files: cardkit import marvelsdb FILE.json"
        )
    result = marvelsdb_files.plan_import(files, out, box=box)
    if dry_run:
        preview(result.files)
    else:
        marvelsdb_files.write_import(result, force=force)
    where = "" if dry_run else f"; written to {out}"
    sys.stdout.write(
        f"marvelsdb: {len(result.files)} cards in {len(result.sets)} sets "
        f"from {len(files)} files{where}\n"
    )


@export_app.command("marvelsdb")
def export_marvelsdb(
    paths: PathsArg = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the JSON files.")] = Path(
        "build/marvelsdb"
    ),
    catalogues: Annotated[
        Path | None,
        typer.Option(help="A marvelsdb folder: copy its sets.json/packs.json entries in use."),
    ] = None,
    cards: Annotated[
        list[Path] | None,
        typer.Option("--cards", help="marvelsdb pack files whose cards decklists may name."),
    ] = None,
) -> None:
    """Write Marvel Champions cards as marvelsdb pack JSON, decklists as marvelsdb decks.

    Cards go to pack/<pack>.json and pack/<pack>_encounter.json, in marvelsdb's own
    layout; each decklist to decks/<id>.json with `slots: {code: count}`. Exits 1 when a
    decklist names a card no given card matches, or a file was skipped (not valid).
    """
    from cardkit import gaps as gap_core
    from cardkit.systems.marvel_champions import marvelsdb_files

    documents, skipped = gap_core.load(default_paths(paths))
    report_skipped(skipped)
    result = marvelsdb_files.export(documents, out, catalogues=catalogues, lookup=cards)
    for line in result.problems:
        sys.stderr.write(f"{line}\n")
    for line in result.warnings:
        sys.stderr.write(f"warning: {line}\n")
    sys.stdout.write(
        f"wrote {len(result.files)} files to {out}: {result.cards} cards, {result.decks} decks\n"
    )
    raise typer.Exit(ExitCode.FINDINGS if result.problems or skipped else ExitCode.OK)


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
        list[str] | None, typer.Option(help="Only decks whose name contains this (repeatable).")
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

    documents = _documents(paths)
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
    sys.stdout.write(f"wrote {len(written)} decks to {out}: {total} cards on {sheets} sheets\n")


@export_app.command("csv")
def export_csv(
    paths: PathsArg = None,
    kind: Annotated[
        list[str] | None,
        typer.Option(help="Only this kind: marvel-united/villain, or a short name such as hero."),
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
    from cardkit import yamlio
    from cardkit.exchange import csv_export

    grouped = csv_export.by_kind(d.data for d in _documents(paths))
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
        return
    out.mkdir(parents=True, exist_ok=True)
    for name, documents in grouped.items():
        yamlio.atomic_write(
            out / f"{name.replace('/', '-')}.csv", csv_export.to_csv(documents, raw=raw_cells)
        )
    sys.stdout.write(f"wrote {len(grouped)} CSV files to {out}\n")
