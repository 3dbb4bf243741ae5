"""OCR engines that fail on purpose, loaded as plug-in engines (`--engine tests.ocr_engines:Crash`):
one engine failure fails one scan, not the batch; the per-image timeout; a worker that dies."""

from __future__ import annotations

import time

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
