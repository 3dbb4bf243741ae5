"""The batch's worker processes: each reads scan after scan until the batch ends.

Workers are forked from the batch's parent after `batch.warm`, so each starts with the
pipeline, the templates and tesseract's model already loaded, and keeps them for every
scan it reads (a process per scan paid a fork, its exit and copy-on-write faults on the
model each time: a third again of a small scan's time). A worker whose scan times out is
killed, and one that dies is replaced: that scan fails alone, the batch goes on.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_for
from pathlib import Path
from typing import Any

from cardkit.ocr.scan import ScanResult, Settings, scan_once

POLL = 0.05  # seconds between looks at the clock while workers read
WATCHDOG = 0.5  # seconds between a worker's looks at whether its parent is still there


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _end_with(parent: int) -> None:
    """This worker ends when the batch's parent does, however it ends (kill -9 included):
    on Linux the kernel sends SIGKILL when the parent dies (PR_SET_PDEATHSIG); everywhere a
    watchdog thread sees the parent gone (the worker is handed to another parent) and exits."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it died before the line above took effect
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCHDOG)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def _serve(settings: Settings, conn: Connection, parent: int) -> None:
    # Ctrl-C reaches the whole process group: the batch's parent decides, and ends its
    # workers itself (a worker's own KeyboardInterrupt would print a traceback)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler: just end
    _end_with(parent)
    os.environ["OMP_THREAD_LIMIT"] = "1"
    while True:
        try:
            path = conn.recv()
        except EOFError:  # the batch has gone
            return
        if path is None:
            return
        conn.send(scan_once(path, settings))


class Worker:
    """One worker process and the scan it is reading, if any."""

    def __init__(self, context: Any, settings: Settings) -> None:
        self.conn, theirs = context.Pipe(duplex=True)
        self.process = context.Process(
            target=_serve, args=(settings, theirs, os.getpid()), daemon=True
        )
        self.process.start()
        theirs.close()
        self.task: tuple[int, Path, float] | None = None
        self.dead = False

    @property
    def busy(self) -> bool:
        return self.task is not None

    def give(self, index: int, path: Path) -> bool:
        """Hand the worker a scan; False when it has died since its last one (the scan was
        not started: give it to another)."""
        try:
            self.conn.send(path)
        except OSError:
            self.dead = True
            self.stop()
            return False
        self.task = (index, path, time.monotonic())
        return True

    def collect(self, timeout: float) -> tuple[int, ScanResult] | None:
        """The finished scan's index and result; a failed one when the worker died or its
        scan ran past `timeout` (the worker is then killed); None while it reads."""
        if self.task is None:
            return None
        index, path, started = self.task
        result = None
        alive = self.process.is_alive()  # before the pipe: a result sent before dying counts
        if self.conn.poll():
            try:
                result = self.conn.recv()
            except EOFError:
                result = self._gone(f"{path}: worker died{self._how()}")
        elif not alive:
            result = self._gone(f"{path}: worker died{self._how()}")
        elif time.monotonic() - started > timeout:
            self.process.kill()
            result = self._gone(f"{path}: timed out after {timeout:g} s")
        if result is None:
            return None
        self.task = None
        return index, result

    def _how(self) -> str:
        self.process.join(timeout=5)
        code = self.process.exitcode
        if code is None or code == 0:
            return ""
        return f" ({signal.Signals(-code).name})" if code < 0 else f" (exit {code})"

    def _gone(self, message: str) -> ScanResult:
        self.dead = True
        self.process.join(timeout=5)
        self.conn.close()
        assert self.task is not None
        path, seconds = self.task[1], round(time.monotonic() - self.task[2], 3)
        return ScanResult(str(path), False, message, seconds=seconds, worker=self.process.pid or 0)

    def stop(self, now: bool = False) -> None:
        """End the worker: asked to, after its scan; `now`, killed (the batch was stopped)."""
        if now and self.process.is_alive():
            self.process.kill()
        if not self.conn.closed:
            if not self.dead and not now:
                with contextlib.suppress(OSError):  # it has gone already
                    self.conn.send(None)
            self.conn.close()
        self.process.join(timeout=1)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=5)


def wait(pool: list[Worker]) -> None:
    """Until a busy worker sends, dies, or POLL seconds pass (timeouts are checked then)."""
    busy = [w for w in pool if w.busy]
    if busy:
        wait_for([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout=POLL)
