"""Reporters: each turns a Report into the text of one output format."""

from __future__ import annotations

from collections.abc import Callable

from cardkit.model import Report
from cardkit.report import github, json_report, sarif, text

RENDERERS: dict[str, Callable[[Report], str]] = {
    "text": text.render,
    "json": json_report.render,
    "github": github.render,
    "sarif": sarif.render,
}
