"""Gap listings: a table (rich on a terminal, plain in a pipe), JSON, Markdown and a CSV checklist.

The JSON shape is a contract, documented in docs/json-output.md; the CSV is the
checklist that `cardkit confirm --batch` reads back.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, TextIO

from cardkit.confirm import checklist
from cardkit.files.spool import Spool
from cardkit.gaps.rows import Gap
from cardkit.gaps.tally import Tally
from cardkit.model import printable
from cardkit.report import jsonstream
from cardkit.systems import legacy

GROUPS: dict[str, Callable[[Gap], str]] = {
    "box": lambda g: g.box,
    "group": lambda g: g.game_group or g.document,  # the game's grouping (its GROUP)
    # the old word: the same for a game whose group has that name, else per document
    legacy.OLD_NAME: lambda g: legacy.old_value(g.game_group, g.group_label) or g.document,
    "kind": lambda g: g.kind,
    "field": lambda g: g.field.split("/")[0],
}
CSV_COLUMNS = checklist.COLUMNS  # the checklist CSV: its one home is confirm/checklist.py
JSON_VERSION = 1
# A terminal listing of up to this many rows is drawn as a table; a longer one is written
# as lines as they come (rich sizes a table's columns over all its rows: it would hold
# every row, ~1.5 ms each to draw, before the first line shows).
TABLE_ROWS = 500


def _grouped(rows: Iterable[Gap], group_by: str | None) -> Iterator[tuple[str, int, Iterator[Gap]]]:
    """(group name, its size, its rows), groups sorted by name; rows keep their order.
    Grouped rows wait in a Spool (on disk past a run's size), so any number fits."""
    if group_by is None:
        yield "", 0, iter(rows)
        return
    key = GROUPS[group_by]
    sizes: dict[str, int] = {}
    spool: Spool[tuple[str, Gap]] = Spool(lambda item: item[0])
    for row in rows:
        name = key(row) or "(none)"
        sizes[name] = sizes.get(name, 0) + 1
        spool.add((name, row))
    for name, members in itertools.groupby(spool.drain(), key=lambda item: item[0]):
        yield name, sizes[name], (row for _, row in members)


def _tallied(rows: Iterable[Gap], tally: Tally | None) -> tuple[Tally, Iterable[Gap]]:
    """The tally a writer's summary reads: the caller's (its rows counted already, before
    a filter), or one counting the rows as they are written."""
    if tally is not None:
        return tally, rows
    own = Tally()
    return own, own.counted(rows)


def write_plain(
    rows: Iterable[Gap], group_by: str | None, out: TextIO, tally: Tally | None = None
) -> None:
    tally, rows = _tallied(rows, tally)
    for name, size, members in _grouped(rows, group_by):
        if name:
            out.write(f"== {name} ({size})\n")
        for g in members:
            where = f"{printable(g.path)}:{g.line}"
            tag = g.code or g.origin
            out.write(f"{where}  {g.document}  {g.field}  {g.status}  [{tag}] {g.why}\n")
    out.write(tally.line() + "\n")


def write_terminal(
    rows: Iterable[Gap],
    group_by: str | None,
    out: TextIO,
    tally: Tally | None = None,
    notice: Callable[[str], object] | None = None,
) -> None:
    """The listing on a terminal: a table of up to TABLE_ROWS rows; past that, the plain
    lines as they come (`notice` hears why), so no more than a table's rows are held."""
    tally, rows = _tallied(rows, tally)
    rows = iter(rows)
    first = list(itertools.islice(rows, TABLE_ROWS + 1))
    if len(first) <= TABLE_ROWS:
        out.write(rich_table(first, group_by, tally))
        return
    if notice is not None:
        notice(
            f"cardkit: more than {TABLE_ROWS} rows: listed as lines as they come, not as a "
            "table (--box, --id, --kind or --field narrow the listing)\n"
        )
    write_plain(itertools.chain(first, rows), group_by, out, tally)


def rich_table(rows: list[Gap], group_by: str | None, tally: Tally | None = None) -> str:
    """A terminal table: file names (not paths) so the why column keeps its room.
    (Rich sizes the columns over every row: the rows are held; `write_terminal` keeps
    that to a table's size.)"""
    import shutil

    from rich.console import Console
    from rich.table import Table

    width = shutil.get_terminal_size((160, 40)).columns
    console = Console(record=True, file=io.StringIO(), width=width, force_terminal=True)
    for name, _, members in _grouped(rows, group_by):
        table = Table(title=name or None, show_lines=False)
        for column in ("file:line", "document", "card", "field", "status", "origin", "why"):
            table.add_column(column, overflow="fold", no_wrap=column != "why")
        for g in members:
            table.add_row(
                f"{g.path.rsplit('/', 1)[-1]}:{g.line}",
                g.document,
                g.card,
                g.field,
                g.status,
                g.code or g.origin,
                g.why,
            )
        console.print(table)
    console.print((tally or Tally().counted_all(rows)).line(), highlight=False)
    return console.export_text(styles=True)


def write_json(
    rows: Iterable[Gap], group_by: str | None, out: TextIO, tally: Tally | None = None
) -> None:
    tally, rows = _tallied(rows, tally)
    items = ({**g.as_dict(), **({"group": GROUPS[group_by](g)} if group_by else {})} for g in rows)

    def payload() -> dict[str, object]:
        return {
            "version": JSON_VERSION,
            "tool": "cardkit",
            "gaps": jsonstream.HOLE,
            "summary": tally.counts(),
        }

    jsonstream.write(out, payload, items, ensure_ascii=False)


def write_markdown(
    rows: Iterable[Gap], group_by: str | None, out: TextIO, tally: Tally | None = None
) -> None:
    tally, rows = _tallied(rows, tally)
    for name, _, members in _grouped(rows, group_by):
        if name:
            out.write(f"## {name}\n\n")
        out.write("| file | document | card | field | status | origin | why |\n")
        out.write("|---|---|---|---|---|---|---|\n")
        for g in members:
            cells = [
                f"`{g.path}:{g.line}`",
                g.document,
                g.card,
                f"`{g.field}`",
                g.status,
                g.code or g.origin,
                g.why,
            ]
            out.write("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |\n")
        out.write("\n")
    out.write(f"**{tally.line()}**\n")


def write_csv(
    rows: Iterable[Gap], group_by: str | None, out: TextIO, tally: Tally | None = None
) -> None:
    checklist.write_checklist((g.as_dict() for g in rows), out)


_inert = checklist.inert


class Writer(Protocol):
    def __call__(
        self, rows: Iterable[Gap], group_by: str | None, out: TextIO, tally: Tally | None = None
    ) -> None: ...


WRITERS: dict[str, Writer] = {
    "table": write_plain,
    "json": write_json,
    "markdown": write_markdown,
    "csv": write_csv,
}


def _as_text(write: Writer) -> Callable[[list[Gap], str | None], str]:
    def render(rows: list[Gap], group_by: str | None) -> str:
        out = io.StringIO()
        write(rows, group_by, out)
        return out.getvalue()

    return render


plain, as_json, markdown, as_csv = (_as_text(w) for w in WRITERS.values())
RENDERERS: dict[str, Callable[[list[Gap], str | None], str]] = {
    "table": plain,
    "json": as_json,
    "markdown": markdown,
    "csv": as_csv,
}
