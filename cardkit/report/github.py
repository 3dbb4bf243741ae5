"""GitHub Actions workflow commands: `::error file=...,line=...,col=...::message`."""

from __future__ import annotations

from typing import TextIO

from cardkit.model import Severity
from cardkit.report.findings import Findings, as_text
from cardkit.report.text import summary

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def write(report: Findings, out: TextIO) -> None:
    for d in report.sorted():
        out.write(
            f"::{_LEVEL[d.severity]} file={_escape_property(d.path)},line={d.line},col={d.column},"
            f"title={_escape_property(d.code)}::{_escape_data(d.code + ' ' + d.message)}\n"
        )
    out.write(summary(report) + "\n")


render = as_text(write)
