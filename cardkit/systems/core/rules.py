"""Tree-wide rules: unique ids, references that resolve."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cardkit.model import Document, Pointer, Severity
from cardkit.rules import Finding, Tree, tree_rule
from cardkit.systems.core import marks  # noqa: F401  (registers CK202)

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


@tree_rule(
    "CK200", Severity.ERROR, "An id is used by two documents of the same system.", system="core"
)
def unique_ids(tree: Tree) -> Iterator[Finding]:
    seen: dict[tuple[str, str], Document] = {}
    for document in tree.documents:
        if document.id is None:
            continue
        key = (document.system, document.id)
        if key in seen:
            first = seen[key]
            line, _ = first.locate(("id",))
            yield Finding(
                document,
                ("id",),
                f"id '{document.id}' is already used by {first.display_path}:{line}",
            )
        else:
            seen[key] = document


def _references(value: Any, pointer: Pointer) -> Iterator[tuple[Pointer, str, str]]:
    if isinstance(value, dict):
        for key, child in value.items():
            is_ref = key in REFERENCE_FIELDS or key.endswith("_ref")
            if is_ref and isinstance(child, str) and not pointer:
                yield (*pointer, key), key, child
            elif isinstance(child, dict | list):
                yield from _references(child, (*pointer, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _references(child, (*pointer, index))


@tree_rule(
    "CK201",
    Severity.ERROR,
    "A reference (box, or a field ending in _ref) names no known document.",
    system="core",
)
def references_resolve(tree: Tree) -> Iterator[Finding]:
    known = {key: kind.split("/", 1)[-1] for key, kind in tree.outside_ids.items()}
    for document in tree.documents:
        if document.id is not None:
            known[(document.system, document.id)] = document.kind.split("/", 1)[-1]
    for document in tree.documents:
        for pointer, field, ref in _references(document.data, ()):
            target = qualified_id(document.system, ref)
            target_kind = known.get(target)
            allowed = REFERENCE_FIELDS.get(field)
            if target_kind is None:
                yield Finding(document, pointer, f"{field} '{ref}' names no document in the tree")
            elif allowed is not None and target_kind not in allowed:
                yield Finding(
                    document,
                    pointer,
                    f"{field} '{ref}' names a {target_kind}, not a {' or '.join(allowed)}",
                )
