"""OCR engines for benchmarks/hostile.py, loaded as plug-ins (`--engine _hostile_engines:Gate`)
from any cardkit checkout, so the same attacks run against the code before and after."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any


class Gate:
    """Reads nothing once $CARDKIT_TEST_GATE exists; creates `<gate>.reading` first."""

    name = "gate"

    def version(self) -> str:
        return "0"

    def read(self, image: Any, mode: Any, *, key: str, whitelist: str = "") -> Any:
        from cardkit.ocr.engine import Reading

        gate = Path(os.environ["CARDKIT_TEST_GATE"])
        gate.with_name(gate.name + ".reading").touch()
        deadline = time.monotonic() + 60
        while not gate.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        return Reading(())


class Hang:
    """Never returns."""

    name = "hang"

    def version(self) -> str:
        return "0"

    def read(self, image: Any, mode: Any, *, key: str, whitelist: str = "") -> Any:
        while True:
            time.sleep(60)
