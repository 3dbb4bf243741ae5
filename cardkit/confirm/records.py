"""The confirmation records inside one document: a request applied (the mark removed, who,
when and on what evidence recorded, a correction keeping its previous value), taken back,
and the gap notes it resolves. `edit.py` does the file's side: locks, checks, writes.
"""

import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field
from dataclasses import replace as copy_with
from pathlib import Path
from typing import Any

from cardkit import addresses, systems
from cardkit.confirm.semantics import ABSENT, MISSING, check_value, plain, repeats
from cardkit.errors import UsageError
from cardkit.files import yamlio

AS_PRINTED: Any = object()  # no --value: confirm the field as it stands


@dataclass
class Request:
    address: str
    by: str
    evidence: str
    date: str = ""
    value: Any = AS_PRINTED
    replace: bool = False  # a value may leave out slots the field has
    origin: str = ""  # where the request came from, for messages: `checklist.csv row 7`


@dataclass
class Outcome:
    path: Path
    confirmed: list[str] = field(default_factory=list)
    corrected: list[str] = field(default_factory=list)
    resolved_notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)  # repeats of the last confirmation
    undone: list[str] = field(default_factory=list)


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
        relative = _relative(holder, pointer[cut:])
        if relative in (holder.get("unconfirmed") or []):
            return holder, relative, True
    parent = _node(data, pointer[:-1])
    return parent, str(pointer[-1]), False


def _relative(holder: Any, pointer: tuple[Any, ...]) -> str:
    """The address of pointer inside holder; its last key may be one holder lacks yet."""
    head = addresses.address_of(holder, pointer[:-1])
    return f"{head}/{pointer[-1]}" if head else str(pointer[-1])


def _new_value(old: Any, value: Any, key: Any, kind: str) -> Any:
    merge = systems.correction(kind, str(key))
    if merge is not None and isinstance(old, dict) and isinstance(value, dict):
        return merge(old, value)
    return value


def apply(data: Any, request: Request, outcome: Outcome) -> None:
    from cardkit.confirm import semantics as confirm_semantics

    pointer, old = confirm_semantics.resolve(data, request.address)
    if old is MISSING and request.value is AS_PRINTED:
        raise UsageError(
            f"{request.address}: the field is absent; give --value to add it as the card shows it"
        )
    if not pointer:
        raise UsageError("name a field to confirm, not the whole document")
    day = request.date or datetime.date.today().isoformat()
    if isinstance(old, dict) and "note" in old and "status" in old:  # closing a gap note itself
        if request.value is not AS_PRINTED:  # the value is for the field the note names
            _value_for_the_noted_field(data, pointer, old, request, outcome)
        old["status"] = "resolved"
        old["resolution"] = yamlio.to_ruamel(
            {"by": request.by, "date": day, "evidence": request.evidence}, flow=True
        )
        outcome.resolved_notes.append(request.address)
        return
    holder, relative, marked = _marks(data, pointer)
    if not isinstance(holder, dict):
        raise UsageError(f"{request.address} is a whole item; name one of its fields")
    record: dict[str, Any] = {
        "field": relative,
        "by": request.by,
        "date": day,
        "evidence": request.evidence,
    }
    new = old
    if request.value is not AS_PRINTED:
        kind = str(data.get("kind", ""))
        new = request.value if old is MISSING else _new_value(old, request.value, pointer[-1], kind)
        check_value(data, None if old is MISSING else old, new, replace=request.replace)
        if old is MISSING or plain(new) != plain(old):
            record["value"] = plain(new)
            record["previous"] = ABSENT if old is MISSING else plain(old)
    if not marked and repeats(holder.get("confirmations") or [], _same_as_last(holder, record)):
        outcome.unchanged.append(request.address)  # re-running the same confirmation
        return
    if not marked:
        outcome.warnings.append(
            f"{request.address} was not marked unconfirmed; the confirmation is recorded anyway"
        )
    else:
        holder["unconfirmed"].remove(relative)
        if not holder["unconfirmed"]:
            del holder["unconfirmed"]
    if "value" in record:
        _node(data, pointer[:-1])[pointer[-1]] = yamlio.to_ruamel(new)
        outcome.corrected.append(request.address)
    holder.setdefault("confirmations", yamlio.to_ruamel([]))
    holder["confirmations"].append(yamlio.to_ruamel(record, flow=True))
    outcome.confirmed.append(request.address)


