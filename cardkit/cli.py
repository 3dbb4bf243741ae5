"""The command line: a thin face over the library. Parse, call the core, report, exit."""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from cardkit.errors import CardkitError, ExitCode

app = typer.Typer(
    name="cardkit",
    help="Transcribe board- and card-game content: import rulebooks, validate card files, "
    "list and close the gaps.",
    no_args_is_help=True,
    rich_markup_mode=None,
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


def _report_skipped(problems: list[Any]) -> None:
    """Files that could not be read as documents: one line each on stderr; the run goes on."""
    for problem in problems:
        where = f"{problem.path}:{problem.line}:{problem.column}"
        sys.stderr.write(f"{where}: {problem.code} {problem.message} (skipped)\n")


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


class GapFormat(StrEnum):
    table = "table"
    json = "json"
    markdown = "markdown"
    csv = "csv"


class GapStatus(StrEnum):
    open = "open"
    resolved = "resolved"
    all = "all"


class GroupBy(StrEnum):
    box = "box"
    villain = "villain"
    kind = "kind"
    field = "field"


@app.command()
def gaps(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Files or folders (default: cards/).", show_default=False),
    ] = None,
    output_format: Annotated[
        GapFormat, typer.Option("--format", "-f", help="Output format.")
    ] = GapFormat.table,
    status: Annotated[GapStatus, typer.Option(help="Which gaps to list.")] = GapStatus.open,
    group_by: Annotated[
        GroupBy | None, typer.Option("--group-by", help="Group the listing.")
    ] = None,
    fail_on: Annotated[
        str | None, typer.Option("--fail-on", help="'open': exit 1 when any gap is open.")
    ] = None,
) -> None:
    """List every gap: noted by the rulebooks, marked unconfirmed, and inferred by the game rules.

    Each row has its file and line, document, card, field, status and why. Exit 0 when it
    ran (gaps are not failures), unless --fail-on open finds open gaps. `--format csv` is a
    checklist that `cardkit confirm --batch` reads back.
    """
    from cardkit import gaps as gap_core
    from cardkit.report import gaps_report

    if fail_on not in (None, "open"):
        raise CardkitError("--fail-on takes 'open'")
    documents, problems = gap_core.load(_default_paths(paths))
    _report_skipped(problems)
    rows = gap_core.collect(documents)
    every = rows
    if status is not GapStatus.all:
        rows = [r for r in rows if r.status == status.value]
    grouping = group_by.value if group_by else None
    if output_format is GapFormat.table and sys.stdout.isatty():
        sys.stdout.write(gaps_report.rich_table(rows, grouping))
    else:
        sys.stdout.write(gaps_report.RENDERERS[output_format.value](rows, grouping))
    failed = fail_on == "open" and any(r.status == "open" for r in every)
    raise typer.Exit(ExitCode.FINDINGS if failed or problems else ExitCode.OK)


@app.command()
def confirm(
    target: Annotated[
        str | None,
        typer.Argument(
            help="A card file, or a document id (klaw, marvel-united:klaw).", show_default=False
        ),
    ] = None,
    address: Annotated[
        str | None,
        typer.Argument(
            help="The field: masterplan/cards/12/place, dashboard/player_count/heroes.",
            show_default=False,
        ),
    ] = None,
    by: Annotated[str | None, typer.Option(help="Who checked it.")] = None,
    evidence: Annotated[str | None, typer.Option(help="What it was checked against.")] = None,
    value: Annotated[
        str | None, typer.Option(help="A corrected value, as YAML; omit to confirm as printed.")
    ] = None,
    date: Annotated[str | None, typer.Option(help="YYYY-MM-DD (default: today).")] = None,
    batch: Annotated[
        Path | None, typer.Option(help="A checklist CSV from `cardkit gaps --format csv`.")
    ] = None,
    root: Annotated[Path, typer.Option(help="Where to look up document ids.")] = Path("cards"),
) -> None:
    """Close a gap in place: confirm a field as printed, or correct it with --value.

    Records who (--by), when (--date) and on what evidence (--evidence); keeps comments,
    order and quoting; validates before an atomic write. A gap note is resolved once all
    the fields it names are confirmed. With --batch, every checklist row whose evidence
    column is filled is applied.
    """
    from cardkit import confirm as core

    if batch is not None:
        outcomes = core.confirm_batch(batch, default_by=by, date=date or "")
    else:
        if target is None or address is None:
            raise CardkitError("name a document and a field, or give --batch FILE.csv")
        if not by or not evidence:
            raise CardkitError(
                "say who confirmed it and on what evidence: --by NAME --evidence TEXT"
            )
        request = core.Request(
            address,
            by,
            evidence,
            date or "",
            core.parse_value(value) if value is not None else core.AS_PRINTED,
        )
        outcomes = [core.confirm_file(core.find_document(target, root), [request])]
    for outcome in outcomes:
        for warning in outcome.warnings:
            sys.stderr.write(f"cardkit: warning: {warning}\n")
        for item in outcome.confirmed:
            verb = "corrected" if item in outcome.corrected else "confirmed"
            sys.stdout.write(f"{outcome.path}: {verb} {item}\n")
        for note in outcome.resolved_notes:
            sys.stdout.write(f"{outcome.path}: gap note {note} resolved\n")


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

    documents, problems = gap_core.load(_default_paths(paths))
    _report_skipped(problems)
    options = ProofOptions(paper, bleed, backs, flip.value, back_offset, alignment, png)
    result = make_proof(documents, out, options)
    what = "alignment sheet" if alignment else f"{result.cards} cards, {result.per_sheet} per sheet"
    pngs = f", {len(result.pngs)} PNG pages in {png}" if png else ""
    sys.stdout.write(f"wrote {out}: {what}{pngs}\n")


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


export_app = typer.Typer(
    help="Print card data back in another form.", no_args_is_help=True, rich_markup_mode=None
)
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
    except Exception as err:  # a bug: one line for the user, the traceback on request
        if os.environ.get("CARDKIT_DEBUG"):
            raise
        sys.stderr.write(
            f"cardkit: internal error ({type(err).__name__}: {err}); "
            "rerun with CARDKIT_DEBUG=1 for the traceback and report it\n"
        )
        sys.exit(70)
