"""schema: the JSON Schemas, for people and editors."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli._app import app
from cardkit.errors import UsageError


@app.command()
def schema(
    kind: Annotated[
        str | None,
        typer.Argument(help="A kind, e.g. marvel-united/villain (see `cardkit kinds`).",
                       show_default=False),
    ] = None,
    export: Annotated[
        Path | None,
        typer.Option("--export", help="Write every schema file into this folder.",
                     show_default=False),
    ] = None,
) -> None:  # fmt: skip
    """Print a kind's JSON Schema, or write them all for an editor with --export DIR.

    The exported files keep their relative paths, so the references between them resolve
    offline; point yaml-language-server (or any JSON Schema tool) at DIR/KIND.schema.json.
    """
    import difflib

    from cardkit import schemas

    if export is not None:
        written = schemas.export(export)
        sys.stdout.write(f"wrote {len(written)} schema files to {export}\n")
        return
    if kind is None:
        raise UsageError("name a kind (see `cardkit kinds`), or give --export DIR")
    known = schemas.kinds()
    short = [k for k in known if k.split("/", 1)[-1] == kind]
    if kind not in known and len(short) == 1:
        kind = short[0]  # a short name one kind has: `hero`
    elif kind not in known:
        by_short = {k.split("/", 1)[-1]: k for k in known}
        close = difflib.get_close_matches(kind, known, n=1) or [
            by_short[name] for name in difflib.get_close_matches(kind, list(by_short), n=1)
        ]
        hint = f"; did you mean '{close[0]}'?" if close else "; see `cardkit kinds`"
        if len(short) > 1:
            hint = f"; it is more than one kind: {', '.join(short)}"
        raise UsageError(f"unknown kind '{kind}'{hint}")
    sys.stdout.write(schemas.schema_path(kind).read_text(encoding="utf-8"))
