"""Reading an input file with its size known before it is read.

Only a regular file is read: a FIFO would block for ever and `/dev/zero` (or a link to
it) never ends, so pipes, devices, sockets and folders are refused at once, without
waiting for a writer (`O_NONBLOCK`). The file's size is checked against a cap before
reading, and the read itself stops one byte past the cap (a file growing meanwhile).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from cardkit.errors import InputError
from cardkit.files.atomic import NODE_KINDS
from cardkit.model import printable


class NotRegular(Exception):
    """The path is a pipe, device, socket or folder (`kind` says which): nothing was read."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


class OverCap(Exception):
    """The file holds more than the cap (`size`: its size, or at least cap + 1)."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


def read_capped(path: Path, limit: int) -> bytes:
    """The one way cardkit reads an input whole: a regular file of at most `limit` bytes.
    Raises OSError (cannot open or read), NotRegular or OverCap; callers word them."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with open(fd, "rb") as stream:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(NODE_KINDS.get(stat.S_IFMT(info.st_mode), "pipe or device"))
        if info.st_size > limit:
            raise OverCap(info.st_size)
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise OverCap(len(data))
    return data


def read_regular(path: Path, limit: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most `limit` bytes; one InputError line otherwise."""
    shown = printable(str(path))
    try:
        return read_capped(path, limit)
    except OSError as err:
        raise InputError(f"{shown}: cannot read: {err.strerror}") from None
    except NotRegular as refused:
        raise InputError(f"{shown}: is a {refused.kind}, not a {what}; nothing was read") from None
    except OverCap as over:
        raise InputError(f"{shown}: {over.size:,} bytes, over the {limit:,}-byte cap") from None
