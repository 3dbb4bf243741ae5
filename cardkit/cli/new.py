"""new: scaffold a card file from its kind's schema."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from cardkit import suggest
from cardkit.cli import complete
from cardkit.cli._app import app


@app.command()
def new(
    kind: Annotated[
        str,
        typer.Argument(metavar="KIND",
                       help="A kind (marvel-united/hero) or its short name when only one "
                       "system has it (hero); see `cardkit kinds`.", show_default=False,
                       autocompletion=complete.document_kinds),
    ],
    ident: Annotated[
        str, typer.Argument(metavar="ID", help="The new document's id (a lower-case slug).",
                            show_default=False),
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", help="The file to write, or a folder for ID.yaml (default: "
                     "cards/SYSTEM/BOX/ID.yaml with --box in a repository, else ./ID.yaml).",
                     show_default=False),
    ] = None,
    box: Annotated[
        str | None, typer.Option("--box", help="The box it comes from (its id).",
                                 show_default=False, autocompletion=complete.boxes),
    ] = None,
    name: Annotated[
        str | None, typer.Option("--name", help="The printed name.", show_default=False),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing file.")] = False,
) -> None:  # fmt: skip
    """Write a new card file: its schema modeline, every field its kind requires, and the
    placeholders listed as unconfirmed, so `cardkit gaps` shows what is left to fill in.

    The file passes `cardkit validate` as written (a rule may warn about a deck that is
    still short). An existing file is never replaced without --force; the write is atomic.
    """
    from cardkit.schemas import registry as schemas
    from cardkit.schemas import scaffold

    full = schemas.resolve_kind(kind)
    scaffold.check_id(ident)
    target = scaffold.target(full, ident, out, box)
    new_box = box is not None and not target.parent.exists()
    content = scaffold.text(full, ident, target, {"name": name, "box": box})
    scaffold.write(target, content, force=force)
    marks = scaffold.placeholders(content)
    sys.stdout.write(
        f"wrote {target}: {full}, {len(marks)} placeholder(s) marked unconfirmed"
        + (f" ({', '.join(marks)})" if marks else "")
        + "\n"
    )
    if new_box and out is None:
        boxes = [p.name for p in target.parent.parent.iterdir() if p.is_dir() and p.name != box]
        close = suggest.close(str(box), boxes)
        sys.stderr.write(
            f"warning: {target.parent} is a new box folder{f' ({close})' if close else ''}; "
            f"a box needs its manifest: cardkit new box {box} --out {target.parent / 'box.yaml'}\n"
        )
    from cardkit.schemas import modeline

    if hint := modeline.missing(target):
        sys.stderr.write(f"note: {hint}\n")
