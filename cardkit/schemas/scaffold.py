"""`cardkit new KIND ID`: a new card file with every field its kind requires.

The skeleton is made from the kind's JSON Schema, not from a template per kind, so it
works for every kind of every registered system, plugins included:

- `$ref`, `allOf` and an `if`/`then` whose `if` holds for the skeleton are followed;
  `oneOf`/`anyOf` take the first branch that gives a valid value;
- each required property gets a placeholder: `const`/`enum` -> the first value, a string
  -> `TODO` (or the first of a few candidates its `pattern` accepts), a number -> its
  `minimum` (else 0), a boolean -> false, an array -> `minItems` placeholders;
- every placeholder field is listed in the document's `unconfirmed`, so `cardkit gaps`
  lists it until `cardkit confirm` (or an edit that also removes the mark) settles it.

The file starts with the yaml-language-server modeline the corpus uses and is written
atomically; an existing file is replaced only when asked (`force`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin

from cardkit.errors import UsageError
from cardkit.files import safe_paths, yamlio
from cardkit.model import printable
from cardkit.schemas import registry as schemas

PLACEHOLDER = "TODO"
_SLUG_CANDIDATES = ("todo", "TODO", "x", "0", "a")
_FIXED = ("kind", "id")  # what the command itself decides: never placeholders
BASE = "$cardkit-base"  # the URI a sub-schema's references are relative to
_SUBSCHEMAS = ("items", "prefixItems", "oneOf", "anyOf", "additionalProperties", "contains")


@dataclass
class _Maker:
    """Walks one kind's schema (references resolved offline) and makes placeholder values."""

    documents: dict[str, dict[str, Any]]

    def resolve(self, node: dict[str, Any], base: str) -> dict[str, Any]:
        """The node with its `$ref`, `allOf` and applicable `then` merged in. Each
        sub-schema taken over carries the URI its own references are relative to."""
        merged: dict[str, Any] = {}
        parts = [(node, node.get(BASE, base))]
        while parts:
            part, where = parts.pop(0)
            if "$ref" in part:
                parts.append(self.target(part["$ref"], where))
            parts += [(sub, sub.get(BASE, where)) for sub in part.get("allOf", [])]
            if "then" in part and self.holds(part.get("if", {}), merged):
                parts.append((part["then"], where))
            for key, value in part.items():
                if key == "properties":
                    based = {k: _based(v, where) for k, v in value.items()}
                    merged["properties"] = {**based, **merged.get("properties", {})}
                elif key == "required":
                    merged["required"] = list(dict.fromkeys([*merged.get("required", []), *value]))
                elif key not in ("$ref", "allOf", "if", "then", BASE):
                    merged.setdefault(key, _based(value, where) if key in _SUBSCHEMAS else value)
        return merged

    def target(self, ref: str, base: str) -> tuple[dict[str, Any], str]:
        url, fragment = urldefrag(urljoin(base, ref))
        node: Any = self.documents[url.removeprefix(schemas.BASE_URI)]
        for part in [p for p in fragment.split("/") if p]:
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node, url

    def holds(self, condition: dict[str, Any], merged: dict[str, Any]) -> bool:
        """Whether an `if` holds for the skeleton: required keys and consts it would carry."""
        required = set(merged.get("required", []))
        if not set(condition.get("required", [])) <= required:
            return False
        for key, sub in condition.get("properties", {}).items():
            if key in required and "const" in sub:
                return bool(sub["const"] == self.make(merged["properties"][key], ""))
        return True

    def make(self, node: Any, base: str, depth: int = 0) -> Any:
        if not isinstance(node, dict) or depth > 30:
            return PLACEHOLDER
        node = self.resolve(node, base)
        if "const" in node:
            return node["const"]
        if node.get("enum"):
            return node["enum"][0]
        for choice in ("oneOf", "anyOf"):
            if choice in node:
                return self.choose(node, choice, base, depth)
        kind = node.get("type", "object" if "properties" in node else "string")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        if kind == "object":
            props = node.get("properties", {})
            return {
                key: self.make(props.get(key, {}), base, depth + 1)
                for key in node.get("required", [])
            }
        if kind == "array":
            items = node.get(
                "items", node.get("prefixItems", [{}])[0] if node.get("prefixItems") else {}
            )
            return [self.make(items, base, depth + 1) for _ in range(int(node.get("minItems", 0)))]
        if kind in ("integer", "number"):
            if "minimum" in node:
                return node["minimum"]
            return node["exclusiveMinimum"] + 1 if "exclusiveMinimum" in node else 0
        if kind == "boolean":
            return False
        if kind == "null":
            return None
        return _string(node)

    def choose(self, node: dict[str, Any], choice: str, base: str, depth: int) -> Any:
        """The first branch of a oneOf/anyOf that is an object or a plain value (not null)."""
        rest = {k: v for k, v in node.items() if k != choice}
        for branch in node[choice]:
            value = self.make({"allOf": [rest, branch]}, base, depth + 1)
            if value is not None:
                return value
        return None


