"""The options that choose cards, declared once for every command that takes them
(`proof`, `export images`): --id, --kind and --box, each repeatable, with completion."""

from __future__ import annotations

from typing import Annotated

import typer

from cardkit.cli import complete

IdsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--id",
        metavar="ID",
        help="Only this document id (repeatable): --id klaw.",
        autocompletion=complete.ids,
    ),
]
KindsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--kind",
        metavar="KIND",
        help="Only cards of this kind (repeatable): masterplan, threat, hero...",
        autocompletion=complete.proof_kinds,
    ),
]
BoxesOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--box",
        metavar="BOX",
        help="Only cards from this box id (repeatable).",
        autocompletion=complete.boxes,
    ),
]
