"""Values that become file names or paths, checked before they are used as one.

Data (a card's `pack_code`, a `--box`, an imported `provenance.scan`) may name a file or
a folder. A *safe name* is one path part: letters, digits, `_`, `-` and `.`, not starting
with a dot (so never `.` or `..`, never hidden), at most 120 characters. A *repository
path* is relative, has no `..` part and no drive or home (`C:`, `~`). Schemas hold data
to the same rules (`$defs/safe-name`, `$defs/repository-path` in common.schema.json);
these functions check again where the path is built, since a file may reach a writer
without being validated.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from cardkit.errors import CardkitError, ExitCode
from cardkit.model import printable

SAFE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,119}$")


class UnsafePath(CardkitError):
    exit_code = ExitCode.USAGE


def name_problem(name: str) -> str | None:
    """Why `name` is not a safe file name, or None when it is."""
    if SAFE_NAME.match(name):
        return None
    if not name:
        return "is empty"
    if "/" in name or "\\" in name:
        return "holds a path separator"
    if name.startswith("."):
        return "starts with a dot"
    if len(name) > 120:
        return "is over 120 characters"
    return "holds a character other than letters, digits, '_', '-' and '.'"


def safe_name(name: str, what: str) -> str:
    """`name`, refused with one line (`what` says where it came from) unless it is safe."""
    problem = name_problem(name)
    if problem:
        raise UnsafePath(f"{what} '{printable(name)}' {problem}: not used as a file name")
    return name


def path_problem(text: str) -> str | None:
    """Why `text` is not a path inside the repository, or None when it is."""
    written = PurePosixPath(text.replace("\\", "/"))
    if written.is_absolute() or text.startswith("~") or re.match(r"^[A-Za-z]:", text):
        return "is an absolute path"
    if ".." in written.parts:
        return "climbs out with '..'"
    if not text.strip():
        return "is empty"
    return None


def child(folder: Path, *parts: str, what: str = "a file name") -> Path:
    """`folder / parts...`, each part a safe name (a last part may end in its suffix), and
    the result checked to stay inside `folder` once symlinks are followed."""
    for part in parts:
        safe_name(part, what)
    target = folder.joinpath(*parts)
    if not target.resolve().is_relative_to(folder.resolve()):
        raise UnsafePath(f"{printable(str(target))}: leads outside {printable(str(folder))}")
    return target
