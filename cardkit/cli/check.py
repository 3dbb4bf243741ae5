"""validate, rules, kinds: checking card files."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated

import typer

from cardkit.cli._app import PathsArg, app, cards_root, default_paths
from cardkit.errors import ExitCode


class ValidateFormat(StrEnum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


@app.command()
def validate(
    paths: PathsArg = None,
    output_format: Annotated[
        ValidateFormat, typer.Option("--format", "-f", help="Output format.")
    ] = ValidateFormat.text,
) -> None:
    """Check card files against their JSON Schema and the game rules.

    Prints `path:line:col: CODE message` lines. Exit 0: no errors (warnings allowed);
    1: errors found; 2: bad usage or unreadable path; 3: missing dependency.
    """
    from cardkit import api
    from cardkit.report import WRITERS

    targets = default_paths(paths)
    report = api.validate(targets, context_root=cards_root(targets))
    WRITERS[output_format.value](report, sys.stdout)
    raise typer.Exit(ExitCode.FINDINGS if report.errors else ExitCode.OK)


@app.command()
def rules() -> None:
    """List every rule: its code, severity, system and one-line doc."""
    from cardkit.check.rules import all_rules

    for rule in all_rules():
        sys.stdout.write(f"{rule.code}  {rule.severity.value:<7}  {rule.system:<16}  {rule.doc}\n")


@app.command()
def kinds() -> None:
    """List the document kinds cardkit knows, with their schema files."""
    from cardkit.schemas import registry as schemas

    for kind in schemas.kinds():
        sys.stdout.write(f"{kind:<32}  schemas/{kind}.schema.json\n")
