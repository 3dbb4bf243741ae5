"""`cardkit confirm`: close a gap in place, keeping the file's comments, order and quoting.

A confirmation removes the field's `unconfirmed` mark and records who, when and on
what evidence; with a new value it corrects the field and keeps the previous one.
A gap note is resolved once every field it names is confirmed. The new document is
validated before an atomic write, so a refused or interrupted confirm changes nothing.
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from dataclasses import replace as copy_with
from pathlib import Path
from typing import Any

from cardkit import addresses, suggest, systems
from cardkit.confirm.checklist import rows_behind as checklist_rows_behind
from cardkit.confirm.semantics import ABSENT, MISSING, Refused, check_value, plain, repeats
from cardkit.errors import CardkitError, InputError, UsageError
from cardkit.files import transaction, yamlio
from cardkit.schemas import registry as schemas

AS_PRINTED: Any = object()  # no --value: confirm the field as it stands

# Called with each file's text under its lock, before any change: raises to refuse (a page
# that showed the field checks that it still holds what was shown).
Guard = Callable[[Path, str], None]


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


def find_document(target: str, root: Path) -> Path:
    """A file path, or the file under root whose id (optionally `system:id`) is target."""
    path = Path(target)
    if path.is_file():
        return path
    if not root.is_dir():
        raise UsageError(f"--root {root}: no such folder (looking for '{target}')")
    system, _, slug = target.rpartition(":")
    from cardkit.check import id_index  # the loader's walk; unchanged files are not read

    candidates = [
        (file, f"{kind.split('/')[0]}:{ident}") for file, kind, ident in id_index.ids_under(root)
    ]
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
    hint = suggest.hint(slug, [ident.split(":")[1] for _, ident in candidates])
    raise UsageError(f"no file or document id '{target}' under {root}; {hint}")


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


def undo_file(path: Path, address: str, guard: Guard | None = None) -> Outcome:
    """Revert the last confirmation of one field; validate; write under the file's lock."""
    outcomes: list[Outcome] = []

    def edit(texts: dict[Path, str]) -> dict[Path, str]:
        outcomes[:] = [Outcome(path)]
        if guard is not None:
            guard(path, texts[path])
        try:
            yamlio.load_text(texts[path])  # the loader's guards first
        except yamlio.YamlProblem as problem:
            raise InputError(transaction.problem_line(path, problem)) from None
        rt = yamlio.round_trip_yaml()
        data = rt.load(texts[path])
        try:
            undo(data, address, outcomes[0])
        except CardkitError as err:
            raise _in_file(path, err) from None
        stream = io.StringIO()
        rt.dump(data, stream)
        _check(path, stream.getvalue())
        return {path: stream.getvalue()}

    transaction.update([path], edit)
    return outcomes[0]


def confirm_file(path: Path, requests: list[Request], guard: Guard | None = None) -> Outcome:
    """Apply requests to one file; validate; write atomically. Nothing changes on failure."""
    return confirm_files({path: requests}, guard)[0]


def confirm_files(plan: dict[Path, list[Request]], guard: Guard | None = None) -> list[Outcome]:
    """Apply requests to several files, all or nothing, each under its lock (transaction.py).

    Every request and every resulting file is checked before the first write; requests
    that carry an origin (a checklist row) are all reported together, by origin.
    """
    outcomes: dict[Path, Outcome] = {}

    def edit(texts: dict[Path, str]) -> dict[Path, str]:
        outcomes.clear()
        refused: list[str] = []
        new: dict[Path, str] = {}
        for path, text in texts.items():
            outcomes[path] = Outcome(path)
            if guard is not None:
                guard(path, text)
            try:
                new[path] = _confirmed_text(path, text, plan[path], outcomes[path], refused)
            except CardkitError as err:
                rows = checklist_rows_behind(err, plan[path])
                if not rows:
                    raise
                refused.append(f"{', '.join(rows)}: {err}")
        if refused:
            raise UsageError(f"{len(refused)} refused, nothing was written: " + "; ".join(refused))
        return new

    transaction.update(list(plan), edit)
    return [outcomes[p] for p in plan if p in outcomes]


def _in_file(path: Path, err: CardkitError) -> CardkitError:
    """The same error, its line naming the file it is about."""
    said = str(err)
    return err if said.startswith(f"{path}") else type(err)(f"{path}: {said}")


def _confirmed_text(
    path: Path, text: str, requests: list[Request], outcome: Outcome, refused: list[str]
) -> str:
    try:
        yamlio.load_text(text)  # the loader's guards first: alias bombs, depth, duplicate keys
    except yamlio.YamlProblem as problem:
        raise InputError(
            transaction.problem_line(path, problem) + "; nothing was written"
        ) from None
    from ruamel.yaml.error import YAMLError

    rt = yamlio.round_trip_yaml()
    try:
        data = rt.load(text)
    except YAMLError as err:  # what libyaml accepts and ruamel does not: one line, not a bug
        mark = getattr(err, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        reason = getattr(err, "problem", None) or "cannot be edited in place"
        raise InputError(f"{where}: CK001 {reason}; nothing was written") from None
    for request in requests:
        try:
            apply(data, request, outcome)
        except CardkitError as err:
            if not request.origin:
                raise _in_file(path, err) from None
            refused.append(f"{request.origin} ({request.address}): {err}")
    outcome.resolved_notes += resolve_notes(data)
    stream = io.StringIO()
    rt.dump(data, stream)
    new_text = stream.getvalue()
    if new_text == text:
        return text  # every request repeated a confirmation already made: nothing to write
    size = len(new_text.encode("utf-8"))
    if size > yamlio.MAX_FILE_BYTES:
        raise Refused(
            f"{path}: refused: the file would grow to {size:,} bytes, past the "
            f"{yamlio.MAX_FILE_BYTES:,} cap; nothing was written"
        )
    _check(path, new_text)
    return new_text


def _check(path: Path, text: str) -> None:
    from cardkit.schemas.explain import explain

    data = yamlio.load_text(text)
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind not in schemas.kinds():
        raise Refused(f"{path}: refused: the document has no known kind; nothing was written")
    if not schemas.fast_validator(kind).is_valid(data):
        errors = [explain(e) for e in schemas.detailed_validator(kind).iter_errors(data)]
        where, message = errors[0] if errors else ((), "invalid")
        try:  # card numbers, as the user wrote the address, not list positions
            pointer = addresses.address_of(data, tuple(where))
        except (KeyError, IndexError, TypeError):
            pointer = "/".join(map(str, where))
        refusal = Refused(f"{path}: refused: {pointer}: {message}; nothing was written")
        refusal.address = pointer  # type: ignore[attr-defined]  # which row's field broke it
        raise refusal


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
