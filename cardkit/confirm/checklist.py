"""Checklists: the CSV that `gaps --format csv` and `ocr --check` write and
`confirm --batch` applies; the one home of its columns, its writer and its reader.

Every row is checked before any file is written, so a batch is all or nothing.
"""

from __future__ import annotations

import datetime
import io
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from cardkit.errors import InputError, UsageError
from cardkit.files import yamlio
from cardkit.model import FORMULA_STARTS, spreadsheet_safe

if TYPE_CHECKING:
    from cardkit.confirm.edit import Outcome, Request


# The checklist's columns, in order: where, what, why and what it says now, the address
# `confirm` takes, then the cells a person fills in.
COLUMNS = [
    "path",
    "line",
    "document",
    "card",
    "field",
    "origin",
    "status",
    "code",
    "why",
    "current",
    "check",
    "address",
    "value",
    "by",
    "evidence",
]
inert = spreadsheet_safe  # `read_checklist` takes the quote off again


def write_checklist(records: Iterable[dict[str, Any]], out: TextIO) -> None:
    """The checklist CSV: a header, then one row per record (missing cells empty)."""
    import csv

    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for record in records:
        writer.writerow({column: inert(record.get(column, "")) for column in COLUMNS})


def parse_value(text: str) -> Any:
    """A value given on the command line, read as YAML: `2`, `none`, `{left: {civilian: 2}}`."""
    try:
        return yamlio.load_text(text)
    except yamlio.YamlProblem as problem:
        hint = ""
        if "':'" in problem.message and re.search(r":\S", text):
            hint = "; put a space after each ':' (`{left: {thug: 2}}`)"
        raise UsageError(f"--value is not valid YAML: {problem.message}{hint}") from None


def check_date(text: str) -> str:
    """A --date value, refused unless it is a real YYYY-MM-DD day."""
    if not text:
        return text
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            raise ValueError
        datetime.date.fromisoformat(text)
    except ValueError:
        raise UsageError(f"--date {text!r} is not a day: give YYYY-MM-DD") from None
    return text


DELIMITERS = ",;\t"  # a spreadsheet in a European locale writes `;`
NEEDED = ("path", "evidence")  # a checklist without these columns is not one


def decode(raw: bytes) -> tuple[str, str]:
    """A checklist's text and the encoding it was read in: UTF-8 (with or without the
    byte-order mark Excel writes), UTF-16 with its mark ("Unicode text"), or cp1252, the
    Windows "CSV" of a spreadsheet, when the bytes are not UTF-8. Raises the first
    undecodable byte's UnicodeDecodeError when they are neither."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16"), "UTF-16"
    try:
        return raw.decode("utf-8-sig"), "UTF-8"
    except UnicodeDecodeError as first:
        try:
            return raw.decode("cp1252"), "cp1252"
        except UnicodeDecodeError:
            raise first from None


def delimiter(header: str) -> str:
    """The separator of a checklist: the one (as csv.Sniffer guesses among `,;<tab>`)
    under which the header names the checklist's columns; ties go to the sniffer."""
    import csv

    try:
        sniffed = csv.Sniffer().sniff(header, delimiters=DELIMITERS).delimiter
    except csv.Error:
        sniffed = ","

    def named(separator: str) -> int:
        cells = next(csv.reader([header], delimiter=separator), [])
        return len({c.strip().lstrip("\ufeff") for c in cells} & set(COLUMNS))

    return max(DELIMITERS, key=lambda d: (named(d), d == sniffed))


