"""One exception base carrying an exit code; the CLI's single handler prints it."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Every code a cardkit command exits with (docs/cli.md lists them for users)."""

    OK = 0
    FINDINGS = 1  # the data has errors, or a command could not do all it was asked
    USAGE = 2  # bad usage, unreadable input or an unwritable output
    MISSING_DEPENDENCY = 3  # tesseract, its language data, a library: the fix is printed
    INTERNAL_ERROR = 70  # a bug (EX_SOFTWARE): one line, the traceback with CARDKIT_DEBUG=1
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT)
    PIPE_CLOSED = 141  # the reader of the output went away (128 + SIGPIPE); nothing printed
    TERMINATED = 143  # SIGTERM (128 + SIGTERM)

    @property
    def meaning(self) -> str:
        return _MEANINGS[self]


_MEANINGS = {
    ExitCode.OK: "ok",
    ExitCode.FINDINGS: "findings (or not all of the work could be done)",
    ExitCode.USAGE: "bad usage, unreadable input or an unwritable output",
    ExitCode.MISSING_DEPENDENCY: "a missing or broken dependency (a library, tesseract, a "
    "schema file)",
    ExitCode.INTERNAL_ERROR: "an internal error (a bug; CARDKIT_DEBUG=1 shows the traceback)",
    ExitCode.INTERRUPTED: "interrupted (Ctrl-C)",
    ExitCode.PIPE_CLOSED: "the output's reader closed the pipe (`| head`; no message)",
    ExitCode.TERMINATED: "terminated (SIGTERM)",
}


class Terminated(BaseException):
    """SIGTERM arrived: unwinds like Ctrl-C, so what a command holds (workers, staging
    folders, locks) is let go; the CLI prints `cardkit: terminated` and exits 143."""


class CardkitError(Exception):
    """An error the user can act on. `str(err)` is the one line they see."""

    exit_code: ExitCode = ExitCode.USAGE


class UsageError(CardkitError):
    exit_code = ExitCode.USAGE


class InputError(CardkitError):
    """A path or file that cannot be read at all."""

    exit_code = ExitCode.USAGE


class MissingDependency(CardkitError):
    exit_code = ExitCode.MISSING_DEPENDENCY


def require(module: str, package: str) -> object:
    """Import a module, or stop with exit code 3 and the command that installs it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingDependency(
            f"missing dependency: {package} (install it with 'pip install {package}')"
        ) from None
