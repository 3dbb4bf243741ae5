"""SARIF 2.1.0, for code-scanning dashboards."""

from __future__ import annotations

from typing import TextIO

from cardkit import __version__
from cardkit.model import Severity
from cardkit.report import jsonstream
from cardkit.report.findings import Findings, as_text

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _rules() -> list[dict[str, object]]:
    from cardkit.check.rules import all_rules

    return [
        {
            "id": rule.code,
            "shortDescription": {"text": rule.doc},
            "properties": {"system": rule.system},
        }
        for rule in all_rules()
    ]


def write(report: Findings, out: TextIO) -> None:
    results = (
        {
            "ruleId": d.code,
            "level": _LEVEL[d.severity],
            "message": {"text": d.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": d.path},
                        "region": {"startLine": d.line, "startColumn": d.column},
                    }
                }
            ],
            **({"properties": {"pointer": d.pointer}} if d.pointer else {}),
        }
        for d in report.sorted()
    )

    def log() -> dict[str, object]:
        return {
            "$schema": SCHEMA,
            "version": "2.1.0",
            "runs": [
                {
                    "tool": {
                        "driver": {
                            "name": "cardkit",
                            "version": __version__,
                            "rules": _rules(),
                        }
                    },
                    "results": jsonstream.HOLE,
                }
            ],
        }

    jsonstream.write(out, log, results)


render = as_text(write)
