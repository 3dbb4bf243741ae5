"""What the validate reporters read: counts, and the diagnostics in order.

A `Report` holds its diagnostics in a list (build keeps them); a `SpooledReport` keeps
only the counts and lets a Spool hold the diagnostics on disk until they are written, so
validating a tree of any size holds no more than one run of them in memory.
"""

from __future__ import annotations

import io
import operator
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, TextIO

from cardkit.files.spool import Spool
from cardkit.model import Diagnostic, Severity


class Findings(Protocol):
    @property
    def files_checked(self) -> int: ...
    @property
    def errors(self) -> int: ...
    @property
    def warnings(self) -> int: ...
    @property
    def count(self) -> int: ...
    def sorted(self) -> Iterable[Diagnostic]: ...


Row = tuple[str, int, int, str, Severity, str, str]  # a Diagnostic's fields: 4x cheaper to spool


class SpooledReport:
    """Counts as diagnostics arrive; `sorted()` gives them once, in the report's order."""

    def __init__(self) -> None:
        self.files_checked = 0
        self.errors = 0
        self.warnings = 0
        self.spool: Spool[Row] = Spool(operator.itemgetter(0, 1, 2, 3))  # Diagnostic.sort_key

    @property
    def count(self) -> int:
        return len(self.spool)

    def add(self, diagnostic: Diagnostic) -> None:
        if diagnostic.severity is Severity.ERROR:
            self.errors += 1
        elif diagnostic.severity is Severity.WARNING:
            self.warnings += 1
        d = diagnostic
        self.spool.add((d.path, d.line, d.column, d.code, d.severity, d.message, d.pointer))

    def sorted(self) -> Iterator[Diagnostic]:
        return (Diagnostic(*row) for row in self.spool.drain())


Writer = Callable[[Findings, TextIO], None]


def as_text(write: Writer) -> Callable[[Findings], str]:
    """A writer as a function returning the whole text (for build's files and the tests)."""

    def render(report: Findings) -> str:
        out = io.StringIO()
        write(report, out)
        return out.getvalue()

    return render
