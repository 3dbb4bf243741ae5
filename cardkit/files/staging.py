"""Write an output folder as a whole: build into a sibling folder, then swap it in.

A run killed at any point (SIGINT, SIGKILL, a full disk) leaves the previous output
folder as it was, or the new one complete: never new reports beside old proofs. On
Linux the swap is one `renameat2(RENAME_EXCHANGE)`; elsewhere it is two renames, and
the next run repairs the one gap between them (`recover`).

Entries of the old folder that the build does not make (a `.gitkeep`, a file a person
put there) are carried into the new one as hard links (copies across devices).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
from collections.abc import Iterable
from pathlib import Path

from cardkit.errors import InputError

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
NEW_MARK = ".new-"
OLD_MARK = ".old-"


def _libc_renameat2() -> object | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        return getattr(libc, "renameat2", None)
    except OSError:
        return None


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step; False when the system cannot (the caller falls back)."""
    renameat2 = _libc_renameat2()
    if renameat2 is None:
        return False
    result = renameat2(  # type: ignore[operator]
        _AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE
    )
    return bool(result == 0)


def _siblings(out: Path, mark: str) -> list[Path]:
    return sorted(out.parent.glob(f".{out.name}{mark}*"))


def recover(out: Path) -> None:
    """Undo what a killed run left: restore a moved-away folder, drop half-built ones."""
    olds = _siblings(out, OLD_MARK)
    if not out.exists() and olds:
        os.rename(olds[-1], out)
        olds = olds[:-1]
    for leftover in [*olds, *_siblings(out, NEW_MARK)]:
        shutil.rmtree(leftover, ignore_errors=True)


def check_target(out: Path, root: Path) -> Path:
    """The real folder to write (symlinks followed); refuses a file or the repository itself."""
    real = out.resolve()
    if real.exists() and not real.is_dir():
        raise InputError(f"{out}: --out must be a folder, and this is a file")
    repo = root.resolve()
    if real == repo or real in repo.parents or real in (repo / "cards").resolve().parents:
        raise InputError(f"{out}: --out would replace the repository; name an output folder")
    for part in ("cards", "scans"):
        source = (repo / part).resolve()
        if real == source or real in source.parents or source in real.parents:
            raise InputError(f"{out}: --out must lie outside {part}/")
    return real


def start(out: Path) -> Path:
    """A fresh, empty staging folder beside `out`."""
    out.parent.mkdir(parents=True, exist_ok=True)
    recover(out)
    staged = out.parent / f".{out.name}{NEW_MARK}{os.getpid()}"
    shutil.rmtree(staged, ignore_errors=True)
    staged.mkdir()
    return staged


def _link_or_copy(source: Path, target: Path) -> None:
    if source.is_dir() and not source.is_symlink():
        shutil.copytree(source, target, symlinks=True, copy_function=_link_file)
    else:
        _link_file(source, target)


def _link_file(source: str | Path, target: str | Path) -> None:
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError:
        shutil.copy2(source, target, follow_symlinks=False)


def carry(old: Path, staged: Path, names: Iterable[str]) -> None:
    """Bring entries of the old folder into the staged one (links, not copies, when possible)."""
    for name in names:
        source = old / name
        if (source.exists() or source.is_symlink()) and not (staged / name).exists():
            _link_or_copy(source, staged / name)


def carry_foreign(old: Path, staged: Path, made_before: set[str]) -> None:
    """Keep every entry of the old folder that no build made (by the previous manifest)."""
    if not old.is_dir():
        return
    carry(old, staged, (p.name for p in old.iterdir() if p.name not in made_before))


def commit(staged: Path, out: Path) -> None:
    """Put the staged folder at `out`; the old one is removed after."""
    _fsync_dir(staged)
    if not out.exists():
        os.rename(staged, out)
    elif _exchange(staged, out):
        shutil.rmtree(staged)  # now holds the old outputs
    else:
        aside = out.parent / f".{out.name}{OLD_MARK}{os.getpid()}"
        os.rename(out, aside)
        os.rename(staged, out)
        shutil.rmtree(aside, ignore_errors=True)
    _fsync_dir(out.parent)


def abandon(staged: Path) -> None:
    shutil.rmtree(staged, ignore_errors=True)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
