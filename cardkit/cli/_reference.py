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


# What cardkit refuses before doing unbounded work, or to keep data where it belongs
# (issue 21); each refusal is one line naming the file, with the exit code above.
LIMITS = """Limits and guards, the same for every command:

- Input files are read only when they are regular files: a FIFO, `/dev/zero` or a link to
  one is refused at once (exit 2; for `ocr`, that scan fails alone, exit 1). Card files are
  capped at 10 MB, marvelsdb JSON at 64 MB, scans at 256 MB, checked before reading.
- `ocr`: images over 89,478,485 pixels are refused; a PDF page over A2 (420 x 594 mm), a file
  of over 500 pages or frames, or pages adding up to over 89,478,485 pixels at 300 dpi is
  refused before it is rendered. `--jobs` is capped to the cores and to the scans; `--timeout`
  must be more than 0. A draft is written only if none is there at that moment (unless
  `--force`): one saved by hand during the scan is kept. Workers end with their parent,
  `kill -9` included; SIGTERM ends a command with `cardkit: terminated` (exit 143).
- File names are data: a scan named with a line break is escaped in drafts and output lines.
  A value used as a file or folder name (`pack_code`, `--box`) must be a safe name (letters,
  digits, `_`, `-`, `.`; not starting with a dot); `provenance.scan` must not climb out with
  `..`, and an absolute one needs `sha256` (`proof --from-scans` reads it only when the file
  has that hash). `import marvelsdb` refuses a `provenance.scan` that is absolute or climbs.
- `export csv` writes a cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return with
  a leading `'` (OWASP's advice; plain numbers stay); `--raw-cells` writes them as they are.
- `build`: one at a time per output folder; a second waits and says so.
- Output: a full disk on the standard output is one line and exit 2; a reader that closes
  the pipe early (`| head`) ends the command quietly with exit 141. A schema file that is not
  JSON or not a JSON Schema is exit 3, naming it.
"""


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
        LIMITS,
    ]
    for path, _ in walk():
        parts.append(f"## `{' '.join(path)}`\n\n```text\n{help_text(path).rstrip()}\n```\n")
    return "\n".join(parts)


if __name__ == "__main__":
    sys.stdout.write(reference())
