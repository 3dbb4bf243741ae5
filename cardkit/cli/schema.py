"""schema: the JSON Schemas, for people and editors."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli import complete
from cardkit.cli._app import app
from cardkit.errors import UsageError


@app.command()
def schema(
    kind: Annotated[
        str | None,
        typer.Argument(help="A kind, e.g. marvel-united/villain (see `cardkit kinds`).",
                       show_default=False, autocompletion=complete.document_kinds),
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
    from cardkit.schemas import registry as schemas

    if export is not None:
        from cardkit.schemas import modeline

        written = schemas.export(export)
        sys.stdout.write(f"wrote {len(written)} schema files to {export}\n")
        found = modeline.schemas_folder(Path.cwd())
        if found != export.resolve():  # say where cardkit's modelines point instead
            sys.stdout.write(
                f"note: card files here get modelines into {found}, the nearest exported "
                f"schemas/ (export there for editors to resolve them)\n"
            )
        return
    if kind is None:
        raise UsageError("name a kind (see `cardkit kinds`), or give --export DIR")
    kind = schemas.resolve_kind(kind)  # a short name (hero), or did-you-mean
    sys.stdout.write(schemas.schema_path(kind).read_text(encoding="utf-8"))
