"""A second opinion: what a scan reads, against the card's existing YAML.

`cardkit ocr SCAN --check cards/...` compares each field the scan's draft read with the
value the matching document holds, and says agree or disagree with the read confidence.
It never edits a card file: it writes the confirmation checklist (the CSV `cardkit
confirm --batch` takes) with the read value in `value` and `evidence` naming the scan,
for a person to review, sign with `--by` and apply.

A scan names its card by file name (the document's id, or a card code such as 01097a),
or explicitly with `--against ID[/ADDRESS]` (ADDRESS: where in that document the card's
fields live, e.g. `klaw/masterplan/cards/4`).
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardkit import addresses
from cardkit.errors import UsageError
from cardkit.model import Document

QUOTES = str.maketrans("’‘“”", "''\"\"")


@dataclass
class Comparison:
    scan: str
    path: str  # the card file
    document: str
    address: str
    read: Any
    current: Any
    confidence: float
    present: bool  # the file has the field at all

    @property
    def agree(self) -> bool:
        return self.present and same(self.read, self.current)


def _norm(value: Any) -> str:
    text = unicodedata.normalize("NFC", str(value))
    text = text.translate(QUOTES)
    return re.sub(r"\s+", " ", text).strip().casefold()


def same(read: Any, current: Any) -> bool:
    if isinstance(read, int | float) and not isinstance(read, bool):
        return isinstance(current, int | float) and read == current
    return _norm(read) == _norm(current)


def find_target(
    draft: dict[str, Any], stem: str, documents: list[Document], against: str | None
) -> tuple[Document, str] | None:
    """The document (and address prefix) a draft is compared with."""
    if against:
        ident, _, prefix = against.partition("/")
        hits = [d for d in documents if isinstance(d.data, dict) and d.data.get("id") == ident]
        if not hits:
            raise UsageError(f"--against {against}: no document with id '{ident}' under --check")
        if prefix:
            try:
                addresses.resolve(hits[0].data, prefix)
            except UsageError as err:
                raise UsageError(f"--against {against}: {hits[0].path}: {err}") from None
        return hits[0], prefix
    names = {stem.casefold(), str(draft.get("code", "")).casefold()} - {""}
    for document in documents:
        data = document.data if isinstance(document.data, dict) else {}
        if (
            str(data.get("id", "")).casefold() in names
            or str(data.get("code", "")).casefold() in names
        ):
            return document, ""
    return None


def compare(draft: dict[str, Any], scan: str, document: Document, prefix: str) -> list[Comparison]:
    confidences = draft.get("provenance", {}).get("confidences", {})
    out = []
    for field, confidence in confidences.items():
        read = _lookup(draft, field)
        address = f"{prefix}/{field}" if prefix else field
        try:
            _, current = addresses.resolve(document.data, address)
            present = True
        except UsageError:  # the document has no such field
            current, present = None, False
        head, _, rest = field.partition("/")
        if prefix and not present and rest and isinstance(draft.get(head), dict):
            # a one-card draft keeps its card under one key (`card/move`); inside a
            # larger document the card's fields sit at the address itself (`.../4/move`)
            try:
                _, current = addresses.resolve(document.data, f"{prefix}/{rest}")
                address, present = f"{prefix}/{rest}", True
            except UsageError:
                pass
        out.append(
            Comparison(
                scan,
                str(document.path),
                str(document.data.get("id", "")),
                address,
                read,
                current,
                float(confidence),
                present,
            )
        )
    return out


def _lookup(data: dict[str, Any], path: str) -> Any:
    node: Any = data
    for part in path.split("/"):
        node = node[part]
    return node


def checklist(comparisons: list[Comparison], gap_rows: list[Any]) -> str:
    """The confirm --batch CSV: open gaps the scan read, and fields it reads differently."""
    from cardkit.report.gaps_report import CSV_COLUMNS

    stream = io.StringIO()
    writer = csv.DictWriter(stream, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    by_address = {(c.path, c.address): c for c in comparisons}
    done = set()
    for gap in gap_rows:
        found = by_address.get((gap.path, gap.address))
        if found is None or gap.status != "open":
            continue
        record = gap.as_dict()
        record.update(_filled(found))
        writer.writerow({c: record.get(c, "") for c in CSV_COLUMNS})
        done.add((gap.path, gap.address))
    for found in comparisons:
        if (found.path, found.address) in done or found.agree:
            continue
        record = {
            "path": found.path,
            "document": found.document,
            "field": found.address,
            "address": found.address,
            "origin": "ocr",
            "status": "open",
            "why": "the scan reads a different value" if found.present else "the file lacks it",
            "current": ""
            if found.current is None
            else json.dumps(found.current, ensure_ascii=False),
            **_filled(found),
        }
        writer.writerow({c: record.get(c, "") for c in CSV_COLUMNS})
    return stream.getvalue()


def _filled(found: Comparison) -> dict[str, str]:
    verdict = "agrees with the file" if found.agree else "differs from the file"
    return {
        "value": json.dumps(found.read, ensure_ascii=False),
        "evidence": f"read by cardkit ocr from {found.scan} "
        f"({verdict}, OCR confidence {round(found.confidence * 100)}%)",
    }


def lines(comparisons: list[Comparison]) -> list[str]:
    out = []
    for c in comparisons:
        verdict = "agree" if c.agree else "disagree"
        has = json.dumps(c.current, ensure_ascii=False) if c.present else "(absent)"
        out.append(
            f"{c.path}: {c.address}: {verdict}: scan {Path(c.scan).name} reads "
            f"{json.dumps(c.read, ensure_ascii=False)}, file has {has} "
            f"(confidence {round(c.confidence * 100)}%)"
        )
    return out
