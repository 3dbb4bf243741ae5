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


def read_regular(path: Path, limit: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most `limit` bytes; one InputError line otherwise."""
    shown = printable(str(path))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as err:
        raise InputError(f"{shown}: cannot read: {err.strerror}") from None
    with open(fd, "rb") as stream:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = NODE_KINDS.get(stat.S_IFMT(info.st_mode), "pipe or device")
            raise InputError(f"{shown}: is a {kind}, not a {what}; nothing was read")
        if info.st_size > limit:
            raise InputError(f"{shown}: {info.st_size:,} bytes, over the {limit:,}-byte cap")
        try:
            data = stream.read(limit + 1)
        except OSError as err:
            raise InputError(f"{shown}: cannot read: {err.strerror}") from None
    if len(data) > limit:
        raise InputError(f"{shown}: over the {limit:,}-byte cap")
    return data
