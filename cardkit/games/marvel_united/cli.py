"""Marvel United's CLI face: `cardkit import mu-db` and `cardkit export mu-db`.

The registry's CLI hook (`cardkit.plugin.CliFace`): `register` adds the Marvel United JSON
Database verbs to the command line; the work is done by `mudb_files`. The import verb
carries `detects`, so `cardkit import BOX.json` needs no format word.
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
    import_formats["mu-db"] = import_mudb
    export_app.command("mu-db")(export_mudb)


def import_mudb(
    files: list[Path], out: Path, *, box: str | None, dry_run: bool, force: bool
) -> None:
    """`cardkit import mu-db FILE.json... --out DIR`: Marvel United JSON Database boxes."""
    from cardkit.games.marvel_united import mudb_files

    if not files:
        raise UsageError("import mu-db needs the box files: cardkit import mu-db FILE.json")
    result = mudb_files.plan_import(files, out, box=box)
    if dry_run:
        preview(result.files)
    else:
        mudb_files.write_import(result, force=force)
    for line in result.warnings:
        sys.stdout.write(f"warning: {line}\n")
    where = "" if dry_run else f"; written to {out}"
    sys.stdout.write(
        f"mu-db: {result.cards} cards, {result.documents} documents in "
        f"{len(result.boxes)} boxes from {len(files)} files{where}\n"
    )
    # a declared letter is said but loses nothing (docs/exchange.md): exit 1 only on a loss
    raise typer.Exit(ExitCode.FINDINGS if result.lossy else ExitCode.OK)


def _detects(path: Path) -> bool:
    from cardkit.games.marvel_united import mudb_files

    return mudb_files.detects(path)


import_mudb.detects = _detects  # type: ignore[attr-defined]


def export_mudb(
    paths: PathsArg = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the JSON files.")] = Path(
        "build/mu-db"
    ),
) -> None:
    """Write Marvel United boxes as Marvel United JSON Database files, one per box.

    A box imported from the database comes back as it was read (what cardkit does not
    model is kept in each document's `exchange`); for a box transcribed in cardkit, what
    the database has no field for goes to `<file>.cardkit.yaml` beside the JSON, and
    `cardkit import` reads it back from there. Exits 1 when a token has no database letter.
    """
    from cardkit.cli.exchange import documents_of, skipped_note
    from cardkit.games.marvel_united import mudb_files

    documents, skipped = documents_of(paths)
    if not any(d.kind.startswith("marvel-united/") for d in documents):
        raise UsageError("no Marvel United documents here to export as database boxes")
    result = mudb_files.export(documents, out)
    for line in result.warnings:
        sys.stderr.write(f"warning: {line}\n")
    sys.stdout.write(
        f"wrote {len(result.files)} files to {out}: {result.cards} cards "
        f"in {len(result.boxes)} boxes{skipped_note(skipped)}\n"
    )
    raise typer.Exit(ExitCode.FINDINGS if result.warnings or skipped else ExitCode.OK)