def read_checklist(checklist: Path) -> list[dict[str, str]]:
    """The rows of a checklist CSV as a spreadsheet saves it: comma- or semicolon-
    separated, UTF-8 with or without a byte-order mark, UTF-16, or cp1252. Each row
    carries its first line in the file under `_line`."""
    import csv

    try:
        raw = yamlio.read_bytes(checklist)  # a regular file under the cap: a pipe never blocks
    except OSError as err:
        raise InputError(f"{checklist}: cannot read: {err.strerror}") from None
    except yamlio.YamlProblem as problem:
        raise InputError(f"{checklist}: {problem.message}") from None
    if b"\0" in raw and not raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(f"{checklist}: binary data, not a CSV checklist")
    try:
        text, _ = decode(raw)
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise InputError(
            f"{checklist}:{line}: neither UTF-8 nor cp1252 (byte 0x{raw[err.start]:02x}); "
            "save the checklist as CSV UTF-8"
        ) from None
    header = text.split("\n", 1)[0]
    separator = delimiter(header)
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=separator)
    rows: list[dict[str, str]] = []
    try:
        names = [str(n).strip() for n in reader.fieldnames or []]
        missing = [n for n in NEEDED if n not in names]
        if missing:
            shown = header if len(header) <= 80 else header[:77] + "..."
            raise InputError(
                f"{checklist}:1: the header has no {' or '.join(repr(m) for m in missing)} "
                f"column ({shown!r}); a checklist is the CSV `cardkit gaps --format csv` "
                "writes, its cells separated by commas or semicolons"
            )
        start = reader.line_num + 1
        for row in reader:
            cells = {str(k).strip(): _cell(v) for k, v in row.items() if k is not None}
            if None in row and any(str(v).strip() for v in row[None]):
                cells["_cells"] = str(len(names) + len(row[None]))
            cells["_line"] = str(start)
            rows.append(cells)
            start = reader.line_num + 1
    except csv.Error as err:
        raise InputError(f"{checklist}:{reader.line_num}: not a CSV checklist: {err}") from None
    return rows


def _cell(value: Any) -> str:
    """A cell's text; the quote that `gaps --format csv` puts before `=+-@` is taken off."""
    text = (value if isinstance(value, str) else "").strip()
    return text[1:] if text[:1] == "'" and text[1:2] in FORMULA_STARTS else text


def confirm_batch(checklist: Path, *, default_by: str | None, date: str) -> list[Outcome]:
    """Apply every checklist row with evidence: every row and file checked, then all written."""
    from cardkit.confirm.edit import AS_PRINTED, Request, confirm_files

    rows = read_checklist(checklist)
    by_file: dict[Path, list[Request]] = {}
    refused: list[str] = []
    for row in rows:
        where = f"{checklist} row {row['_line']}"
        if "_cells" in row:  # a cell's separator not quoted: the columns slid
            refused.append(
                f"{where}: {row['_cells']} cells where the header has "
                f"{len([k for k in row if not k.startswith('_')])}; quote a cell that "
                "holds the separator"
            )
            continue
        evidence = row.get("evidence", "")
        if not evidence:
            continue
        who = row.get("by", "") or default_by
        address = row.get("address", "") or row.get("field", "")
        path = row.get("path", "")
        if not who or not address or not path:
            refused.append(f"{where}: a row with evidence needs path, address and by (or --by)")
            continue
        if not Path(path).is_file():
            refused.append(f"{where}: {path}: no such file")
            continue
        try:
            value = parse_value(row["value"]) if row.get("value") else AS_PRINTED
        except UsageError as err:
            refused.append(f"{where}: {err}")
            continue
        request = Request(address, who, evidence, date, value, origin=where)
        request.replace = row.get("replace", "").lower() in ("yes", "true", "1")
        by_file.setdefault(Path(path), []).append(request)
    if refused:
        raise UsageError(f"{len(refused)} refused, nothing was written: " + "; ".join(refused))
    if not by_file:
        raise UsageError(f"{checklist}: no row has its evidence column filled in")
    return confirm_files(by_file)


def rows_behind(err: Exception, requests: list[Request]) -> list[str]:
    """The checklist rows a refusal of the whole file is about: those whose field holds,
    or is held by, the field the schema refused (all of them when it names none)."""
    rows = [r for r in requests if r.origin]
    broken = getattr(err, "address", None)
    if isinstance(broken, str):
        behind = [
            r
            for r in rows
            if broken == r.address
            or broken.startswith(f"{r.address}/")
            or r.address.startswith(f"{broken}/")
        ]
        rows = behind or rows
    return [r.origin for r in rows]
