"""What the Python validator must walk to explain an invalid file: only what is wrong.

Explaining an invalid file (jsonschema's detailed errors, read by explain.py) costs a walk
over the whole document, though the compiled validator has already said where the errors
are. Here every list item the compiled validator found no error in, at or below it, is
replaced by a placeholder that every keyword lets pass; the Python validator then walks
only the items that are wrong, and gives the same errors it would over the whole file.

When that holds: a placeholder is "valid against everything", so it can only turn a
failing check into a passing one. That changes nothing where every check above the list
passed and cannot start failing because more below it passes: no error may sit at the
list or above it, and no `oneOf`, `not` or `if` may apply at the list or above it (where
more passing can fail a check or switch a branch). The schema is read once per kind for
where those keywords apply, along each list's path.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from cardkit.schemas import registry as schemas

Path = tuple[str | int, ...]
_TURNING = ("oneOf", "not", "if", "contains")  # more passing below can fail or switch these
_ANY = "*"
_DIALECT = "https://json-schema.org/draft/2020-12/schema"


class Passes:
    """Stands for a list item known to be valid; every keyword lets it pass. Each one is a
    distinct object, equal to no other (`uniqueItems` sees distinct items)."""

    __slots__ = ()


def explaining_validator(kind: str) -> Any:
    """The Python validator of a kind, with every keyword letting a `Passes` through."""
    return _validator(kind)


@cache
def _validator(kind: str) -> Any:
    from jsonschema import Draft202012Validator, validators

    def passing(keyword: Any) -> Any:
        def check(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
            if isinstance(instance, Passes):
                return ()
            return keyword(validator, value, instance, schema)

        return check

    wrapped = {name: passing(fn) for name, fn in Draft202012Validator.VALIDATORS.items()}
    cls = validators.extend(Draft202012Validator, wrapped)  # type: ignore[no-untyped-call]
    return cls({"$ref": schemas.uri_for(kind)}, registry=_registry())


@cache
def _registry() -> Any:
    """The schemas as schemas.py registers them, less their `$schema` where it names
    2020-12 (the default here): a subschema naming its dialect would make jsonschema
    switch to the stock validator class, whose keywords do not let a `Passes` through."""
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    def plain(document: dict[str, Any]) -> dict[str, Any]:
        if document.get("$schema") != _DIALECT:
            return document
        return {key: value for key, value in document.items() if key != "$schema"}

    resources = [
        (uri, Resource.from_contents(plain(document), default_specification=DRAFT202012))
        for uri, document in schemas.documents_by_uri().items()
    ]
    return Registry().with_resources(resources)


@cache
def turning_above(kind: str, place: Path) -> bool:
    """Does a oneOf, not, if or contains apply at `place` (list indexes written `*`) or
    above it? The schema is followed along that one path; where it could branch (pattern
    properties, additional items) every branch is taken: "yes" is the safe answer."""
    resolved = schemas._registry().resolver().lookup(schemas.uri_for(kind))
    frontier: list[tuple[Any, Any]] = [(resolved.contents, resolved.resolver)]
    for depth in range(len(place) + 1):
        here = schemas.in_place(frontier)
        if any(keyword in schema for schema, _ in here for keyword in _TURNING):
            return True
        if depth == len(place):
            return False
        frontier = _children(here, place[depth])
    return False


def _children(here: list[tuple[dict[str, Any], Any]], part: str | int) -> list[tuple[Any, Any]]:
    below: list[tuple[Any, Any]] = []
    for schema, resolver in here:
        if part == _ANY:  # a list item
            keys = ["items", "unevaluatedItems", "contains"]
            subs: list[Any] = [schema.get(k) for k in keys]
            if isinstance(schema.get("prefixItems"), list):
                subs += schema["prefixItems"]
        else:
            keys = ["additionalProperties", "unevaluatedProperties"]
            subs = [schema.get(k) for k in keys]
            if isinstance(schema.get("properties"), dict):
                subs.append(schema["properties"].get(part))
            if isinstance(schema.get("patternProperties"), dict):
                subs += schema["patternProperties"].values()
        below += [(sub, resolver) for sub in subs if isinstance(sub, dict)]
    return below


def _under(place: tuple[str, ...], error: tuple[str, ...]) -> bool:
    """Is `error` at `place` or above it?"""
    return len(error) <= len(place) and place[: len(error)] == error


def scoped(data: Any, errors: Iterable[Path], kind: str) -> Any:
    """`data` with every list item that holds no error (and may be skipped) a `Passes`.
    The data itself is not changed: what changes is copied. (Places are compared as
    text: the compiled validator writes a key "3" as the number 3.)"""
    wrong = [tuple(map(str, path)) for path in errors]
    holding = {path[:cut] for path in wrong for cut in range(len(path) + 1)}

    def walk(value: Any, where: tuple[str, ...], general: Path) -> Any:
        if isinstance(value, dict):
            copy: dict[str, Any] | None = None
            for key, child in value.items():
                if isinstance(child, dict | list):
                    new = walk(child, (*where, str(key)), (*general, key))
                    if new is not child:
                        copy = copy if copy is not None else dict(value)
                        copy[key] = new
            return value if copy is None else copy
        if not isinstance(value, list):
            return value
        skippable = not any(_under(where, path) for path in wrong) and not turning_above(
            kind, general
        )
        items: list[Any] = []
        changed = False
        for index, item in enumerate(value):
            place = (*where, str(index))
            if skippable and place not in holding:
                items.append(Passes())
                changed = True
            elif isinstance(item, dict | list):
                new = walk(item, place, (*general, _ANY))
                items.append(new)
                changed = changed or new is not item
            else:
                items.append(item)
        return items if changed else value

    return walk(data, (), ())
