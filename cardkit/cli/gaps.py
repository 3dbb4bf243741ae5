"""gaps and confirm: what is not yet known, and closing it."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardkit.cli import complete
from cardkit.cli._app import PathsArg, app, default_paths, report_skipped
from cardkit.errors import CardkitError, ExitCode
from cardkit.systems import legacy

if TYPE_CHECKING:
    from cardkit.gaps.rows import Gap


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
    group = "group"  # the game's grouping: a Marvel United villain, its GROUP
    old_group = legacy.OLD_NAME  # deprecated alias, kept for scripts that use it
    kind = "kind"
    field = "field"


@app.command()
def gaps(
    paths: PathsArg = None,
    output_format: Annotated[
        GapFormat, typer.Option("--format", "-f", help="Output format.")
    ] = GapFormat.table,
    status: Annotated[GapStatus, typer.Option(help="Which gaps to list.")] = GapStatus.open,
    group_by: Annotated[
        GroupBy | None,
        typer.Option(
            "--group-by",
            help="Group the listing. group: as each game groups its documents (a Marvel "
            "United villain); villain: its old name (deprecated), the same where a game's "
            "group is a villain, else by document.",
        ),
    ] = None,
    fail_on: Annotated[
        str | None, typer.Option("--fail-on", help="'open': exit 1 when any gap is open.")
    ] = None,
    kind: Annotated[
        list[str] | None,
        typer.Option(
            metavar="KIND",
            help="Document kind (villain) or part (masterplan, threats, dashboard).",
            autocompletion=complete.document_kinds,
        ),
    ] = None,
    field: Annotated[
        list[str] | None,
        typer.Option(
            metavar="FIELD",
            help="Field name (place, bam) or address start (masterplan/cards/3).",
        ),
    ] = None,
    document_id: Annotated[
        list[str] | None,
        typer.Option(
            "--id",
            metavar="ID",
            help="Document id (klaw), or its group (a villain).",
            autocompletion=complete.ids,
        ),
    ] = None,
    box: Annotated[
        list[str] | None,
        typer.Option(metavar="BOX", help="Box id.", autocompletion=complete.boxes),
    ] = None,
    origin: Annotated[
        list[str] | None, typer.Option(metavar="ORIGIN", help="noted, unconfirmed or inferred.")
    ] = None,
) -> None:
    """List every gap: noted by the rulebooks, marked unconfirmed, and inferred by the game rules.

    Each row has its file and line, document, card, field, status and why. Exit 0 when it
    ran (gaps are not failures); 1 when --fail-on open finds open gaps or a file could not
    be read as a card file (it is named on stderr and skipped). `--format csv` is a
    checklist that `cardkit confirm --batch` reads back. The filters (--kind, --field, --id,
    --box, --origin) combine, and each may be given more than once; `--format csv` over a
    filtered set is the checklist for one sitting. The summary counts the gaps the filters
    select, open and resolved, whatever --status lists (it ends "listed: open" when it lists
    only those), and the physical checks open (one card or part looked at once). On a
    terminal up to 500 rows are drawn as a table; a longer listing comes as lines as they
    are found.
    """
    from cardkit import api
    from cardkit.gaps.filters import Filters, selected
    from cardkit.gaps.tally import Tally
    from cardkit.model import Diagnostic
    from cardkit.report import gaps_report

    if fail_on not in (None, "open"):
        raise CardkitError("--fail-on takes 'open'")
    wanted = Filters(
        tuple(kind or ()),
        tuple(field or ()),
        tuple(document_id or ()),
        tuple(box or ()),
        tuple(origin or ()),
    )
    targets = default_paths(paths)
    skipped = 0
    any_open = False

    def skip(problem: Diagnostic) -> None:
        nonlocal skipped
        skipped += 1
        report_skipped([problem])

    def watched(rows: Iterable[Gap]) -> Iterator[Gap]:
        nonlocal any_open
        for row in rows:
            any_open = any_open or row.status == "open"
            if status is GapStatus.all or row.status == status.value:
                yield row

    # Rows are written as they are found: a tree of any size holds no list of them.
    # The summary counts every gap the filters select, open and resolved: --status only
    # picks the rows listed (and the summary says which).
    tally = Tally("" if status is GapStatus.all else status.value)
    rows = watched(tally.counted(selected(api.gap_rows(targets, skip), wanted)))
    grouping = group_by.value if group_by else None
    if output_format is GapFormat.table and sys.stdout.isatty():
        gaps_report.write_terminal(rows, grouping, sys.stdout, tally, sys.stderr.write)
    else:
        gaps_report.WRITERS[output_format.value](rows, grouping, sys.stdout, tally)
    for name in wanted.unknown:
        sys.stderr.write(f"cardkit: warning: {name} matches no gap here\n")
    # A skipped file is named on stderr; it fails the run only under --fail-on open,
    # where it may hide an open gap (README: exit 0 unless --fail-on open finds one).
    failed = fail_on == "open" and (bool(skipped) or any_open)
    raise typer.Exit(ExitCode.FINDINGS if failed else ExitCode.OK)


@app.command()
def confirm(
    target: Annotated[
        str | None,
        typer.Argument(
            help="A card file, or a document id (klaw, or system:id).", show_default=False
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
    replace: Annotated[
        bool, typer.Option("--replace", help="Let --value leave out slots the field has.")
    ] = False,
    undo: Annotated[
        bool,
        typer.Option("--undo", help="Take back the field's last confirmation (value and mark)."),
    ] = False,
) -> None:
    """Close a gap in place: confirm a field as printed, or correct it with --value.

    Records who (--by), when (--date) and on what evidence (--evidence); keeps comments,
    order and quoting; validates before an atomic write. A gap note is resolved once all
    the fields it names are confirmed. With --batch, every checklist row whose evidence
    column is filled is applied. A field the card lacks is added with --value (recorded
    as `previous: absent`); token names are checked against the system's vocabulary; a
    value that leaves out a slot needs --replace. Repeating a confirmation (same field,
    value and evidence) changes nothing; --undo takes the last one back.
    """
    from cardkit.confirm import checklist
    from cardkit.confirm import edit as core

    if undo:
        if target is None or address is None:
            raise CardkitError("--undo takes a document and a field")
        undone = core.undo_file(core.find_document(target, root), address)
        for item in undone.undone:
            sys.stdout.write(f"{undone.path}: undid {item}\n")
        return
    date = checklist.check_date(date or "")
    if batch is not None:
        outcomes = checklist.confirm_batch(batch, default_by=by, date=date)
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
            date,
            checklist.parse_value(value) if value is not None else core.AS_PRINTED,
            replace,
        )
        outcomes = [core.confirm_file(core.find_document(target, root), [request])]
    for outcome in outcomes:
        for warning in outcome.warnings:
            sys.stderr.write(f"cardkit: warning: {warning}\n")
        for item in outcome.confirmed:
            verb = "corrected" if item in outcome.corrected else "confirmed"
            sys.stdout.write(f"{outcome.path}: {verb} {item}\n")
        for item in outcome.unchanged:
            sys.stdout.write(f"{outcome.path}: unchanged {item} (already confirmed so)\n")
        for note in outcome.resolved_notes:
            sys.stdout.write(f"{outcome.path}: gap note {note} resolved\n")
