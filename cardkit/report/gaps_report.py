"""Gap listings: a table (rich on a terminal, plain in a pipe), JSON, Markdown and a CSV checklist.

The JSON shape is a contract, documented in docs/json-output.md; the CSV is the
checklist that `cardkit confirm --batch` reads back.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable

from cardkit.gaps import Gap, checks, summary
from cardkit.model import printable

GROUPS: dict[str, Callable[[Gap], str]] = {
    "box": lambda g: g.box,
    "villain": lambda g: g.villain or g.document,
    "kind": lambda g: g.kind,
    "field": lambda g: g.field.split("/")[0],
}
CSV_COLUMNS = [
    "path",
    "line",
    "document",
    "card",
    "field",
    "origin",
    "status",
    "code",
    "why",
    "current",
    "check",
    "address",
    "value",
    "by",
    "evidence",
]
JSON_VERSION = 1


def _grouped(rows: list[Gap], group_by: str | None) -> list[tuple[str, list[Gap]]]:
    if group_by is None:
        return [("", rows)]
    key = GROUPS[group_by]
    groups: dict[str, list[Gap]] = {}
    for row in rows:
        groups.setdefault(key(row) or "(none)", []).append(row)
    return sorted(groups.items())


def plain(rows: list[Gap], group_by: str | None) -> str:
    out = []
    for name, members in _grouped(rows, group_by):
        if name:
            out.append(f"== {name} ({len(members)})")
        for g in members:
            where = f"{printable(g.path)}:{g.line}"
            tag = g.code or g.origin
            out.append(f"{where}  {g.document}  {g.field}  {g.status}  [{tag}] {g.why}")
    out.append(summary(rows))
    return "\n".join(out) + "\n"


def rich_table(rows: list[Gap], group_by: str | None) -> str:
    """A terminal table: file names (not paths) so the why column keeps its room."""
    import shutil

    from rich.console import Console
    from rich.table import Table

    width = shutil.get_terminal_size((160, 40)).columns
    console = Console(record=True, file=io.StringIO(), width=width, force_terminal=True)
    for name, members in _grouped(rows, group_by):
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
    console.print(summary(rows), highlight=False)
    return console.export_text(styles=True)


def as_json(rows: list[Gap], group_by: str | None) -> str:
    payload = {
        "version": JSON_VERSION,
        "tool": "cardkit",
        "gaps": [
            {**g.as_dict(), **({"group": GROUPS[group_by](g)} if group_by else {})} for g in rows
        ],
        "summary": _summary_counts(rows),
    }
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"


def _summary_counts(rows: list[Gap]) -> dict[str, object]:
    boxes: dict[str, dict[str, int]] = {}
    for g in rows:
        boxes.setdefault(g.box, {"open": 0, "resolved": 0})[g.status] += 1
    return {
        "open": sum(1 for g in rows if g.status == "open"),
        "checks": checks([g for g in rows if g.status == "open"]),
        "resolved": sum(1 for g in rows if g.status == "resolved"),
        "boxes": boxes,
    }


def markdown(rows: list[Gap], group_by: str | None) -> str:
    out = []
    for name, members in _grouped(rows, group_by):
        if name:
            out.append(f"## {name}\n")
        out.append("| file | document | card | field | status | origin | why |")
        out.append("|---|---|---|---|---|---|---|")
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
            out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        out.append("")
    out.append(f"**{summary(rows)}**")
    return "\n".join(out) + "\n"


def as_csv(rows: list[Gap], group_by: str | None) -> str:
    stream = io.StringIO()
    writer = csv.DictWriter(stream, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for g in rows:
        record = g.as_dict()
        writer.writerow({c: _inert(record.get(c, "")) for c in CSV_COLUMNS})
    return stream.getvalue()


def _inert(value: object) -> object:
    """A cell a spreadsheet will not run as a formula: `=`, `+`, `-`, `@` get a leading `'`.

    `cardkit confirm --batch` takes the quote off again when it reads the checklist.
    """
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


RENDERERS: dict[str, Callable[[list[Gap], str | None], str]] = {
    "table": plain,
    "json": as_json,
    "markdown": markdown,
    "csv": as_csv,
}
