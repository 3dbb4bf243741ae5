"""`path:line:col: CODE message`, one line each, then a summary line."""

from __future__ import annotations

from typing import TextIO

from cardkit.model import Severity, printable
from cardkit.report.findings import Findings, as_text


def summary(report: Findings) -> str:
    files = f"{report.files_checked} file{'s' if report.files_checked != 1 else ''}"
    if not report.count:
        return f"{files} checked: no problems"
    return f"{files} checked: {report.errors} error(s), {report.warnings} warning(s)"


def write(report: Findings, out: TextIO) -> None:
    for d in report.sorted():
        level = "" if d.severity is Severity.ERROR else f"[{d.severity.value}] "
        where = f"{printable(d.path)}:{d.line}:{d.column}"
        out.write(f"{where}: {d.code} {level}{printable(d.message)}\n")
    out.write(summary(report) + "\n")


render = as_text(write)
