"""The JSON contract (version 1); documented in docs/json-output.md. Keep it stable."""

from __future__ import annotations

from typing import TextIO

from cardkit.report import jsonstream
from cardkit.report.findings import Findings, as_text

VERSION = 1


def write(report: Findings, out: TextIO) -> None:
    items = (
        {
            "path": d.path,
            "line": d.line,
            "column": d.column,
            "code": d.code,
            "severity": d.severity.value,
            "message": d.message,
            "pointer": d.pointer,
        }
        for d in report.sorted()
    )

    def payload() -> dict[str, object]:
        return {
            "version": VERSION,
            "tool": "cardkit",
            "diagnostics": jsonstream.HOLE,
            "summary": {
                "files": report.files_checked,
                "errors": report.errors,
                "warnings": report.warnings,
                "ok": report.errors == 0,
            },
        }

    jsonstream.write(out, payload, items, ensure_ascii=False)


render = as_text(write)
