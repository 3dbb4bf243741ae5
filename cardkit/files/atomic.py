"""Atomic writes that keep links, pipes and devices what they are.

A regular file is replaced by rename from a temporary file in its own folder (after an
fsync), so a crash leaves the old file or the new one. A symlink is followed and its
target replaced; a pipe or character device (`/dev/stdout`) is written in place; a
folder, socket or block device is refused. Every OS failure is one OutputError line.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from cardkit.errors import CardkitError, ExitCode

NODE_KINDS = {stat.S_IFDIR: "folder", stat.S_IFSOCK: "socket", stat.S_IFBLK: "block device"}


def _default_mode() -> int:
    """What open() would give a new file: 0o666 less the umask (mkstemp makes 0o600)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


class OutputError(CardkitError):
    """An output that cannot be written: a read-only folder, a full disk, a directory."""

    exit_code = ExitCode.USAGE


def write_target(path: Path) -> tuple[Path, bool]:
    """Where a write to path lands, and whether it must be written through in place.

    Symlinks are followed, so a linked file gets the new content and stays linked.
    Pipes and character devices (`/dev/stdout`, `/dev/null`) are written through
    without replacing the node; folders, sockets and block devices are refused.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as err:
        raise OutputError(f"{path}: cannot write: {err.strerror}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        if stat.S_ISFIFO(info.st_mode) or stat.S_ISCHR(info.st_mode):
            return path, True
        what = NODE_KINDS.get(stat.S_IFMT(info.st_mode), "special file")
        raise OutputError(f"{path}: is a {what}, not a file; nothing was written")
    return Path(os.path.realpath(path)), False


def atomic_write(
    path: Path,
    text: str | bytes,
    *,
    fsync: Callable[[int], None] = os.fsync,
    unchanged: Callable[[], None] | None = None,
) -> None:
    """Write via a temporary file in the target's folder, fsync, then rename over the target.

    A crash at any point leaves either the old file or the new one, never half of one.
    Symlinks are written through to their target; pipes and devices are written in place.
    `unchanged`, if given, runs just before the rename and may raise to stop it.
    Any OS failure (read-only folder, full disk) becomes one OutputError line.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    target, through = write_target(Path(path))
    try:
        if through:
            with open(target, "wb") as stream:
                stream.write(data)
            return
        _replace(target, data, fsync, unchanged)
    except OSError as err:
        reason = err.strerror or str(err)
        raise OutputError(f"{path}: cannot write: {reason}; nothing was written") from None


def _written_beside(
    target: Path, data: bytes, fsync: Callable[[int], None], mode: int, suffix: str
) -> str:
    """A temporary file in the target's folder holding `data`, on disk (fsync), with `mode`:
    what both a replace and a create-only write put in place of the target."""
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as binary:
            binary.write(data)
            binary.flush()
            fsync(binary.fileno())
        os.chmod(tmp_name, mode)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    return tmp_name


def _replace(
    target: Path, data: bytes, fsync: Callable[[int], None], unchanged: Callable[[], None] | None
) -> None:
    mode = target.stat().st_mode & 0o777 if target.exists() else _default_mode()
    tmp_name = _written_beside(target, data, fsync, mode, ".tmp")
    try:
        if unchanged is not None:
            unchanged()
        os.replace(tmp_name, target)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    dir_fd = os.open(target.parent, os.O_RDONLY)
    try:
        fsync(dir_fd)
    finally:
        os.close(dir_fd)


class AlreadyThere(FileExistsError):
    """`create_new` found a file at the path: it was left as it was."""


def create_new(path: Path, text: str | bytes, *, fsync: Callable[[int], None] = os.fsync) -> None:
    """Write a new file whole, never over one: AlreadyThere if the path exists at the moment
    of writing (a person saved it meanwhile), the file then untouched.

    The text goes to a temporary file first (fsync), which is then hard-linked to the
    path: the link is refused by the OS if the path exists, so the check and the write are
    one step, and a reader sees the whole file or none. Where hard links are not to be had
    (some network or FAT drives), an exclusive create (`O_EXCL`) is the same check.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    target = Path(path)
    try:
        tmp_name = _written_beside(target, data, fsync, _default_mode(), ".new")
        try:
            try:
                os.link(tmp_name, target)
            except FileExistsError:
                raise AlreadyThere(str(target)) from None
            except OSError:  # no hard links here: an exclusive create is the same check
                _create_exclusive(target, data, fsync)
        finally:
            Path(tmp_name).unlink(missing_ok=True)
    except AlreadyThere:
        raise
    except OSError as err:
        reason = err.strerror or str(err)
        raise OutputError(f"{path}: cannot write: {reason}; nothing was written") from None


def _create_exclusive(target: Path, data: bytes, fsync: Callable[[int], None]) -> None:
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        raise AlreadyThere(str(target)) from None
    with os.fdopen(fd, "wb") as binary:
        binary.write(data)
        binary.flush()
        fsync(binary.fileno())


def write_new_files(files: dict[Path, str], *, force: bool, what: str = "importing") -> list[Path]:
    """An import's files: refused whole when any exists (unless `force`), then each written
    atomically; without `force` each is created only if still absent at the moment of
    writing, so a file a person saves meanwhile is kept (one line names it)."""
    from cardkit.errors import UsageError

    clashes = [path for path in files if path.exists()]
    if clashes and not force:
        raise UsageError(
            f"{len(clashes)} file(s) already exist, e.g. {clashes[0]}; nothing was written "
            "(use --force to overwrite, --dry-run to see the plan)"
        )
    for path, text in files.items():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            reason = err.strerror or str(err)
            raise OutputError(f"{path.parent}: cannot make the folder: {reason}") from None
        if force:
            atomic_write(path, text)
            continue
        try:
            create_new(path, text)
        except AlreadyThere:
            raise UsageError(
                f"{path} appeared while {what}; not overwritten (use --force)"
            ) from None
    return list(files)
