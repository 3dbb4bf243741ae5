"""The command line: a thin face over the library. Parse, call the core, report, exit.

One module per command group; each registers its commands on the shared `app` when
imported. To add a command group, add a module here and import it below.
"""

from cardkit.cli import (
    build,
    check,
    exchange,
    gaps,
    new,
    ocr,
    palette,
    proof,
    review,
    schema,
    transcribe,
)
from cardkit.cli._app import app, main

__all__ = [
    "app",
    "build",
    "check",
    "exchange",
    "gaps",
    "main",
    "new",
    "ocr",
    "palette",
    "proof",
    "review",
    "schema",
    "transcribe",
]
