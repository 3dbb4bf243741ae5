"""`cardkit confirm`: close a gap in place, keeping the file's comments, order and quoting.

A confirmation removes the field's `unconfirmed` mark and records who, when and on
what evidence; with a new value it corrects the field and keeps the previous one.
A gap note is resolved once every field it names is confirmed. The new document is
validated before an atomic write, so a refused or interrupted confirm changes nothing.
"""

from __future__ import annotations

import datetime
import difflib
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit import addresses, schemas, systems, yamlio
from cardkit.errors import CardkitError, ExitCode, UsageError

AS_PRINTED: Any = object()  # no --value: confirm the field as it stands


class Refused(CardkitError):
    exit_code = ExitCode.FINDINGS


@dataclass
class Request:
    address: str
    by: str
    evidence: str
    date: str = ""
    value: Any = AS_PRINTED


@dataclass
class Outcome:
    path: Path
    confirmed: list[str] = field(default_factory=list)
    corrected: list[str] = field(default_factory=list)
    resolved_notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def find_document(target: str, root: Path) -> Path:
    """A file path, or the file under root whose id (optionally `system:id`) is target."""
    path = Path(target)
    if path.is_file():
        return path
    system, _, slug = target.rpartition(":")
    candidates: list[tuple[Path, str]] = []
    for file in sorted(root.rglob("*.y*ml")) if root.is_dir() else []:
        text = file.read_text(encoding="utf-8", errors="replace")
        found = re.search(r"^id:\s*['\"]?([^'\"\s#]+)", text, re.MULTILINE)
        kind = re.search(r"^kind:\s*([^\s#]+)", text, re.MULTILINE)
        if found and kind:
            candidates.append((file, f"{kind[1].split('/')[0]}:{found[1]}"))
    hits = [
        f
        for f, ident in candidates
        if ident.endswith(":" + slug) and (not system or ident.startswith(system + ":"))
    ]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise UsageError(
            f"'{target}' is ambiguous: "
            + ", ".join(str(h) for h in hits)
            + "; name the file or system:id"
        )
    close = difflib.get_close_matches(slug, [ident.split(":")[1] for _, ident in candidates], n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise UsageError(f"no file or document id '{target}' under {root}{hint}")


def _node(data: Any, pointer: tuple[Any, ...]) -> Any:
    for part in pointer:
        data = data[part]
    return data


def _marks(data: Any, pointer: tuple[Any, ...]) -> tuple[Any, str, bool]:
    """The mapping that holds the field's mark (or its parent), the relative field, and found."""
    for cut in range(len(pointer) - 1, -1, -1):
        holder = _node(data, pointer[:cut])
        if not isinstance(holder, dict):
            continue
        relative = addresses.address_of(holder, pointer[cut:])
        if relative in (holder.get("unconfirmed") or []):
            return holder, relative, True
    parent = _node(data, pointer[:-1])
    return parent, str(pointer[-1]), False


def _new_value(old: Any, value: Any, key: Any, kind: str) -> Any:
    merge = systems.correction(kind, str(key))
    if merge is not None and isinstance(old, dict) and isinstance(value, dict):
        return merge(old, value)
    return value


def apply(data: Any, request: Request, outcome: Outcome) -> None:
    pointer, old = addresses.resolve(data, request.address)
    if not pointer:
        raise UsageError("name a field to confirm, not the whole document")
    day = request.date or datetime.date.today().isoformat()
    if isinstance(old, dict) and "note" in old and "status" in old:  # closing a gap note itself
        old["status"] = "resolved"
        old["resolution"] = yamlio.to_ruamel(
            {"by": request.by, "date": day, "evidence": request.evidence}, flow=True
        )
        outcome.resolved_notes.append(request.address)
        return
    holder, relative, marked = _marks(data, pointer)
    if not marked:
        outcome.warnings.append(
            f"{request.address} was not marked unconfirmed; the confirmation is recorded anyway"
        )
    else:
        holder["unconfirmed"].remove(relative)
        if not holder["unconfirmed"]:
            del holder["unconfirmed"]
    record: dict[str, Any] = {
        "field": relative,
        "by": request.by,
        "date": day,
        "evidence": request.evidence,
    }
    if request.value is not AS_PRINTED:
        parent = _node(data, pointer[:-1])
        new = _new_value(old, request.value, pointer[-1], str(data.get("kind", "")))
        if _plain(new) != _plain(old):
            parent[pointer[-1]] = yamlio.to_ruamel(new)
            record["value"] = _plain(new)
            record["previous"] = _plain(old)
            outcome.corrected.append(request.address)
    holder.setdefault("confirmations", yamlio.to_ruamel([]))
    holder["confirmations"].append(yamlio.to_ruamel(record, flow=True))
    outcome.confirmed.append(request.address)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def resolve_notes(data: Any) -> list[str]:
    """Close every open gap note whose fields are all confirmed now."""
    marks = [a for a in _addresses(data, "unconfirmed")]
    confirmed = [a for a in _addresses(data, "confirmations")]
    closed = []
    for pointer, note in _notes(data):
        patterns = note.get("fields") or []
        if note.get("status") != "open" or not patterns:
            continue
        if any(addresses.matches(p, m) for p in patterns for m in marks):
            continue
        if any(addresses.matches(p, c) for p in patterns for c in confirmed):
            note["status"] = "resolved"
            closed.append(addresses.address_of(data, pointer))
    return closed


def _addresses(data: Any, key: str) -> list[str]:
    found = []
    for pointer, node in addresses.walk(data):
        base = addresses.address_of(data, pointer)
        for item in node.get(key) or [] if isinstance(node.get(key), list) else []:
            relative = item if key == "unconfirmed" else item.get("field")
            found.append(f"{base}/{relative}" if base else str(relative))
    return found


def _notes(data: Any) -> Any:
    for pointer, node in addresses.walk(data):
        if isinstance(node.get("gaps"), list):
            for index, note in enumerate(node["gaps"]):
                if isinstance(note, dict):
                    yield (*pointer, "gaps", index), note
        if isinstance(node.get("gap"), dict):
            yield (*pointer, "gap"), node["gap"]


def confirm_file(path: Path, requests: list[Request]) -> Outcome:
    """Apply requests to one file; validate; write atomically. Nothing changes on failure."""
    text = yamlio.read_text(path)
    rt = yamlio.round_trip_yaml()
    data = rt.load(text)
    outcome = Outcome(path)
    for request in requests:
        apply(data, request, outcome)
    outcome.resolved_notes += resolve_notes(data)
    stream = io.StringIO()
    rt.dump(data, stream)
    new_text = stream.getvalue()
    _check(path, new_text)
    yamlio.atomic_write(path, new_text)
    return outcome


def _check(path: Path, text: str) -> None:
    from cardkit.explain import explain

    data = yamlio.load_text(text)
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind not in schemas.kinds():
        raise Refused(f"{path}: refused: the document has no known kind; nothing was written")
    if not schemas.fast_validator(kind).is_valid(data):
        errors = [explain(e) for e in schemas.detailed_validator(kind).iter_errors(data)]
        where, message = errors[0] if errors else ((), "invalid")
        pointer = "/".join(map(str, where))
        raise Refused(f"{path}: refused: {pointer}: {message}; nothing was written")


def parse_value(text: str) -> Any:
    """A value given on the command line, read as YAML: `2`, `none`, `{left: {civilian: 2}}`."""
    try:
        return yamlio.load_text(text)
    except yamlio.YamlProblem as problem:
        raise UsageError(f"--value is not valid YAML: {problem.message}") from None


def confirm_batch(checklist: Path, *, default_by: str | None, date: str) -> list[Outcome]:
    """Apply every checklist row with evidence, one write per file."""
    import csv

    try:
        with checklist.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    except OSError as err:
        raise UsageError(f"{checklist}: cannot read: {err.strerror}") from None
    by_file: dict[Path, list[Request]] = {}
    for number, row in enumerate(rows, start=2):
        evidence = (row.get("evidence") or "").strip()
        if not evidence:
            continue
        who = (row.get("by") or "").strip() or default_by
        address = (row.get("address") or row.get("field") or "").strip()
        if not who or not address or not row.get("path"):
            raise UsageError(
                f"{checklist}:{number}: a row with evidence needs path, address and by (or --by)"
            )
        raw = (row.get("value") or "").strip()
        request = Request(address, who, evidence, date, parse_value(raw) if raw else AS_PRINTED)
        by_file.setdefault(Path(row["path"]), []).append(request)
    if not by_file:
        raise UsageError(f"{checklist}: no row has its evidence column filled in")
    return [confirm_file(path, requests) for path, requests in by_file.items()]
