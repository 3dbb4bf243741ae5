"""A second opinion: what a scan reads, against the card's existing YAML.

`cardkit ocr SCAN --check cards/...` compares each field the scan's draft read with the
value the matching document holds, and says agree or disagree with the read confidence.
It never edits a card file: it writes the confirmation checklist (the CSV `cardkit
confirm --batch` takes) with the read value in `value` and `evidence` naming the scan,
for a person to review, sign with `--by` and apply.

A scan names its card by file name (the document's id, or a card code such as 01097a),
or explicitly with `--against ID[/ADDRESS]` (ADDRESS: where in that document the card's
fields live, e.g. `klaw/masterplan/cards/4`).

What counts as the same value is the system's to say, in `equivalents.yaml` beside its
`__init__.py`: fields holding one printed thing under two names (a Master Plan card's
`movement` and `move_text`), values that mean the field is left out (`bam: false`), and
parts of a field a scan does not read, compared without them (a placement's `text`).
A field uses the first entry whose `at` matches where it sits; a file of another shape is
refused whole, with its path and position (exit 2).
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn

from cardkit import addresses, systems
from cardkit.errors import UsageError
from cardkit.files import yamlio
from cardkit.model import Document, Pointer

QUOTES = str.maketrans("’‘“”", "''\"\"")
EQUIVALENTS_FILE = "equivalents.yaml"
ENTRY_KEYS = ("what", "at", "same", "absent", "unread")


@dataclass(frozen=True)
class Equivalence:
    """One entry of a system's equivalents.yaml."""

    at: dict[str, str]  # document kind -> address pattern of where its card's fields sit
    same: tuple[tuple[str, ...], ...]  # groups of names for one printed thing
    absent: dict[str, Any]  # field -> the value its absence means
    unread: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)  # field: parts


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
    implied: bool = False  # the file leaves it out, which means `current` (bam: false)
    unread: tuple[str, ...] = ()  # parts a scan does not read (`place`'s `text`): not compared

    @property
    def agree(self) -> bool:
        read, current = _without(self.read, self.unread), _without(self.current, self.unread)
        return (self.present or self.implied) and same(read, current)


def _norm(value: Any) -> str:
    text = unicodedata.normalize("NFC", str(value))
    text = text.translate(QUOTES)
    return re.sub(r"\s+", " ", text).strip().casefold()


def same(read: Any, current: Any) -> bool:
    if isinstance(read, int | float) and not isinstance(read, bool):
        return isinstance(current, int | float) and read == current
    if isinstance(read, dict):  # by key, in any order
        return (
            isinstance(current, dict)
            and set(read) == set(current)
            and all(same(value, current[key]) for key, value in read.items())
        )
    if isinstance(read, list):
        return (
            isinstance(current, list)
            and len(read) == len(current)
            and all(same(a, b) for a, b in zip(read, current, strict=True))
        )
    return _norm(read) == _norm(current)


def _without(value: Any, parts: tuple[str, ...]) -> Any:
    """A mapping without the parts a scan does not read; any other value as it is."""
    return {k: v for k, v in value.items() if k not in parts} if isinstance(value, dict) else value


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
    kind = str(document.data.get("kind", ""))
    out = []
    for field, confidence in confidences.items():
        address, current, present, implied = _current(
            document.data, kind, _address(draft, field, document.data, prefix)
        )
        unread = _unread(kind, address)
        out.append(
            Comparison(
                scan,
                str(document.path),
                str(document.data.get("id", "")),
                address,
                _lookup(draft, field),
                current,
                float(confidence),
                present,
                implied,
                unread,
            )
        )
    return out


def _address(draft: dict[str, Any], field: str, data: Any, prefix: str) -> str:
    """Where a draft's field sits in the document: a one-card draft keeps its card under
    one key (`card/move`); inside a larger document the card's fields sit at the address
    itself (`.../4/move`)."""
    head, _, rest = field.partition("/")
    if prefix and rest and isinstance(draft.get(head), dict) and not _has(data, f"{prefix}/{head}"):
        return f"{prefix}/{rest}"
    return f"{prefix}/{field}" if prefix else field


def _has(data: Any, address: str) -> bool:
    try:
        addresses.resolve(data, address)
    except UsageError:
        return False
    return True


def _current(data: Any, kind: str, address: str) -> tuple[str, Any, bool, bool]:
    """(address, value, present, implied) of the document's field at `address`, or of the
    field its system declares the same; else the value its absence means, if any."""
    parent, _, name = address.rpartition("/")
    names, absent = [name], {}
    for entry in equivalents(kind):  # the first entry that matches, alone
        pattern = entry.at.get(kind)
        if pattern is not None and _matches(parent, pattern):
            group = next((g for g in entry.same if name in g), ())
            names += [other for other in group if other != name]
            absent = entry.absent
            break
    for other in names:
        candidate = f"{parent}/{other}" if parent else other
        if _has(data, candidate):
            return candidate, addresses.resolve(data, candidate)[1], True, False
    meaning = next((absent[n] for n in names if n in absent), None)
    return address, meaning, False, meaning is not None


def _unread(kind: str, address: str) -> tuple[str, ...]:
    """The parts of the field at `address` its system declares a scan does not read."""
    parent, _, name = address.rpartition("/")
    for entry in equivalents(kind):
        pattern = entry.at.get(kind)
        if pattern is not None and _matches(parent, pattern):  # the first entry, alone
            return entry.unread.get(name, ())
    return ()


