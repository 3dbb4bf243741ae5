"""The page's changes, made by `cardkit.confirm` and guarded against what the page showed.

Each control the page draws is chosen from the field's value: token counts per slot
(steppers), a number, yes/no, text, or YAML for anything else; a gap note is closed as
it stands. A confirmation carries what the page saw (the file's hash, the field's value
and mark). Under the file's lock (confirm's transaction) the guard compares: the same
file, or the same field in a file changed elsewhere (another tab, a terminal `confirm`,
an editor saving another line), goes ahead on the text on disk, so nothing is lost; a
field changed since the page showed it is refused and the page reloads the card.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardkit.confirm import edit as confirm
from cardkit.confirm.semantics import MISSING, plain, resolve
from cardkit.errors import CardkitError, ExitCode
from cardkit.files import yamlio
from cardkit.gaps.rows import Gap
from cardkit.review.repository import Card, text_etag

TOKEN_ROLE = "placement"  # the vocabulary's tokens a counts control offers


class Stale(CardkitError):
    """The field is not what the page showed: nothing was written, the card is reloaded."""

    exit_code = ExitCode.FINDINGS


@dataclass(frozen=True)
class Seen:
    """What the page showed when the person decided."""

    etag: str
    value: Any
    marked: bool


def field_state(data: Any, address: str) -> tuple[Any, bool]:
    """The field's value (plain; None when absent) and whether it is still marked."""
    _, value = resolve(data, address)
    value = None if value is MISSING else plain(value)
    try:
        is_marked = confirm.marked(data, address)
    except CardkitError:
        is_marked = False
    return value, is_marked


def _slot_counts(value: Any) -> dict[str, dict[str, int]]:
    if not isinstance(value, dict):
        return {}
    return {
        str(slot): {str(t): n for t, n in counts.items()}
        for slot, counts in value.items()
        if isinstance(counts, dict) and all(isinstance(n, int) for n in counts.values())
    }


def _vocabulary(kind: str) -> Any:
    from cardkit import systems

    try:
        return systems.for_kind(kind).tokens
    except LookupError:
        return None


def _leaves(value: Any, path: tuple[str, ...] = ()) -> list[tuple[list[str], int]] | None:
    """Every number of a mapping of numbers, by its path; None if anything else is in it."""
    if isinstance(value, int) and not isinstance(value, bool):
        return [(list(path), value)]
    if not isinstance(value, dict) or not value:
        return None
    found: list[tuple[list[str], int]] = []
    for key, inner in value.items():
        below = _leaves(inner, (*path, str(key)))
        if below is None:
            return None
        found += below
    return found


def editor(card: Card, row: Gap, value: Any) -> dict[str, Any]:
    """The control for a gap: what it edits and how."""
    if row.origin == "inferred" or not row.address:
        return {"type": "fix-in-file"}
    if isinstance(value, dict) and "note" in value and "status" in value:
        return {"type": "note"}
    counts = _slot_counts(value)
    vocabulary = _vocabulary(row.kind)
    if (
        counts
        and vocabulary is not None
        and all(name in vocabulary for have in counts.values() for name in have)
    ):
        from cardkit.render.content import SLOTS

        tokens = [t.name for t in vocabulary.with_role(TOKEN_ROLE)]
        for have in counts.values():
            tokens += [t for t in have if t not in tokens]
        slots = list(dict.fromkeys([*SLOTS, *counts]))
        return {"type": "counts", "slots": slots, "tokens": tokens, "counts": counts}
    if isinstance(value, bool):
        return {"type": "bool"}
    if isinstance(value, int):
        return {"type": "number"}
    if isinstance(value, str):
        return {"type": "text"}
    leaves = _leaves(value)
    if leaves:
        return {"type": "numbers", "leaves": leaves}
    return {"type": "yaml", "text": "" if value is None else _flow(value)}


def _flow(value: Any) -> str:
    """A value as one line of YAML, as `confirm --value` takes it."""
    import yaml

    return str(yaml.safe_dump(value, default_flow_style=True, allow_unicode=True)).strip()


class _Guard:
    """Refuses a change to a field that is not as the page showed it; notes a file changed
    elsewhere (the edit then goes ahead on the text on disk)."""

    def __init__(self, address: str, seen: Seen) -> None:
        self.address, self.seen = address, seen
        self.elsewhere = False

    def __call__(self, path: Path, text: str) -> None:
        if text_etag(text) == self.seen.etag:
            self.elsewhere = False
            return
        self.elsewhere = True
        try:
            now = field_state(yamlio.load_text(text), self.address)
        except (CardkitError, yamlio.YamlProblem):
            now = ("?", False)  # unreadable now: not what the page showed
        if now != (self.seen.value, self.seen.marked):
            raise Stale(
                f"{path}: {self.address} was changed on disk since the page showed it (an "
                "editor, a terminal or another tab); the card is shown again as it is now, "
                "nothing was written"
            )


def value_of(control: dict[str, Any], seen: Any = None) -> Any:
    """The value a control sent, as confirm takes it (a counts grid drops empty slots; a
    grid of numbers sets them in the value the page showed, which the guard holds to)."""
    from cardkit.confirm import checklist

    kind = control.get("type")
    if kind == "numbers":
        import copy

        value = copy.deepcopy(seen)
        for path, number in control.get("leaves") or []:
            node = value
            for part in path[:-1]:
                node = node[part]
            if path[-1] not in node or not isinstance(number, int) or isinstance(number, bool):
                raise ValueError(f"no number at {'/'.join(path)}")
            node[path[-1]] = number
        return value
    if kind == "counts":
        grid = control.get("counts") or {}
        kept = {
            str(slot): {str(t): int(n) for t, n in counts.items() if int(n) > 0}
            for slot, counts in grid.items()
            if isinstance(counts, dict)
        }
        return {slot: counts for slot, counts in kept.items() if counts}
    if kind == "yaml":
        return checklist.parse_value(str(control.get("text", "")))
    return control.get("value")


def apply(
    path: Path,
    address: str,
    seen: Seen,
    by: str,
    evidence: str,
    value: Any = confirm.AS_PRINTED,
    replace: bool = False,
) -> tuple[confirm.Outcome, bool]:
    """Confirm (or correct) one field through confirm's transaction, guarded by `seen`;
    also says whether the file had been changed elsewhere since the page read it."""
    request = confirm.Request(address, by, evidence, value=value, replace=replace)
    guard = _Guard(address, seen)
    return confirm.confirm_file(path, [request], guard), guard.elsewhere


def take_back(path: Path, address: str, record: dict[str, Any]) -> confirm.Outcome:
    """Undo the page's own confirmation, unless someone confirmed the field again since."""

    def check(path: Path, text: str) -> None:
        try:
            last = confirm.last_confirmation(yamlio.load_text(text), address)
        except (CardkitError, yamlio.YamlProblem):
            last = None
        if last != record:
            raise Stale(
                f"{path}: {address} was confirmed or edited again since; its last confirmation "
                "is not the one this page made, so it is left as it is; nothing was written"
            )

    return confirm.undo_file(path, address, check)