def _value_for_the_noted_field(
    data: Any, pointer: tuple[Any, ...], note: dict[str, Any], request: Request, outcome: Outcome
) -> None:
    """A checklist row on a gap note (`gaps/0`) with a value: a note such as "OCR read no
    cost" names a field the card does not have yet; the value fills that field (confirmed,
    as `confirm FIELD --value` would), never dropped. A note naming several fields is
    refused: which one the value is for cannot be told."""
    fields = [str(f) for f in note.get("fields") or []]
    if len(fields) != 1:
        named = ", ".join(fields) if fields else "no field"
        raise UsageError(
            f"{request.address}: this gap note names {named}; a value fills one field: give "
            "the field's address instead of the note's"
        )
    head = addresses.address_of(data, pointer[:-2])
    target = f"{head}/{fields[0]}" if head else fields[0]
    apply(data, copy_with(request, address=target), outcome)
    unmarked = f"{target} was not marked unconfirmed; the confirmation is recorded anyway"
    outcome.warnings = [w for w in outcome.warnings if w != unmarked]  # the note marked it


def _same_as_last(holder: Any, record: dict[str, Any]) -> dict[str, Any]:
    """The record as a repeat would look: a value equal to the field's is no new value."""
    if "value" in record:
        return record
    last = [r for r in holder.get("confirmations") or [] if r.get("field") == record["field"]]
    value = last[-1].get("value") if last else None
    return {**record, "value": value} if value is not None else record


def _record_holders(data: Any, pointer: tuple[Any, ...]) -> Iterator[tuple[Any, str]]:
    """Each mapping above the field, innermost first, with the field's path from it: where
    its confirmation records may be kept (`undo` and `last_confirmation` look alike)."""
    for cut in range(len(pointer) - 1, -1, -1):
        holder = _node(data, pointer[:cut])
        if isinstance(holder, dict):
            yield holder, _relative(holder, pointer[cut:])


def undo(data: Any, address: str, outcome: Outcome) -> None:
    """Take back the field's last confirmation: its previous value and its mark return."""
    from cardkit.confirm import semantics as confirm_semantics

    pointer, _ = confirm_semantics.resolve(data, address)
    for holder, relative in _record_holders(data, pointer):
        records = holder.get("confirmations") or []
        mine = [i for i, r in enumerate(records) if r.get("field") == relative]
        if not mine:
            continue
        record = records[mine[-1]]
        if "previous" in record:
            parent = _node(data, pointer[:-1])
            if record["previous"] == ABSENT:
                del parent[pointer[-1]]
            else:
                parent[pointer[-1]] = yamlio.to_ruamel(record["previous"])
        del records[mine[-1]]
        if not records:
            del holder["confirmations"]
        marks = holder.setdefault("unconfirmed", yamlio.to_ruamel([], flow=True))
        if relative not in marks:
            marks.append(relative)
        for _, note in _notes(data):
            patterns = note.get("fields") or []
            closed_by_marks = note.get("status") == "resolved" and "resolution" not in note
            if closed_by_marks and any(addresses.matches(p, address) for p in patterns):
                note["status"] = "open"  # it was closed by the confirmation undone
        outcome.undone.append(address)
        return
    raise UsageError(f"{address} has no confirmation to undo")


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


def marked(data: Any, address: str) -> bool:
    """Is the field at address still marked unconfirmed (a gap open on it)?"""
    from cardkit.confirm import semantics as confirm_semantics

    pointer, _ = confirm_semantics.resolve(data, address)
    return bool(pointer) and _marks(data, pointer)[2]


def last_confirmation(data: Any, address: str) -> dict[str, Any] | None:
    """The field's last confirmation record (what `undo` would take back), if any."""
    from cardkit.confirm import semantics as confirm_semantics

    pointer, _ = confirm_semantics.resolve(data, address)
    for holder, relative in _record_holders(data, pointer):
        mine = [r for r in holder.get("confirmations") or [] if r.get("field") == relative]
        if mine:
            return dict(plain(mine[-1]))
    return None
