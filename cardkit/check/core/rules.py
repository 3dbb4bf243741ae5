"""Tree-wide rules: unique ids, references that resolve."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cardkit.check.core import (
    kind_doubt,  # noqa: F401  (registers CK203)
    marks,  # noqa: F401  (registers CK202)
    unclaimed,  # noqa: F401  (registers CK300)
)
from cardkit.check.rules import DocumentRef, Finding, ref, stream_rule
from cardkit.model import Document, Pointer, Severity

# Top-level fields that hold a reference to another document's id, and the kinds
# they may name. Other references end in `_ref` and may name any kind.
REFERENCE_FIELDS: dict[str, tuple[str, ...] | None] = {
    "box": ("box", "expansion"),
    "villain_ref": ("villain",),
    "hero_ref": ("hero",),
    "achievements_ref": ("achievements",),
}


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
        if (key in REFERENCE_FIELDS or key.endswith("_ref")) and isinstance(child, str):
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
        self.references: list[tuple[DocumentRef, Pointer, str, str, tuple[str, str]]] = []

    def see(self, document: Document) -> Iterator[Finding]:
        if document.id is not None:
            self.known[(document.system, document.id)] = document.kind.split("/", 1)[-1]
        for pointer, field, value in _references(document.data):
            target = qualified_id(document.system, value)
            allowed = REFERENCE_FIELDS.get(field)
            if target in self.known and (allowed is None or self.known[target] in allowed):
                continue  # resolved already: nothing to keep
            self.references.append((ref(document), pointer, field, value, target))
        return iter(())

    def finish(self, outside_ids: dict[tuple[str, str], str]) -> Iterator[Finding]:
        known = {key: kind.split("/", 1)[-1] for key, kind in outside_ids.items()}
        known.update(self.known)
        for where, pointer, field, value, target in self.references:
            target_kind = known.get(target)
            allowed = REFERENCE_FIELDS.get(field)
            if target_kind is None:
                yield Finding(where, pointer, f"{field} '{value}' names no document in the tree")
            elif allowed is not None and target_kind not in allowed:
                yield Finding(
                    where,
                    pointer,
                    f"{field} '{value}' names a {target_kind}, not a {' or '.join(allowed)}",
                )
