"""What a confirmation means, beside how it is written (confirm.py does the I/O).

- A field the object lacks can be added with a value when its kind's schema allows it there;
  the record says `previous: absent`.
- Token names in a value are checked against the system's vocabulary (`thgu` is refused,
  with the closest name).
- A value that leaves out a slot the field had (a mapping of token counts) is refused
  unless the caller says `replace`: `{left: {civilian: 2}}` on a three-slot placement
  is most likely a typo for a one-slot correction.
- A confirmation that repeats the field's last one (same value and evidence) and
  finds the field no longer marked changes nothing: re-running a batch is a no-op.
- `undo` takes back a field's last confirmation: the previous value (or its absence)
  comes back, and so does the field's `unconfirmed` mark.
"""

from __future__ import annotations

from typing import Any

from cardkit import addresses, suggest
from cardkit.errors import CardkitError, ExitCode, UsageError

ABSENT = "absent"  # a record's `previous` when the confirmation added the field


class Refused(CardkitError):
    exit_code = ExitCode.FINDINGS


class Missing:
    """The value of a field the object does not carry."""

    def __repr__(self) -> str:
        return ABSENT


MISSING: Any = Missing()


def resolve(data: Any, address: str) -> tuple[tuple[Any, ...], Any]:
    """Like addresses.resolve, but a field the object lacks resolves to MISSING when it is a
    field of its kind: one the kind's schema allows there (a one-card draft's `card/move`),
    or one an object beside it in the same list carries (card 9's `place`). Any other
    unknown name is a typo: refused with the closest names."""
    head, _, last = address.rstrip("/").rpartition("/")
    try:
        return addresses.resolve(data, address)
    except UsageError:
        if not last:
            raise
        pointer, parent = addresses.resolve(data, head) if head else ((), data)
        if not isinstance(parent, dict) or last in parent:
            raise
        siblings = _siblings(data, pointer)
        allowed = _schema_fields(data, pointer)
        if last in allowed or any(last in s for s in siblings):
            return (*pointer, last), MISSING
        known = ({str(k) for s in [parent, *siblings] for k in s} | allowed) - _BOOKKEEPING
        hint = suggest.hint(last, known)
        raise UsageError(f"no field '{last}' at '{head or 'the top'}'; {hint}") from None


_BOOKKEEPING = {"unconfirmed", "confirmations"}


def _schema_fields(data: Any, pointer: tuple[Any, ...]) -> set[str]:
    """The field names the document's kind allows at pointer (none for an unknown kind)."""
    from cardkit.schemas import registry as schemas

    kind = data.get("kind") if isinstance(data, dict) else None
    if not isinstance(kind, str):
        return set()
    return schemas.property_names(kind, pointer) - _BOOKKEEPING


def _siblings(data: Any, pointer: tuple[Any, ...]) -> list[dict[str, Any]]:
    """The mappings in the list that holds the object at pointer (none if not in a list)."""
    if not pointer or not isinstance(pointer[-1], int):
        return []
    node = data
    for part in pointer[:-1]:
        node = node[part]
    return [item for item in node if isinstance(item, dict)]


def _counts(value: Any) -> dict[str, dict[str, Any]]:
    """The slots of a value that maps slots to token counts ({left: {civilian: 1}})."""
    if not isinstance(value, dict):
        return {}
    return {
        str(slot): counts
        for slot, counts in value.items()
        if isinstance(counts, dict)
        and counts
        and all(isinstance(n, int) and not isinstance(n, bool) for n in counts.values())
    }


def check_value(data: Any, old: Any, new: Any, *, replace: bool) -> None:
    """Refuse unknown token names, and slots dropped without `replace`."""
    problems: list[str] = []
    kind = str(data.get("kind", "")) if isinstance(data, dict) else ""
    names = {name for counts in _counts(new).values() for name in counts}
    if names and "/" in kind:
        from cardkit import systems

        try:
            vocabulary = systems.for_kind(kind).tokens
        except LookupError:
            vocabulary = None
        before = {name for counts in _counts(old).values() for name in counts}
        if vocabulary is not None and not _of_tokens(before, names, vocabulary):
            names = set()  # numbers by other keys (heroes: {'2': 5}), not token counts
        for name in sorted(names):
            if vocabulary is not None and name not in vocabulary:
                try:
                    vocabulary.get_token(name)
                except LookupError as unknown:
                    problems.append(str(unknown))
    dropped = sorted(set(_counts(old)) - set(_counts(new)))
    if dropped and not replace and _counts(new):
        problems.append(
            f"the value leaves out slot(s) {', '.join(dropped)} the field has now; "
            "give every slot, or --replace to drop them"
        )
    if problems:
        raise Refused(f"refused: {'; '.join(problems)}; nothing was written")


def _of_tokens(before: set[str], names: set[str], vocabulary: Any) -> bool:
    """Does the field count tokens: all its names now are tokens, or (a new field) some of
    the value's are? A table of numbers by other keys (heroes: {'2': 5}) does not."""
    if before:
        return all(name in vocabulary for name in before)
    return any(name in vocabulary for name in names)


def repeats(records: list[Any], record: dict[str, Any]) -> bool:
    """Is `record` the same confirmation as the field's last one (field, value, evidence)?"""
    same = [r for r in records if isinstance(r, dict) and r.get("field") == record["field"]]
    if not same:
        return False
    last = same[-1]
    keys = ("field", "evidence", "value")
    return all(plain(last.get(k)) == plain(record.get(k)) for k in keys)


def plain(value: Any) -> Any:
    """A YAML value as plain dicts, lists and scalars (keys as text), to compare or record."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value
