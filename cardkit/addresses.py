"""Addresses of fields inside a document, as people say them.

`masterplan/cards/12/place` is the `place` of master plan card 12: in a list of
mappings that carry `n`, a number selects by `n`; in a list of mappings that carry
`name`, a name selects by name (case-insensitive); otherwise a number is an index.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from cardkit.errors import UsageError
from cardkit.model import Pointer


def segment_for(items: list[Any], index: int) -> str:
    """The address segment that names item `index` of a list."""
    item = items[index]
    if isinstance(item, dict) and isinstance(item.get("n"), int):
        return str(item["n"])
    if isinstance(item, dict) and isinstance(item.get("name"), str) and "/" not in item["name"]:
        return str(item["name"])
    return str(index)


def resolve(data: Any, address: str) -> tuple[Pointer, Any]:
    """The JSON pointer (with list indexes) and value an address names."""
    pointer: list[str | int] = []
    said: list[str] = []  # the address so far, as the person wrote it
    node = data
    for part in [p for p in address.split("/") if p]:
        if isinstance(node, dict):
            if part not in node:
                known = ", ".join(map(str, node)) or "nothing"
                raise UsageError(f"no '{part}' at '{'/'.join(said) or 'the top'}'; there: {known}")
            pointer.append(part)
            node = node[part]
        elif isinstance(node, list):
            index = _select(node, part)
            if index is None:
                choices = ", ".join(segment_for(node, i) for i in range(len(node)))
                where = "/".join(said)
                raise UsageError(f"no item '{part}' in '{where}'; choose one of: {choices}")
            pointer.append(index)
            node = node[index]
        else:
            raise UsageError(f"'{'/'.join(said)}' is a value; it has no '{part}'")
        said.append(part)
    return tuple(pointer), node


def _select(items: list[Any], part: str) -> int | None:
    by_n = [i for i, it in enumerate(items) if isinstance(it, dict) and str(it.get("n")) == part]
    if by_n:
        return by_n[0]
    by_name = [
        i
        for i, it in enumerate(items)
        if isinstance(it, dict) and str(it.get("name", "")).casefold() == part.casefold()
    ]
    if len(by_name) > 1:
        raise UsageError(f"'{part}' names {len(by_name)} items; use its position instead")
    if by_name:
        return by_name[0]
    if (
        part.isdigit()
        and int(part) < len(items)
        and not any(isinstance(it, dict) and "n" in it for it in items)
    ):
        return int(part)
    return None


def address_of(data: Any, pointer: Pointer) -> str:
    """The friendly address of a JSON pointer."""
    parts: list[str] = []
    node = data
    for part in pointer:
        if isinstance(node, list) and isinstance(part, int):
            parts.append(segment_for(node, part))
        else:
            parts.append(str(part))
        node = node[part]
    return "/".join(parts)


def matches(pattern: str, address: str) -> bool:
    """Does a note's field pattern (`masterplan/cards/*/place`) cover an address?"""
    want, have = pattern.split("/"), address.split("/")
    if len(have) < len(want):
        return False
    return all(w in ("*", h) for w, h in zip(want, have, strict=False))


def walk(value: Any, pointer: Pointer = ()) -> Iterator[tuple[Pointer, dict[str, Any]]]:
    """Every mapping in a document with its pointer, parents before children.

    (A stack, not nested generators: a deep document would pay each level per mapping.)"""
    stack: list[tuple[Pointer, Any]] = [(pointer, value)]
    while stack:
        pointer, value = stack.pop()
        if isinstance(value, dict):
            yield pointer, value
            items: Iterable[tuple[Any, Any]] = value.items()
        elif isinstance(value, list):
            items = enumerate(value)
        else:
            continue
        children = [((*pointer, k), c) for k, c in items if isinstance(c, dict | list)]
        stack.extend(reversed(children))
