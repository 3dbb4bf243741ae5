"""The JSON contract (version 1); documented in docs/json-output.md. Keep it stable."""

from __future__ import annotations

import json

from cardkit.model import Report

VERSION = 1


def render(report: Report) -> str:
    payload = {
        "version": VERSION,
        "tool": "cardkit",
        "diagnostics": [
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
        ],
        "summary": {
            "files": report.files_checked,
            "errors": report.errors,
            "warnings": report.warnings,
            "ok": report.errors == 0,
        },
    }
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
