"""Advisory locks that work on Linux, macOS and Windows, and without either API.

`hold(fd)` locks an open file for the life of its descriptor (closing it lets go):
`fcntl.flock` where there is fcntl (Linux, macOS), `msvcrt.locking` on Windows (one
byte far past the end, so the lock never stops anybody from reading the file), and
nothing where neither exists: callers that edit files also compare the file with what
they read just before replacing it (transaction.py), so a lost lock costs a retry,
never an edit.

`marker_for(path)` and `take(marker)` are that last fallback for one file: a hidden
`.<name>.cardkit-lock` beside it, removed by its holder when done.

`exclusive(folder, name)` is a lock for a whole job (one `cardkit build` per output
folder): `flock` on the folder itself where there is fcntl, else a lock file in it,
held by the OS on Windows, otherwise created exclusively (`O_EXCL`) with its process id
and taken over when that process has gone. Whoever waits is told, once (`on_wait`).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

try:
    import fcntl as _fcntl
except ImportError:  # Windows
    _fcntl = None  # type: ignore[assignment]
try:
    import msvcrt as _msvcrt
except ImportError:  # everywhere but Windows
    _msvcrt = None  # type: ignore[assignment]

FAR = 2**31 - 2  # msvcrt's offsets are 32-bit: the last byte it can lock
POLL = 0.1  # seconds between tries where a lock cannot be waited for


def _try(fd: int) -> bool | None:
    """Try to lock fd without waiting: True taken, False held by another, None: no API."""
    if _fcntl is not None:
        try:
            _fcntl.flock(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    if _msvcrt is not None:
        here = os.lseek(fd, 0, os.SEEK_CUR)
        os.lseek(fd, FAR, os.SEEK_SET)
        try:
            _msvcrt.locking(fd, _msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        finally:
            os.lseek(fd, here, os.SEEK_SET)
        return True
    return None


def hold(fd: int, on_wait: Callable[[], None] | None = None) -> bool:
    """Lock an open file, waiting for another holder; False where no lock API exists."""
    told = False
    while True:
        taken = _try(fd)
        if taken is None:
            return False
        if taken:
            return True
        if on_wait is not None and not told:
            on_wait()
            told = True
        if _fcntl is not None:
            _fcntl.flock(fd, _fcntl.LOCK_EX)  # the OS wakes us when it is free
            return True
        time.sleep(POLL)


def marker_for(path: Path) -> Path:
    """The lock file that stands for `path`'s lock where no lock API exists (hidden: the
    loader's walk skips it)."""
    return path.with_name(f".{path.name}.cardkit-lock")


def _holder(path: Path) -> int | None:
    with contextlib.suppress(OSError, ValueError):
        return int(path.read_text(encoding="ascii").strip() or "0") or None
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


@contextlib.contextmanager
def exclusive(
    folder: Path, name: str, on_wait: Callable[[int | None], Any] | None = None
) -> Iterator[None]:
    """Hold a lock for a job on `folder` for the block; `on_wait(pid or None)` is called
    once if another process holds it (and the block waits for it to let go).

    With fcntl the folder itself is locked (no file is left behind); elsewhere the lock
    is the file `folder/name`: its OS lock on Windows (the file stays), else its exclusive
    creation (removed when the block ends)."""
    if _fcntl is not None:
        fd = os.open(folder, os.O_RDONLY)
        try:
            hold(fd, (lambda: on_wait(None)) if on_wait else None)
            yield
        finally:
            os.close(fd)
        return
    path = folder / name
    if _msvcrt is not None:  # Windows: the OS lock on a lock file, which stays
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            hold(fd, (lambda: on_wait(_holder(path))) if on_wait else None)
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode("ascii"))
            yield
        finally:
            os.close(fd)
        return
    marker = path  # no lock API at all: the file's exclusive creation is the lock
    take(marker, on_wait)
    try:
        yield
    finally:
        marker.unlink(missing_ok=True)


def take(marker: Path, on_wait: Callable[[int | None], Any] | None = None) -> None:
    """Create `marker` exclusively with this process's id, waiting while a live process
    holds it and taking it over from a dead one: the lock where no lock API exists."""
    told = False
    while True:
        try:
            fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            pid = _holder(marker)
            with contextlib.suppress(OSError):  # just made, its pid not yet written: wait
                if pid is None and time.time() - marker.stat().st_mtime < 5:
                    time.sleep(POLL)
                    continue
            if pid is None or not _alive(pid):  # its holder has gone: take it over
                marker.unlink(missing_ok=True)
                continue
            if on_wait is not None and not told:
                on_wait(pid)
                told = True
            time.sleep(POLL)
            continue
        with os.fdopen(fd, "w", encoding="ascii") as stream:
            stream.write(f"{os.getpid()}\n")
        return
