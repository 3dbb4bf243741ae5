"""Marvel Champions' CLI face: `cardkit import marvelsdb` and `cardkit export marvelsdb`.

The registry's CLI hook (`cardkit.plugin.CliFace`): `register` adds this game's
exchange verbs to the command line; the work is done by `marvelsdb_files`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardkit.cli._app import PathsArg, preview
from cardkit.errors import ExitCode, UsageError

if TYPE_CHECKING:  # the contract, for types only: not loaded at every start
    from cardkit.plugin import ImportVerb


def register(import_formats: dict[str, ImportVerb], export_app: typer.Typer) -> None:
    import_formats["marvelsdb"] = import_marvelsdb
    export_app.command("marvelsdb")(export_marvelsdb)


def import_marvelsdb(
    files: list[Path], out: Path, *, box: str | None, dry_run: bool, force: bool
) -> None:
    """`cardkit import marvelsdb FILE.json... --out DIR`: one card file per marvelsdb card."""
    from cardkit.games.marvel_champions import marvelsdb_files

    if not files:
        raise UsageError(
            "import marvelsdb needs the pack files: cardkit import marvelsdb FILE.json"
        )
    result = marvelsdb_files.plan_import(files, out, box=box)
    if dry_run:
        preview(result.files)
    else:
        marvelsdb_files.write_import(result, force=force)
        from cardkit.cli.transcribe import _schemas_note

        _schemas_note(list(result.files))
    for line in result.warnings():
        sys.stderr.write(f"warning: {line}\n")
    where = "" if dry_run else f"; written to {out}"
    sys.stdout.write(
        f"marvelsdb: {len(result.files)} cards in {len(result.sets)} sets "
        f"from {len(files)} files{where}\n"
    )


def _detects(path: Path) -> bool:
    """A marvelsdb pack file: a JSON list of cards, each with a `code`."""
    from cardkit.errors import InputError
    from cardkit.games.marvel_champions import marvelsdb_files

    if path.suffix.lower() != ".json" or not path.is_file():
        return False
    try:
        marvelsdb_files.read_cards(path)
    except InputError:
        return False
    return True


import_marvelsdb.detects = _detects  # type: ignore[attr-defined]


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
        typer.Option(
            "--cards",
            metavar="FILE",
            help="marvelsdb pack files whose cards the decklists may name.",
        ),
    ] = None,
) -> None:
    """Write Marvel Champions cards as marvelsdb pack JSON, decklists as marvelsdb decks.

    Each card goes back to the pack file and place it came from (its `marvelsdb`
    block), else to pack/<pack>.json or pack/<pack>_encounter.json; each decklist to
    decks/<id>.json with `slots: {code: count}`. Exits 1 when a card cannot be written or
    its file cannot be read (named; the rest are written), or a decklist names a card no
    given card matches.
    """
    from cardkit import api
    from cardkit.cli._app import default_paths, report_skipped
    from cardkit.games.marvel_champions import marvelsdb_files

    documents, skipped = api.load(default_paths(paths))
    report_skipped(skipped)  # and exit 1: fewer cards out than in
    result = marvelsdb_files.export(documents, out, catalogues=catalogues, lookup=cards)
    for line in result.problems:
        sys.stderr.write(f"{line}\n")
    for line in result.warnings:
        sys.stderr.write(f"warning: {line}\n")
    missing = result.cards_in - result.cards
    sys.stdout.write(
        f"wrote {len(result.files)} files to {out}: {result.cards} cards"
        f"{f' ({missing} of {result.cards_in} not written)' if missing else ''}, "
        f"{result.decks} decks{f'; {len(skipped)} file(s) skipped' if skipped else ''}\n"
    )
    failed = result.problems or skipped or missing
    raise typer.Exit(ExitCode.FINDINGS if failed else ExitCode.OK)
