"""The Typer application, the helpers every command shares, and the one error handler."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from cardkit.errors import CardkitError, ExitCode, Terminated
from cardkit.model import printable

app = typer.Typer(
    name="cardkit",
    help="Transcribe board- and card-game content: import rulebooks, validate card files, "
    "list and close the gaps.",
    no_args_is_help=True,
    rich_markup_mode=None,
    add_completion=True,
    pretty_exceptions_enable=False,
)


def _show_version(value: bool) -> None:
    if value:
        from cardkit import __version__

        sys.stdout.write(f"cardkit {__version__}\n")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Options that apply before any command."""


# The PATH... argument of every command that reads card files.
PathsArg = Annotated[
    list[Path] | None,
    typer.Argument(help="Files or folders (default: cards/).", show_default=False),
]


def cards_root(paths: list[Path]) -> Path | None:
    """The `cards/` folder that holds the first path, for resolving references."""
    for candidate in [paths[0].resolve(), *paths[0].resolve().parents]:
        if candidate.name == "cards" and candidate.is_dir():
            return candidate
    return None


def report_skipped(problems: list[Any]) -> None:
    """Files that could not be read as documents: one line each on stderr; the run goes on."""
    for problem in problems:
        where = f"{printable(problem.path)}:{problem.line}:{problem.column}"
        sys.stderr.write(f"{where}: {problem.code} {printable(problem.message)} (skipped)\n")


def preview(paths: Iterable[Path]) -> None:
    """--dry-run: the files a command would write, flagging those that already exist."""
    for path in paths:
        sys.stdout.write(
            f"would write {path}{' (exists; needs --force)' if path.exists() else ''}\n"
        )


def default_paths(paths: list[Path] | None) -> list[Path]:
    if paths:
        return paths
    default = Path("cards")
    if not default.is_dir():
        raise CardkitError(
            "no PATH given and no cards/ folder here; run from the repository or name files"
        )
    return [default]


export_app = typer.Typer(
    help="Print card data back in another form.", no_args_is_help=True, rich_markup_mode=None
)
app.add_typer(export_app, name="export")


def main() -> None:
    """Entry point: the one handler that turns cardkit errors into a line and an exit code."""
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        _run()
    finally:  # called in-process (tests, a host program): its own handler comes back
        signal.signal(signal.SIGTERM, previous)


def _run() -> None:
    try:
        app()
    except Terminated:
        sys.stderr.write("cardkit: terminated\n")
        sys.exit(int(ExitCode.TERMINATED))
    except CardkitError as err:
        sys.stderr.write(f"cardkit: {printable(str(err))}\n")
        sys.exit(int(err.exit_code))
    except KeyboardInterrupt:
        sys.stderr.write("cardkit: interrupted\n")
        sys.exit(int(ExitCode.INTERRUPTED))
    except SystemExit as done:
        if type(sys.stdout).__name__ == "PacifyFlushWrapper":  # click saw EPIPE: exit 1 is ours
            _pipe_closed()
        if done.code == ExitCode.INTERRUPTED:  # Typer turns Ctrl-C into a silent exit 130
            sys.stderr.write("cardkit: interrupted\n")
        try:  # what is still buffered fails here, not unseen at the interpreter's exit
            sys.stdout.flush()
        except OSError as err:
            _output_failed(err)
        raise
    except OSError as err:
        # a path the system refused (--out naming a file, a folder where a file goes, a
        # missing or read-only folder, a full disk): the path and the reason, exit 2
        where = err.filename2 or err.filename
        if where is None and not os.environ.get("CARDKIT_DEBUG"):
            _output_failed(err)  # no file named: the standard output could not be written
        if where is None or os.environ.get("CARDKIT_DEBUG"):
            _internal_error(err)
        reason = err.strerror or str(err)
        if isinstance(err, FileExistsError) and os.path.isfile(where):
            reason = "this is a file, and a folder is needed here"
        if isinstance(err, NotADirectoryError):  # name the file that stands in the way
            blocking = next((p for p in Path(os.fsdecode(where)).parents if p.is_file()), None)
            if blocking is not None:
                where, reason = str(blocking), "this is a file, and a folder is needed here"
        sys.stderr.write(f"cardkit: {printable(os.fsdecode(where))}: {reason}\n")
        sys.exit(int(ExitCode.USAGE))
    except Exception as err:
        _internal_error(err)


def _pipe_closed() -> NoReturn:
    """The reader of the output went away (`cardkit validate | head`): not an error of the
    data, so no message; 141 as for a tool ended by SIGPIPE. Output still buffered is
    dropped (fd 1 to /dev/null) so the interpreter's own flush does not complain."""
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    sys.exit(int(ExitCode.PIPE_CLOSED))


def _output_failed(err: OSError) -> None:
    """Writing the standard output failed: a closed pipe (quietly, 141), or a full disk
    or a device error (`> /dev/full`): one line, exit 2. Anything else is a bug."""
    if isinstance(err, BrokenPipeError) or err.errno == errno.EPIPE:
        _pipe_closed()
    if err.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS):
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        sys.stderr.write(f"cardkit: cannot write the output: {err.strerror}\n")
        sys.exit(int(ExitCode.USAGE))


def _terminated(signum: int, frame: object) -> None:
    raise Terminated


def _internal_error(err: BaseException) -> NoReturn:
    """A bug: one line for the user, the traceback on request."""
    if os.environ.get("CARDKIT_DEBUG"):
        raise err
    sys.stderr.write(
        f"cardkit: internal error ({type(err).__name__}: {printable(str(err))}); "
        "rerun with CARDKIT_DEBUG=1 for the traceback and report it\n"
    )
    sys.exit(int(ExitCode.INTERNAL_ERROR))
