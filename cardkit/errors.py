"""One exception base carrying an exit code; the CLI's single handler prints it."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    FINDINGS = 1
    USAGE = 2
    MISSING_DEPENDENCY = 3


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
