"""OCR engines that fail on purpose, loaded as plug-in engines (`--engine tests.ocr_engines:Crash`):
one engine failure fails one scan, not the batch; the per-image timeout; a worker that dies."""

from __future__ import annotations

import os
import time
from pathlib import Path

from PIL import Image

from cardkit.ocr.engine import Mode, Reading


class Crash:
    """Fails on every image: tests that one engine failure fails one scan, not the batch."""

    name = "crash"

    def version(self) -> str:
        return "0"

    def read(self, image: Image.Image, mode: Mode, *, key: str, whitelist: str = "") -> Reading:
        raise RuntimeError(f"test engine crashed on {key}")


class Hang:
    """Never returns: tests the per-image timeout."""

    name = "hang"

    def version(self) -> str:
        return "0"

    def read(self, image: Image.Image, mode: Mode, *, key: str, whitelist: str = "") -> Reading:
        while True:
            time.sleep(60)


class Die:
    """Kills its own process on its first read: tests a worker that dies mid-scan."""

    name = "die"

    def version(self) -> str:
        return "0"

    def read(self, image: Image.Image, mode: Mode, *, key: str, whitelist: str = "") -> Reading:
        import os
        import signal

        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("unreachable")


class Gate:
    """Reads nothing, once a file exists: on its first read it creates `<GATE>.reading`,
    then waits (at most a minute) for GATE (the path in $CARDKIT_TEST_GATE). Tests what
    happens while a scan is being read (a draft saved by hand meanwhile) without a race."""

    name = "gate"

    def version(self) -> str:
        return "0"

    def read(self, image: Image.Image, mode: Mode, *, key: str, whitelist: str = "") -> Reading:
        gate = Path(os.environ["CARDKIT_TEST_GATE"])
        gate.with_name(gate.name + ".reading").touch()
        deadline = time.monotonic() + 60
        while not gate.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        return Reading(())
