"""Readable one-line messages for JSON Schema errors (the best match, not a wall of text)."""

from __future__ import annotations

import re
from typing import Any

from cardkit.model import Pointer

_UNEXPECTED = re.compile(r"\((.*) (?:was|were) unexpected\)")
_JSON_TYPES = {
    dict: "object",
    list: "array",
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
}


def json_type(value: Any) -> str:
    return "null" if value is None else _JSON_TYPES.get(type(value), type(value).__name__)


def short(value: Any, limit: int = 40) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"an array of {len(value)}"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _describe_branch(error: Any) -> str:
    if error.validator == "type":
        expected = error.validator_value
        return " or ".join(expected) if isinstance(expected, list) else str(expected)
    if error.validator == "const":
        return repr(error.validator_value)
    if error.validator == "enum":
        return "one of " + ", ".join(repr(v) for v in error.validator_value)
    return str(explain(error)[1])


_SHAPE = ("type", "const", "enum")


def _fitting_branches(error: Any) -> list[Any]:
    """Errors of the oneOf/anyOf branches whose shape fits the instance.

    A branch that failed on type, const or enum at the instance itself is the
    wrong shape; the errors of the other branches say what is really wrong.
    """
    by_branch: dict[Any, list[Any]] = {}
    for sub in error.context:
        by_branch.setdefault(sub.schema_path[0] if sub.schema_path else None, []).append(sub)
    fitting = [
        errs
        for errs in by_branch.values()
        if not any(e.validator in _SHAPE and not e.relative_path for e in errs)
    ]
    return [e for errs in fitting for e in errs]


def explain(error: Any) -> tuple[Pointer, str]:
    """The pointer to blame and a one-line message for a jsonschema ValidationError.

    For an unknown property the pointer ends at that property's key.
    """
    from jsonschema.exceptions import best_match

    if error.context:
        fitting = _fitting_branches(error)
        if fitting:
            return explain(best_match(fitting))
        same_place = [e for e in error.context if not e.relative_path]
        if len(same_place) == len(error.context):
            options = []
            for branch in same_place:
                option = _describe_branch(branch)
                if option not in options:
                    options.append(option)
            where = tuple(error.absolute_path)
            return (
                where,
                f"{short(error.instance)} is not valid here: expected {' or '.join(options)}",
            )
        error = best_match(error.context)
        if error.context:
            return explain(error)
    where = tuple(error.absolute_path)
    validator, value, instance = error.validator, error.validator_value, error.instance
    if validator == "required":
        missing = [name for name in value if isinstance(instance, dict) and name not in instance]
        return where, f"missing required property '{missing[0] if missing else value[0]}'"
    if validator in ("additionalProperties", "unevaluatedProperties"):
        match = _UNEXPECTED.search(error.message)
        names = [n.strip().strip("'") for n in match.group(1).split(",")] if match else []
        if names:
            return (*where, names[0]), f"unknown property '{names[0]}'" + (
                f" (and {len(names) - 1} more)" if len(names) > 1 else ""
            )
        return where, "unknown properties"
    if validator == "type":
        expected = " or ".join(value) if isinstance(value, list) else value
        return where, f"expected {expected}, got {json_type(instance)} {short(instance)}"
    if validator == "const":
        return where, f"must be {value!r}, got {short(instance)}"
    if validator == "enum":
        return where, f"{short(instance)} is not one of {', '.join(repr(v) for v in value)}"
    if validator == "pattern":
        return where, f"{short(instance)} does not match the pattern {value}"
    if validator == "not" and isinstance(value, dict) and value.get("description"):
        return where, f"{short(instance)} {value['description']}"  # says what is refused
    if validator in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return where, f"{short(instance)} is out of range ({validator} {value})"
    if validator in ("minItems", "maxItems", "minLength", "maxLength", "minProperties"):
        return where, f"{short(instance)} is too short or long ({validator} {value})"
    if validator == "uniqueItems":
        return where, "items must be unique"
    message = error.message
    return where, message if len(message) <= 160 else message[:157] + "..."