def _based(value: Any, where: str) -> Any:
    """A sub-schema (or a list of them) tagged with the URI its references resolve against."""
    if isinstance(value, dict):
        return value if BASE in value else {**value, BASE: where}
    if isinstance(value, list):
        return [_based(item, where) for item in value]
    return value


def _string(node: dict[str, Any]) -> str:
    pattern = node.get("pattern")
    minimum = int(node.get("minLength", 0))
    if pattern:
        for candidate in [*_SLUG_CANDIDATES, _shortest(pattern)]:
            if re.search(pattern, candidate) and len(candidate) >= minimum:
                return candidate
    return PLACEHOLDER.ljust(minimum, "?")


def _shortest(pattern: str) -> str:
    """A short string a (simple) regular expression matches: first choices, fewest repeats."""
    import importlib

    parser: Any = importlib.import_module("re._parser")  # the stdlib's own reading of it

    def walk(items: Any) -> str:
        out = []
        for op, arg in items:
            name = str(op)
            if name == "LITERAL":
                out.append(chr(arg))
            elif name == "IN":
                out.append(walk(arg[:1]) if str(arg[0][0]) != "NEGATE" else "x")
            elif name == "RANGE":
                out.append(chr(arg[0]))
            elif name == "CATEGORY":
                out.append({"CATEGORY_DIGIT": "0", "CATEGORY_SPACE": " "}.get(str(arg), "a"))
            elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                out.append(walk(arg[2]) * int(arg[0]))
            elif name == "SUBPATTERN":
                out.append(walk(arg[-1]))
            elif name == "BRANCH":
                out.append(walk(arg[1][0]))
            elif name == "ANY":
                out.append("x")
        return "".join(out)

    try:
        return walk(parser.parse(pattern))
    except (re.error, TypeError, ValueError, IndexError):
        return PLACEHOLDER


SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def check_id(ident: str) -> None:
    if not SLUG.match(ident):
        raise UsageError(f"id '{ident}' is not a slug: lower-case letters, digits and dashes")


def target(kind: str, ident: str, out: Path | None, box: str | None) -> Path:
    """Where the file goes: --out (a file, or a folder for ID.yaml), else the repository's
    cards/SYSTEM/BOX/ when a box is named and cards/ is here, else ./ID.yaml."""
    if box is not None and not SLUG.match(box):  # a folder name: `../../x` would climb out
        raise UsageError(
            f"--box '{printable(box)}' is not an id: lower-case letters, digits and dashes"
        )
    if out is not None:
        return out / f"{ident}.yaml" if out.is_dir() else out
    if box and Path("cards").is_dir():
        system = kind.split("/", 1)[0]
        return safe_paths.child(Path("cards"), system, box, f"{ident}.yaml", what="--box")
    return Path(f"{ident}.yaml")


def placeholders(content: str) -> list[str]:
    """The fields a scaffolded file marks unconfirmed."""
    data = yamlio.load_text(content)
    marks = data.get("unconfirmed", []) if isinstance(data, dict) else []
    return [str(mark) for mark in marks]


def skeleton(kind: str, ident: str, fields: dict[str, Any] | None = None) -> dict[str, Any]:
    """The document: kind, id, the given fields, then each required field as a placeholder,
    and `unconfirmed` naming the placeholders."""
    maker = _Maker(schemas.documents())
    made = maker.make({"$ref": schemas.uri_for(kind)}, schemas.uri_for(kind))
    data: dict[str, Any] = {"kind": kind, "id": ident}
    given = {k: v for k, v in (fields or {}).items() if v is not None}
    placeholders = []
    for key, value in made.items() if isinstance(made, dict) else []:
        if key in _FIXED:
            continue
        if key in given:
            data[key] = given.pop(key)
        else:
            data[key] = value
            placeholders.append(key)
    data.update(given)
    if placeholders:
        data["unconfirmed"] = placeholders
    return data


def text(kind: str, ident: str, target: Path, fields: dict[str, Any] | None = None) -> str:
    """The file: the modeline, then the skeleton, its top level always in block style."""
    import io

    from cardkit.rulebook.importer import modeline

    node = yamlio.to_ruamel(skeleton(kind, ident, fields))
    node.fa.set_block_style()
    stream = io.StringIO()
    yamlio.round_trip_yaml().dump(node, stream)
    return modeline(kind, target) + stream.getvalue()


def write(target: Path, content: str, *, force: bool = False) -> None:
    """Write the new file atomically; an existing one only with `force`."""
    from cardkit.files.atomic import atomic_write

    if target.is_dir():
        raise UsageError(f"{target}: is a folder; name the new file")
    if target.exists() and not force:
        raise UsageError(f"{target}: already exists; pass --force to replace it")
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(target, content)
