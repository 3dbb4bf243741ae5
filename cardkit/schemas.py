"""The schema registry: every schema under schemas/, resolved offline, compiled once per kind.

Schemas carry no `$id`; each is registered under a URI made from its path, so the
relative `$ref`s between files resolve the same way here, in editors
(yaml-language-server) and in check-jsonschema, with no network.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

BASE_URI = "https://cardkit.invalid/schemas/"


def schema_dir() -> Path:
    override = os.environ.get("CARDKIT_SCHEMAS")
    return Path(override) if override else Path(__file__).resolve().parent.parent / "schemas"


@cache
def _documents() -> dict[str, dict[str, Any]]:
    root = schema_dir()
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(root.rglob("*.schema.json")):
        found[path.relative_to(root).as_posix()] = json.loads(path.read_text(encoding="utf-8"))
    return found


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
    return schema_dir() / f"{kind}.schema.json"


def uri_for(kind: str) -> str:
    return f"{BASE_URI}{kind}.schema.json"


@cache
def fast_validator(kind: str) -> Any:
    """A compiled Rust validator: used to decide validity, fast."""
    from cardkit.errors import require

    jsonschema_rs: Any = require("jsonschema_rs", "jsonschema-rs")
    registry = jsonschema_rs.Registry([(BASE_URI + rel, doc) for rel, doc in _documents().items()])
    return jsonschema_rs.validator_for(
        _documents()[f"{kind}.schema.json"], registry=registry, base_uri=uri_for(kind)
    )


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
