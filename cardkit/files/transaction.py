"""Read-edit-write of card files that loses nothing, for one file or several at once.

Each file is held under an advisory lock (files/locks.py: on the file itself, re-taken if
the file was replaced while waiting), so two cardkit processes editing one file take turns
and the second sees the first one's work. A person's editor takes no lock, so just
before each rename the file's identity, size, mtime and content hash are compared with
what was read: if it changed, the edit is thrown away and done again on the new text.
Several files are all-or-nothing: every new text is made (and may be refused) before the
first write, and if a write fails the files already written are put back.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cardkit.errors import CardkitError, ExitCode, InputError
from cardkit.files import locks, yamlio

ATTEMPTS = 5

Edit = Callable[[dict[Path, str]], dict[Path, str]]


class Changed(Exception):
    """The file on disk is no longer the one that was read."""


class Conflict(CardkitError):
    exit_code = ExitCode.FINDINGS


@dataclass
class _Held:
    path: Path  # as the caller named it
    target: Path  # symlinks followed: what is read, locked and replaced
    fd: int
    raw: bytes
    stamp: tuple[int, int, int, int]
    digest: str
    marker: Path | None = None  # the lock file, where no lock API exists

    def unchanged(self) -> None:
        try:
            now = _stamp(self.target)
            raw = yamlio.read_bytes(self.target)
        except (OSError, yamlio.YamlProblem):
            raise Changed(self.path) from None
        if now != self.stamp or hashlib.sha256(raw).hexdigest() != self.digest:
            raise Changed(self.path)


def _stamp(target: Path) -> tuple[int, int, int, int]:
    info = os.stat(target)
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def problem_line(path: Path, problem: yamlio.YamlProblem) -> str:
    return f"{path}:{problem.line}:{problem.column}: {problem.code} {problem.message}"


def _lock(path: Path) -> _Held:
    """Open, lock and read one file; the lock is on the inode that the path names now."""
    target = Path(os.path.realpath(path))
    fd = -1
    marker: Path | None = None
    try:
        while True:
            fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK)
            opened = os.fstat(fd)
            if not stat.S_ISREG(opened.st_mode):
                raise InputError(f"{path}: not a regular file; nothing was written")
            if not locks.hold(fd):  # no lock API (fcntl, msvcrt): a lock file beside it
                marker = locks.marker_for(target)
                locks.take(marker)
            try:
                now = os.stat(target)
            except FileNotFoundError:
                now = None
            if now is not None and (now.st_dev, now.st_ino) == (opened.st_dev, opened.st_ino):
                break
            os.close(fd)  # replaced while we waited: lock the new file instead
            fd = -1
            _release(marker)
            marker = None
        while True:
            before = _stamp(target)
            raw = yamlio.read_bytes(target)
            if _stamp(target) == before:
                break
    except BaseException as err:
        if fd >= 0:
            os.close(fd)
        _release(marker)
        if isinstance(err, yamlio.YamlProblem):
            raise InputError(problem_line(path, err) + "; nothing was written") from None
        if isinstance(err, OSError):
            raise InputError(f"{path}: cannot read: {err.strerror or err}") from None
        raise
    return _Held(path, target, fd, raw, before, hashlib.sha256(raw).hexdigest(), marker)


def _release(marker: Path | None) -> None:
    if marker is not None:
        marker.unlink(missing_ok=True)


def _decode(held: _Held) -> str:
    try:
        return yamlio.decode(held.raw)
    except yamlio.YamlProblem as problem:
        raise InputError(problem_line(held.path, problem) + "; nothing was written") from None


def update(paths: list[Path], edit: Edit) -> list[Path]:
    """Apply edit to the texts of paths under their locks; write what changed; all or nothing.

    edit gets {path: text} and returns {path: new text}; it may raise to refuse, and
    it may run more than once (each time on fresh texts) if a file changes meanwhile.
    Returns the paths written, in the order given.
    """
    unique = list({os.path.realpath(p): p for p in paths}.values())
    for _ in range(ATTEMPTS):
        held: list[_Held] = []
        try:
            for path in sorted(unique, key=os.path.realpath):  # one order: no deadlock
                held.append(_lock(path))
            texts = {h.path: _decode(h) for h in held}
            new = edit(dict(texts))
            changed = [h for h in held if new.get(h.path, texts[h.path]) != texts[h.path]]
            try:
                _write_all(changed, new)
            except Changed:
                continue
            order = {p: i for i, p in enumerate(paths)}
            return sorted((h.path for h in changed), key=lambda p: order.get(p, 0))
        finally:
            for h in held:
                os.close(h.fd)
                _release(h.marker)
    names = ", ".join(str(p) for p in unique)
    raise Conflict(
        f"{names}: changed by someone else {ATTEMPTS} times while cardkit was updating it; "
        "nothing was written, try again"
    )


def _write_all(held: list[_Held], new: dict[Path, str]) -> None:
    for h in held:
        h.unchanged()  # cheap pre-check: a late conflict would need a roll-back
    done: list[_Held] = []
    try:
        for h in held:
            yamlio.atomic_write(h.target, new[h.path], unchanged=h.unchanged)
            done.append(h)
    except (Changed, yamlio.OutputError) as err:
        restored = _roll_back(done, new)
        if isinstance(err, Changed) and len(restored) == len(done):
            raise  # as if never written: try again on the new text
        written = ", ".join(str(h.path) for h in done if h not in restored)
        kept = f"; left as written: {written}" if written else "; nothing was written"
        reason = str(err).removesuffix("; nothing was written")
        if isinstance(err, Changed):
            reason = f"{err.args[0]}: changed by someone else while cardkit was writing"
        raise yamlio.OutputError(reason + kept) from None


def _roll_back(done: list[_Held], new: dict[Path, str]) -> list[_Held]:
    """Put back the files already written, unless someone changed them since."""
    restored = []
    for h in done:
        wrote = new[h.path].encode("utf-8")

        def still_ours(h: _Held = h, wrote: bytes = wrote) -> None:
            if yamlio.read_bytes(h.target) != wrote:
                raise Changed(h.path)

        try:
            yamlio.atomic_write(h.target, h.raw, unchanged=still_ours)
        except (Changed, yamlio.OutputError, OSError):
            continue
        restored.append(h)
    return restored
