"""`path:line:col: CODE message`, one line each, then a summary line."""

from __future__ import annotations

from cardkit.model import Report, Severity, printable


def summary(report: Report) -> str:
    files = f"{report.files_checked} file{'s' if report.files_checked != 1 else ''}"
    if not report.diagnostics:
        return f"{files} checked: no problems"
    return f"{files} checked: {report.errors} error(s), {report.warnings} warning(s)"


def render(report: Report) -> str:
    lines = []
    for d in report.sorted():
        level = "" if d.severity is Severity.ERROR else f"[{d.severity.value}] "
        where = f"{printable(d.path)}:{d.line}:{d.column}"
        lines.append(f"{where}: {d.code} {level}{printable(d.message)}")
    lines.append(summary(report))
    return "\n".join(lines) + "\n"
