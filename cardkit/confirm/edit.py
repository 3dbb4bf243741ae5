"""`cardkit confirm`: close a gap in place, keeping the file's comments, order and quoting.

A confirmation removes the field's `unconfirmed` mark and records who, when and on
what evidence; with a new value it corrects the field and keeps the previous one.
A gap note is resolved once every field it names is confirmed. The new document is
validated before an atomic write, so a refused or interrupted confirm changes nothing.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from cardkit import addresses, suggest
from cardkit.confirm.checklist import rows_behind as checklist_rows_behind
from cardkit.confirm.records import (
    AS_PRINTED,
    Outcome,
    Request,
    apply,
    last_confirmation,
    marked,
    resolve_notes,
    undo,
)
from cardkit.confirm.semantics import Refused
from cardkit.errors import CardkitError, InputError, UsageError
from cardkit.files import transaction, yamlio
from cardkit.schemas import registry as schemas

__all__ = [
    "AS_PRINTED",
    "Guard",
    "Outcome",
    "Request",
    "apply",
    "confirm_file",
    "confirm_files",
    "find_document",
    "last_confirmation",
    "marked",
    "resolve_notes",
    "undo",
    "undo_file",
]

# Called with each file's text under its lock, before any change: raises to refuse (a page
# that showed the field checks that it still holds what was shown).
Guard = Callable[[Path, str], None]


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
