"""The schema registry: every schema, resolved offline, compiled once per kind.

Where schemas come from, in order:
1. `CARDKIT_SCHEMAS` (a folder laid out like `schemas/`): a repository's override
   replaces the packaged set;
2. otherwise the copy inside the package, `cardkit/schemas_data/` (a symbolic link
   to the top-level `schemas/` in a checkout; real files in a wheel), read through
   importlib.resources, so an installed cardkit works from any directory;
3. plus, for each game system that ships its own `schemas/` folder, those files.

Schemas carry no `$id`; each is registered under a URI made from its path, so the
relative `$ref`s between files resolve the same way here, in editors
(yaml-language-server) and in check-jsonschema, with no network.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from cardkit import suggest
from cardkit.errors import MissingDependency, UsageError

BASE_URI = "https://cardkit.invalid/schemas/"
SEE_KINDS = "see `cardkit kinds`"  # said of an unknown kind instead of listing them all


def schema_dir() -> Path:
    override = os.environ.get("CARDKIT_SCHEMAS")
    if override:
        return Path(override)
    return Path(str(resources.files("cardkit").joinpath("schemas_data"))).resolve()


@cache
def _files() -> dict[str, Path]:
    """Every schema file by its path relative to a schema root: `marvel-united/box.schema.json`."""
    from cardkit import systems

    roots = [schema_dir()]
    roots += [root for system in systems.all_systems() if (root := system.schema_dir)]
    found: dict[str, Path] = {}
    for root in roots:
        for path in sorted(root.rglob("*.schema.json")):
            found.setdefault(path.relative_to(root).as_posix(), path)
    return found


class BrokenSchema(MissingDependency):
    """A schema file cardkit cannot use: not JSON, or not a JSON Schema. Exit 3, as for
    any broken part of the installation (or of the CARDKIT_SCHEMAS override)."""


def _parse(path: Path) -> dict[str, Any]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise BrokenSchema(
            f"{path}:{err.lineno}:{err.colno}: schema is not JSON: {err.msg}"
        ) from None
    except UnicodeDecodeError as err:
        raise BrokenSchema(f"{path}: schema is not UTF-8 (byte {err.start})") from None
    except OSError as err:
        raise BrokenSchema(f"{path}: cannot read the schema: {err.strerror}") from None
    if not isinstance(document, dict):
        raise BrokenSchema(f"{path}:1:1: a schema is a JSON object, this is not")
    return document


@cache
def _documents() -> dict[str, dict[str, Any]]:
    return {rel: _parse(path) for rel, path in _files().items()}


def documents() -> dict[str, dict[str, Any]]:
    """Every schema as parsed JSON, by its path relative to a schema root."""
    return _documents()


def kinds() -> list[str]:
    """Every kind with a schema, e.g. `marvel-united/villain`.

    Files at the top (`common`, `tokens`) and files whose name starts with `_`
    (definitions several kinds share) are not kinds.
    """
    return sorted(
        rel.removesuffix(".schema.json")
        for rel in _documents()
        if "/" in rel and not rel.rsplit("/", 1)[1].startswith("_")
    )


def schema_path(kind: str) -> Path:
    rel = f"{kind}.schema.json"
    return _files().get(rel, schema_dir() / rel)


def uri_for(kind: str) -> str:
    return f"{BASE_URI}{kind}.schema.json"


@cache
def fast_validator(kind: str) -> Any:
    """A compiled Rust validator: used to decide validity, fast."""
    from cardkit.errors import require

    jsonschema_rs: Any = require("jsonschema_rs", "jsonschema-rs")
    try:
        registry = jsonschema_rs.Registry(
            [(BASE_URI + rel, doc) for rel, doc in _documents().items()]
        )
        return jsonschema_rs.validator_for(
            _documents()[f"{kind}.schema.json"], registry=registry, base_uri=uri_for(kind)
        )
    except (ValueError, jsonschema_rs.ValidationError) as err:  # a schema that is no schema
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise BrokenSchema(f"{schema_path(kind)}: not a usable JSON Schema: {reason}") from None


def documents_by_uri() -> dict[str, dict[str, Any]]:
    """Every schema document under the URI it is registered at."""
    return {BASE_URI + rel: doc for rel, doc in _documents().items()}


@cache
def _registry() -> Any:
    from cardkit.errors import require

    require("referencing", "referencing")
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    resources = [
        (BASE_URI + rel, Resource.from_contents(doc, default_specification=DRAFT202012))
        for rel, doc in _documents().items()
    ]
    return Registry().with_resources(resources)


@cache
def detailed_validator(kind: str) -> Any:
    """A Python jsonschema validator: used only to explain failures."""
    from jsonschema import Draft202012Validator

    resolver_root = {"$ref": uri_for(kind)}
    return Draft202012Validator(resolver_root, registry=_registry())


def export(dest: Path) -> list[Path]:
    """Write every schema file under dest, keeping their relative paths so the `$ref`s
    between them resolve there too (for editors: yaml-language-server, VS Code)."""
    from cardkit.files import yamlio

    written = []
    for rel, path in _files().items():
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        yamlio.atomic_write(target, path.read_bytes())
        written.append(target)
    return written


def resolve_kind(name: str) -> str:
    """A full kind (`marvel-united/hero`) from itself or its unambiguous short name (`hero`)."""
    known = kinds()
    if name in known:
        return name
    short = [kind for kind in known if kind.split("/", 1)[1] == name]
    if len(short) == 1:
        return short[0]
    if short:
        raise UsageError(f"kind '{name}' is ambiguous: {', '.join(short)}; name one in full")
    names = known + sorted({kind.split("/", 1)[1] for kind in known})
    raise UsageError(f"unknown kind '{name}'; {suggest.hint(name, names, elsewhere=SEE_KINDS)}")


def property_names(kind: str, pointer: tuple[Any, ...]) -> set[str]:
    """The names the kind's schema declares for the object at `pointer` of a document
    (`("card",)` of a masterplan-card: n, move, bam, place...), through `$ref`s and every
    branch of allOf/anyOf/oneOf/if/then/else; empty when the kind has no schema."""
    if f"{kind}.schema.json" not in _documents():
        return set()
    nodes = [(_documents()[f"{kind}.schema.json"], _registry().resolver(base_uri=uri_for(kind)))]
    for part in pointer:
        nodes = [child for node in nodes for child in _children(node, part)]
    return {
        name
        for schema, _ in in_place(nodes, negated=False)
        for name in schema.get("properties", {})
    }


def in_place(
    frontier: list[tuple[Any, Any]], *, negated: bool = True
) -> list[tuple[dict[str, Any], Any]]:
    """The schemas that apply at the same place as those given, each with the resolver of
    its own document: through $ref and the applicators (and `not`, unless `negated` is
    False: a property named under `not` is one the value must not have)."""
    found: list[tuple[dict[str, Any], Any]] = []
    seen: set[int] = set()
    stack = list(frontier)
    while stack:
        schema, resolver = stack.pop()
        if not isinstance(schema, dict) or id(schema) in seen:
            continue
        seen.add(id(schema))
        found.append((schema, resolver))
        for keyword in ("$ref", "$dynamicRef"):
            if isinstance(schema.get(keyword), str):
                target = resolver.lookup(schema[keyword])
                stack.append((target.contents, target.resolver))
        same: list[Any] = [schema.get(k) for k in ("if", "then", "else")]
        if negated:
            same.append(schema.get("not"))
        for keyword in ("allOf", "anyOf", "oneOf"):
            if isinstance(schema.get(keyword), list):
                same += schema[keyword]
        if isinstance(schema.get("dependentSchemas"), dict):
            same += schema["dependentSchemas"].values()
        stack += [(sub, resolver) for sub in same]
    return found


def _children(node: tuple[Any, Any], part: Any) -> list[tuple[Any, Any]]:
    """The schemas of a value's member `part` (a key, or an index into a list)."""
    out = []
    for schema, resolver in in_place([node], negated=False):
        if isinstance(part, int):
            prefix = schema.get("prefixItems") or []
            item = prefix[part] if part < len(prefix) else schema.get("items")
            out += [(item, resolver)] if isinstance(item, dict) else []
            continue
        named = schema.get("properties") or {}
        if part in named:
            out.append((named[part], resolver))
            continue
        patterns = schema.get("patternProperties") or {}
        out += [(sub, resolver) for p, sub in patterns.items() if re.search(p, str(part))]
        extra = schema.get("additionalProperties")
        out += [(extra, resolver)] if isinstance(extra, dict) else []
    return out
