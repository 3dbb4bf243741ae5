"""Tree-wide rules: unique ids, references that resolve."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from cardkit.check.core import (
    kind_doubt,  # noqa: F401  (registers CK203)
    marks,  # noqa: F401  (registers CK202)
    unclaimed,  # noqa: F401  (registers CK300)
)
from cardkit.check.rules import DocumentRef, Finding, ref, stream_rule
from cardkit.model import Document, Pointer, Severity

# A document's references are its top-level `box` and its fields ending in `_ref`.
BOX_KINDS = ("box", "expansion")  # what `box` may name
REF = "_ref"


@lru_cache(maxsize=256)
def allowed_kinds(system: str, field: str) -> tuple[str, ...] | None:
    """The kinds (after the slash) a reference field of a `system` document may name, or
    None for any: `box` a box or expansion; the field its game groups by (GROUP's `ref`)
    the group's kind; else `X_ref` an X, when the game has that kind."""
    from cardkit import systems

    if field == "box":
        return BOX_KINDS
    try:
        game = systems.get(system)
    except systems.UnknownName:
        return None
    grouping = game.grouping
    if field == grouping.get("ref") and grouping.get("kind"):
        return (grouping["kind"].split("/", 1)[-1],)
    named = field.removesuffix(REF)
    return (named,) if f"{system}/{named}" in game.kinds else None


def qualified_id(system: str, ref: str) -> tuple[str, str]:
    if ":" in ref:
        other, _, slug = ref.partition(":")
        return other, slug
    return system, ref


@stream_rule(
    "CK200", Severity.ERROR, "An id is used by two documents of the same system.", system="core"
)
class UniqueIds:
    """Keeps the first document of each (system, id); a later one is a finding at once."""

    def __init__(self) -> None:
        self.first: dict[tuple[str, str], DocumentRef] = {}

    def see(self, document: Document) -> Iterator[Finding]:
        if document.id is None:
            return
        key = (document.system, document.id)
        first = self.first.get(key)
        if first is None:
            self.first[key] = ref(document)
            return
        line, _ = first.locate(("id",))
        yield Finding(
            document, ("id",), f"id '{document.id}' is already used by {first.display_path}:{line}"
        )

    def finish(self, outside_ids: dict[tuple[str, str], str]) -> Iterator[Finding]:
        return iter(())


def _references(data: dict[str, Any]) -> Iterator[tuple[Pointer, str, str]]:
    """A document's references: only its top-level fields count. (This used to walk the
    whole document and keep only what it found at the top.)"""
    for key, child in data.items():
        if (key == "box" or key.endswith(REF)) and isinstance(child, str):
            yield (key,), key, child


@stream_rule(
    "CK201",
    Severity.ERROR,
    "A reference (box, or a field ending in _ref) names no known document.",
    system="core",
)
class ReferencesResolve:
    """Keeps every id's kind and every reference; resolves them once the tree is seen."""

    def __init__(self) -> None:
        self.known: dict[tuple[str, str], str] = {}
        self.references: list[
            tuple[DocumentRef, Pointer, str, str, tuple[str, str], tuple[str, ...] | None]
        ] = []

    def see(self, document: Document) -> Iterator[Finding]:
        if document.id is not None:
            self.known[(document.system, document.id)] = document.kind.split("/", 1)[-1]
        for pointer, field, value in _references(document.data):
            target = qualified_id(document.system, value)
            allowed = allowed_kinds(document.system, field)
            if target in self.known and (allowed is None or self.known[target] in allowed):
                continue  # resolved already: nothing to keep
            self.references.append((ref(document), pointer, field, value, target, allowed))
        return iter(())

    def finish(self, outside_ids: dict[tuple[str, str], str]) -> Iterator[Finding]:
        known = {key: kind.split("/", 1)[-1] for key, kind in outside_ids.items()}
        known.update(self.known)
        for where, pointer, field, value, target, allowed in self.references:
            target_kind = known.get(target)
            if target_kind is None:
                yield Finding(where, pointer, f"{field} '{value}' names no document in the tree")
            elif allowed is not None and target_kind not in allowed:
                yield Finding(
                    where,
                    pointer,
                    f"{field} '{value}' names a {target_kind}, not a {' or '.join(allowed)}",
                )