def _matches(address: str, pattern: str) -> bool:
    parts, wanted = address.split("/"), pattern.split("/")
    if len(parts) != len(wanted):
        return False
    return all(w in ("*", p) for p, w in zip(parts, wanted, strict=True))


@cache
def equivalents(kind: str) -> list[Equivalence]:
    """The entries of the `equivalents.yaml` of the system `kind` belongs to (none if it
    ships no such file)."""
    try:
        module = systems.for_kind(kind).module
    except systems.UnknownName:
        return []
    source = resources.files(module).joinpath(EQUIVALENTS_FILE)
    if not source.is_file():
        return []
    return parse_equivalents(source.read_text(encoding="utf-8"), str(source))


def parse_equivalents(text: str, where: str) -> list[Equivalence]:
    """The entries of an equivalents.yaml; a file of another shape is a UsageError that
    names `where`, the line and the column (a flat `same: [a, b]` would otherwise be
    taken for one group's letters)."""
    try:
        data, root = yamlio.load_with_nodes(text)
    except yamlio.YamlProblem as problem:
        raise UsageError(f"{where}:{problem.line}:{problem.column}: {problem.message}") from None
    locate = yamlio.Locator.parsed(text, root)

    def refuse(pointer: Pointer, why: str, *, key: bool = False) -> NoReturn:
        line, column = locate(pointer, key=key)
        raise UsageError(f"{where}:{line}:{column}: {why}")

    if data is None:
        return []
    if not isinstance(data, list):
        refuse((), "must be a list of entries (`- at: {KIND: ADDRESS}`)")
    entries = []
    for n, raw in enumerate(data):
        entry = f"entry {n + 1}"
        if not isinstance(raw, dict):
            refuse((n,), f"{entry} must be a mapping: {', '.join(ENTRY_KEYS)}")
        unknown = [key for key in raw if key not in ENTRY_KEYS]
        if unknown:
            refuse(
                (n, unknown[0]),
                f"{entry}: unknown key '{unknown[0]}' (one of {', '.join(ENTRY_KEYS)})",
                key=True,
            )
        at = raw.get("at")
        if not (isinstance(at, dict) and at and all(isinstance(v, str) for v in at.values())):
            refuse((n, "at"), f"{entry}: `at` must map a document kind to an address pattern")
        same = raw.get("same") or []
        if not isinstance(same, list):
            refuse((n, "same"), f"{entry}: `same` must be a list of groups: [[a, b]]")
        for i, group in enumerate(same):
            if not (isinstance(group, list) and all(isinstance(f, str) for f in group)):
                refuse(
                    (n, "same", i),
                    f"{entry}: each group of `same` must be a list of field names: [[a, b]], "
                    "not [a, b]",
                )
        absent = raw.get("absent") or {}
        if not isinstance(absent, dict):
            refuse((n, "absent"), f"{entry}: `absent` must map a field to a value")
        unread = raw.get("unread") or {}
        if not (
            isinstance(unread, dict)
            and all(
                isinstance(v, list) and all(isinstance(p, str) for p in v) for v in unread.values()
            )
        ):
            refuse((n, "unread"), f"{entry}: `unread` must map a field to a list of its parts")
        entries.append(
            Equivalence(
                {str(k): v for k, v in at.items()},
                tuple(tuple(group) for group in same),
                {str(k): v for k, v in absent.items()},
                {str(k): tuple(v) for k, v in unread.items()},
            )
        )
    return entries


def _lookup(data: dict[str, Any], path: str) -> Any:
    node: Any = data
    for part in path.split("/"):
        node = node[part]
    return node


def checklist(comparisons: list[Comparison], gap_rows: list[Any]) -> str:
    """The confirm --batch CSV: open gaps the scan read, and fields it reads differently."""
    from cardkit.confirm.checklist import write_checklist

    stream = io.StringIO()
    write_checklist(_checklist_records(comparisons, gap_rows), stream)
    return stream.getvalue()


def _checklist_records(
    comparisons: list[Comparison], gap_rows: list[Any]
) -> Iterator[dict[str, Any]]:
    by_address = {(c.path, c.address): c for c in comparisons}
    done = set()
    for gap in gap_rows:
        found = by_address.get((gap.path, gap.address))
        if found is None or gap.status != "open":
            continue
        record = gap.as_dict()
        record.update(_filled(found))
        yield record
        done.add((gap.path, gap.address))
    for found in comparisons:
        if (found.path, found.address) in done or found.agree:
            continue
        yield {
            "path": found.path,
            "document": found.document,
            "field": found.address,
            "address": found.address,
            "origin": "ocr",
            "status": "open",
            "why": "the file lacks it"
            if not (found.present or found.implied)
            else "the scan reads a different value",
            "current": json.dumps(found.current, ensure_ascii=False) if found.present else "",
            **_filled(found),
        }


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
        if c.implied:
            has += f", which means {json.dumps(c.current, ensure_ascii=False)}"
        out.append(
            f"{c.path}: {c.address}: {verdict}: scan {Path(c.scan).name} reads "
            f"{json.dumps(c.read, ensure_ascii=False)}, file has {has} "
            f"(confidence {round(c.confidence * 100)}%)"
        )
    return out
