"""The CLI reference (docs/cli.md), made from the commands' own --help.

`python -m cardkit.cli._reference > docs/cli.md` writes it; a test fails when the file
and the commands drift apart, and another checks every option the README names.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import typer

from cardkit.errors import ExitCode

WIDTH = 80


# Typer carries its own copy of click; commands are handled by what they offer.
Command = Any


def _root() -> Command:
    from cardkit.cli import app

    return typer.main.get_command(app)


def _context(command: Command, name: str, parent: Any = None) -> Any:
    return command.context_class(command, info_name=name, parent=parent)


def walk(
    command: Command | None = None, path: tuple[str, ...] = ("cardkit",)
) -> Iterator[tuple[tuple[str, ...], Command]]:
    """Every command and group, depth first, in the order --help lists them."""
    command = command or _root()
    yield path, command
    if hasattr(command, "list_commands"):
        context = _context(command, path[-1])
        for name in command.list_commands(context):
            sub = command.get_command(context, name)
            if sub is not None and not sub.hidden:
                yield from walk(sub, (*path, name))


def help_text(path: tuple[str, ...]) -> str:
    """What `cardkit ... --help` prints in a terminal WIDTH columns wide."""
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(WIDTH)
    try:
        command = _root()
        context = _context(command, path[0])
        for name in path[1:]:
            command = command.get_command(context, name)
            context = _context(command, name, context)
        return str(command.get_help(context))
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


def options(command: Command) -> set[str]:
    """Every option spelling a command takes, --help aside."""
    found: set[str] = set()
    for param in command.params:
        if param.param_type_name == "option":
            found.update(param.opts + param.secondary_opts)
    return found - {"--help"}


def reference() -> str:
    parts = [
        "# Command-line reference\n",
        "Generated from the commands' own `--help` by `python -m cardkit.cli._reference "
        "> docs/cli.md`;\na test fails when this file and the commands drift apart. "
        "The README has a tour; docs/codes.md\nlists the diagnostic codes and "
        "docs/json-output.md the JSON contracts.\n",
        "Exit codes everywhere (`cardkit.errors.ExitCode`): "
        + ", ".join(f"{int(code)} {code.meaning}" for code in ExitCode)
        + ".\n",
    ]
    for path, _ in walk():
        parts.append(f"## `{' '.join(path)}`\n\n```text\n{help_text(path).rstrip()}\n```\n")
    return "\n".join(parts)


if __name__ == "__main__":
    sys.stdout.write(reference())
