"""import and export: rulebook text to YAML and back."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli import complete
from cardkit.cli._app import app, export_app, preview
from cardkit.errors import ExitCode, UsageError


@app.command("import")
def import_(
    rulebook: Annotated[
        Path,
        typer.Argument(
            metavar="SOURCE",
            help="The rulebook transcription (.txt), a data file (told by its content), "
            "or a format's name (`cardkit import --help` lists them).",
        ),
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the YAML files.")],
    files: Annotated[
        list[Path] | None,
        typer.Argument(
            metavar="FILE",
            help="After a format's name or a first data file: more files of it.",
            show_default=False,
        ),
    ] = None,
    system: Annotated[
        str | None,
        typer.Option(help="The game system, as `cardkit kinds` names it (default: detected)."),
    ] = None,
    box: Annotated[
        str | None,
        typer.Option(
            help="The box id (default: from the file or folder name).",
            autocompletion=complete.boxes,
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show what would be written; write nothing.")
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite files that already exist.")
    ] = False,
) -> None:
    """Turn a rulebook transcription into draft YAML, one file per document.

    Prints a summary: files, cards, gap notes, lines kept verbatim and lines no
    document holds (unrepresented). Never overwrites a file without --force. Exit 1 means
    imported with losses: read the warnings (no table of contents, nothing recognised, a
    line inside the wrong field, a sentence not understood, unrepresented lines).

    `cardkit import marvelsdb FILE.json... --out DIR` reads marvelsdb pack files
    instead: one Marvel Champions card file per card, a folder per card set;
    `cardkit import mu-db FILE.json... --out DIR` Marvel United JSON Database boxes.
    A data file is told apart by its content, so naming its format is optional; a
    rulebook file that happens to be called like a format is still a rulebook.
    """
    from cardkit.cli.exchange import IMPORT_FORMATS
    from cardkit.rulebook import importer

    verb = IMPORT_FORMATS.get(str(rulebook)) if not rulebook.is_file() else None
    if verb is None:  # a data file names no format: its content does
        verb = next((v for v in IMPORT_FORMATS.values() if _reads(v, rulebook)), None)
        files = [rulebook, *(files or [])] if verb is not None else files
    if verb is not None:  # a word a game brings: `import marvelsdb FILE...`
        verb(files or [], out, box=box, dry_run=dry_run, force=force)
        return
    if files and not rulebook.exists():  # `import mudb FILE`: a format's word, misspelt
        from cardkit import suggest

        raise UsageError(
            f"import: '{rulebook}' is neither a file nor a format; "
            + suggest.hint(str(rulebook), IMPORT_FORMATS)
        )
    if files:
        raise UsageError(f"import takes one rulebook; {files[0]} is one too many")

    result = importer.plan_import(rulebook, out, system=system, box=box)
    if dry_run:
        preview(result.files)
    else:
        importer.write(result, force=force)
        _schemas_note(list(result.files))
    for line in result.unrepresented:
        sys.stdout.write(f"unrepresented: {line}\n")
    for warning in result.warnings:
        sys.stdout.write(f"warning: {warning}\n")
    sys.stdout.write(importer.summary(result) + ("" if dry_run else f"; written to {out}") + "\n")
    lossy = result.unrepresented or result.warnings  # exit 1: imported with losses
    raise typer.Exit(ExitCode.FINDINGS if lossy else ExitCode.OK)


def _reads(verb: object, path: Path) -> bool:
    """Whether an import verb says the file is its format (its optional `detects`)."""
    detects = getattr(verb, "detects", None)
    return bool(detects(path)) if callable(detects) else False


@export_app.command("rulebook")
def export_rulebook(
    paths: Annotated[list[Path], typer.Argument(help="The box's YAML files or folder.")],
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write here instead of stdout.")
    ] = None,
) -> None:
    """Regenerate a box's rulebook text from its YAML (the inverse of import)."""
    from cardkit.files import yamlio
    from cardkit.rulebook import importer

    text = importer.export_rulebook(paths)
    if out is None:
        sys.stdout.write(text)
    else:
        yamlio.atomic_write(out, text)


def _schemas_note(written: list[Path]) -> None:
    """Tell once when the modelines just written point at schemas not exported yet."""
    from cardkit.schemas import modeline

    if written and (hint := modeline.missing(written[0])):
        sys.stderr.write(f"note: {hint}\n")
