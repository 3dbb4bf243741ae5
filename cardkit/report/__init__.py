"""Reporters: each writes a report in one output format (or returns it as text)."""

from __future__ import annotations

from collections.abc import Callable

from cardkit.report import github, json_report, sarif, text
from cardkit.report.findings import Findings, Writer

WRITERS: dict[str, Writer] = {
    "text": text.write,
    "json": json_report.write,
    "github": github.write,
    "sarif": sarif.write,
}
RENDERERS: dict[str, Callable[[Findings], str]] = {
    "text": text.render,
    "json": json_report.render,
    "github": github.render,
    "sarif": sarif.render,
}
