"""Plain values passed between the stages: documents, diagnostics, reports."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from pathlib import Path
from typing import Any

Pointer = tuple[str | int, ...]


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Diagnostic:
    path: str
    line: int  # 1-based
    column: int  # 1-based
    code: str
    severity: Severity
    message: str
    pointer: str = ""  # JSON pointer into the document, "" for the whole file

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.code)


def json_pointer(parts: Pointer) -> str:
    """RFC 6901 pointer for a path of keys and indexes."""
    if not parts:
        return ""
    escaped = (str(p).replace("~", "~0").replace("/", "~1") for p in parts)
    return "/" + "/".join(escaped)


@dataclass
class Document:
    """One loaded card file: its data plus a lazy way to find positions in it."""

    path: Path
    display_path: str
    data: dict[str, Any]
    locate: Callable[..., tuple[int, int]]  # (pointer, *, key=False) -> (line, column)

    @cached_property
    def kind(self) -> str:  # asked for by every rule of every document: read once
        return str(self.data.get("kind", ""))

    @property
    def id(self) -> str | None:
        value = self.data.get("id")
        return value if isinstance(value, str) else None

    @property
    def system(self) -> str:
        return self.kind.split("/", 1)[0]


@dataclass
class Report:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files_checked: int = 0

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.WARNING)

    @property
    def count(self) -> int:
        return len(self.diagnostics)

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.diagnostics, key=Diagnostic.sort_key)


_CONTROL = {i: f"\\x{i:02x}" for i in [*range(32), 127]} | {
    ord("\n"): "\\n",
    ord("\r"): "\\r",
    ord("\t"): "\\t",
    0x85: "\\x85",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def spreadsheet_safe(value: object) -> object:
    """A CSV cell a spreadsheet will not run: text starting with `=`, `+`, `-`, `@`, a tab or
    a carriage return gets a leading `'` (OWASP's advice against CSV injection); a plain
    number (`-1`, `+2.5`) is no formula and stays as it is. The one rule of every CSV
    cardkit writes (checklists, `export csv`, image manifests)."""
    if (
        isinstance(value, str)
        and value[:1] in FORMULA_STARTS
        and not _PLAIN_NUMBER.fullmatch(value)
    ):
        return "'" + value
    return value


def printable(text: str) -> str:
    """Text for a one-line message: control characters and line breaks escaped.

    A file named `a\\nb.yaml` prints as `a\\nb.yaml`, so it cannot forge a second line.
    """
    return text.translate(_CONTROL)
