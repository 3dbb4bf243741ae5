"""The command line: a thin face over the library. Parse, call the core, report, exit."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from cardkit.errors import CardkitError, ExitCode

app = typer.Typer(
    name="cardkit",
    help="Transcribe board- and card-game content: validate card files, track gaps, print proofs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class ValidateFormat(StrEnum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


def _cards_root(paths: list[Path]) -> Path | None:
    """The `cards/` folder that holds the first path, for resolving references."""
    for candidate in [paths[0].resolve(), *paths[0].resolve().parents]:
        if candidate.name == "cards" and candidate.is_dir():
            return candidate
    return None


def _default_paths(paths: list[Path] | None) -> list[Path]:
    if paths:
        return paths
    default = Path("cards")
    if not default.is_dir():
        raise CardkitError(
            "no PATH given and no cards/ folder here; run from the repository or name files"
        )
    return [default]


@app.command()
def validate(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Files or folders (default: cards/).", show_default=False),
    ] = None,
    output_format: Annotated[
        ValidateFormat, typer.Option("--format", "-f", help="Output format.")
    ] = ValidateFormat.text,
) -> None:
    """Check card files against their JSON Schema and the game rules.

    Prints `path:line:col: CODE message` lines. Exit 0: no errors (warnings allowed);
    1: errors found; 2: bad usage or unreadable path; 3: missing dependency.
    """
    from cardkit.report import RENDERERS
    from cardkit.validate import validate_paths

    targets = _default_paths(paths)
    report = validate_paths(targets, context_root=_cards_root(targets))
    sys.stdout.write(RENDERERS[output_format.value](report))
    raise typer.Exit(ExitCode.FINDINGS if report.errors else ExitCode.OK)


@app.command()
def rules() -> None:
    """List every rule: its code, severity, system and one-line doc."""
    from cardkit.rules import all_rules

    for rule in all_rules():
        sys.stdout.write(f"{rule.code}  {rule.severity.value:<7}  {rule.system:<16}  {rule.doc}\n")


@app.command()
def kinds() -> None:
    """List the document kinds cardkit knows, with their schema files."""
    from cardkit import schemas

    for kind in schemas.kinds():
        sys.stdout.write(f"{kind:<32}  schemas/{kind}.schema.json\n")


@app.command()
def build(
    out: Annotated[Path, typer.Option(help="Output folder.")] = Path("build"),
) -> None:
    """The main job over this repository: validate cards/ and write build/validate.json."""
    from cardkit.report import RENDERERS
    from cardkit.validate import validate_paths

    targets = _default_paths(None)
    report = validate_paths(targets, context_root=_cards_root(targets))
    out.mkdir(parents=True, exist_ok=True)
    (out / "validate.json").write_text(RENDERERS["json"](report), encoding="utf-8")
    sys.stdout.write(RENDERERS["text"](report))
    sys.stdout.write(f"wrote {out / 'validate.json'}\n")
    raise typer.Exit(ExitCode.FINDINGS if report.errors else ExitCode.OK)


@app.command("import")
def import_(
    rulebook: Annotated[Path, typer.Argument(help="The rulebook transcription (.txt).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the YAML files.")],
    system: Annotated[
        str | None,
        typer.Option(help="marvel-united, marvel-champions or villainous (default: detected)."),
    ] = None,
    box: Annotated[
        str | None, typer.Option(help="The box id (default: from the file or folder name).")
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
    document holds (unrepresented). Never overwrites a file without --force.
    """
    from cardkit import importer

    result = importer.plan_import(rulebook, out, system=system, box=box)
    if dry_run:
        for path in result.files:
            sys.stdout.write(
                f"would write {path}{' (exists; needs --force)' if path.exists() else ''}\n"
            )
    else:
        importer.write(result, force=force)
    for line in result.unrepresented:
        sys.stdout.write(f"unrepresented: {line}\n")
    for warning in result.warnings:
        sys.stdout.write(f"warning: {warning}\n")
    sys.stdout.write(importer.summary(result) + ("" if dry_run else f"; written to {out}") + "\n")
    raise typer.Exit(ExitCode.FINDINGS if result.unrepresented else ExitCode.OK)


export_app = typer.Typer(help="Print card data back in another form.", no_args_is_help=True)
app.add_typer(export_app, name="export")


@export_app.command("rulebook")
def export_rulebook(
    paths: Annotated[list[Path], typer.Argument(help="The box's YAML files or folder.")],
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write here instead of stdout.")
    ] = None,
) -> None:
    """Regenerate a box's rulebook text from its YAML (the inverse of import)."""
    from cardkit import importer, yamlio

    text = importer.export_rulebook(paths)
    if out is None:
        sys.stdout.write(text)
    else:
        yamlio.atomic_write(out, text)


def main() -> None:
    """Entry point: the one handler that turns cardkit errors into a line and an exit code."""
    try:
        app()
    except CardkitError as err:
        sys.stderr.write(f"cardkit: {err}\n")
        sys.exit(int(err.exit_code))
    except KeyboardInterrupt:
        sys.stderr.write("cardkit: interrupted\n")
        sys.exit(130)
