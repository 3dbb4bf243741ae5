"""The game-system registry: systems, their kinds and their token vocabularies."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from jsonschema import Draft202012Validator

from cardkit import systems
from cardkit.files.yamlio import load_text
from cardkit.schemas import registry as schemas
from tests.conftest import ROOT


def test_get_returns_the_system_with_its_kinds_and_tokens() -> None:
    mu = systems.get("marvel-united")
    assert mu.name == "marvel-united"
    assert "marvel-united/masterplan-card" in mu.kinds
    assert all(kind.startswith("marvel-united/") for kind in mu.kinds)
    assert mu.manifest_kind == "marvel-united/box"
    assert mu.tokens["civilian"].plural == "Civilians"


def test_every_kind_belongs_to_exactly_one_system() -> None:
    owners = {kind: systems.for_kind(kind).name for kind in schemas.kinds()}
    assert set(owners.values()) == set(systems.system_names())
    assert sum(len(system.kinds) for system in systems.all_systems()) == len(schemas.kinds())


def test_unknown_system_says_what_is_close() -> None:
    with pytest.raises(systems.UnknownName, match="did you mean 'villainous'"):
        systems.get("villanous")


def test_unknown_token_says_what_is_close() -> None:
    with pytest.raises(
        systems.UnknownName, match="unknown marvel-united token 'thgu'; did you mean 'thug'"
    ):
        systems.get("marvel-united").tokens.get_token("thgu")


def test_labels_use_the_declared_plural() -> None:
    crisis = systems.get("marvel-united").tokens["crisis"]
    assert crisis.label(1) == "1 Crisis token"
    assert crisis.label(3) == "3 Crisis tokens"
    assert systems.get("marvel-united").tokens["thug"].label(2) == "2 Thugs"


def test_anchors_are_tokens_with_a_role() -> None:
    anchors = {token.name for token in systems.get("marvel-united").tokens.with_role("anchor")}
    assert {"villain", "sewer"} <= anchors


def test_box_declared_tokens_extend_the_vocabulary() -> None:
    base = systems.get("marvel-united").tokens
    more = base.extended(
        [
            {
                "name": "infection",
                "singular": "Infection token",
                "plural": "Infection tokens",
                "mark": "I",
                "icon": "infection",
                "role": "counter",
            }
        ]
    )
    assert more["infection"].label(2) == "2 Infection tokens"
    assert "infection" not in base


@pytest.mark.parametrize("system", systems.system_names())
def test_vocabulary_file_follows_its_schema_and_marks_are_unique(system: str) -> None:
    module = systems.get(system).module
    data = load_text(resources.files(module).joinpath("tokens.yaml").read_text(encoding="utf-8"))
    schema = json.loads((ROOT / "schemas/tokens.schema.json").read_text())
    common = json.loads((ROOT / "schemas/common.schema.json").read_text())
    from referencing import Registry, Resource

    registry = Registry().with_resources(
        [
            ("https://x.invalid/tokens.schema.json", Resource.from_contents(schema)),
            ("https://x.invalid/common.schema.json", Resource.from_contents(common)),
        ]
    )
    validator = Draft202012Validator(
        {"$ref": "https://x.invalid/tokens.schema.json"}, registry=registry
    )
    assert list(validator.iter_errors(data)) == []
    marks = [token["mark"] for token in data["tokens"]]
    names = [token["name"] for token in data["tokens"]]
    assert len(set(marks)) == len(marks), marks
    assert len(set(names)) == len(names), names


def test_the_core_names_no_system() -> None:
    """The core (cardkit/*.py, render, report, rulebook, exchange) names no registered
    system or kind.

    Docstrings may use one as an example. A format adapter tied to one system's outside
    format lives in that system's folder (games/marvel_champions/marvelsdb.py); the
    CLI's help examples are not the core.
    """
    import ast

    names = systems.system_names()
    found = []
    core = [*(ROOT / "cardkit").glob("*.py")]
    for package in ("render", "report", "rulebook", "exchange"):
        core += (ROOT / "cardkit" / package).rglob("*.py")
    for path in sorted(core):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) in docstrings:
                    continue
                found += [
                    f"{path.name}:{node.lineno} {name}"
                    for name in names
                    if name in node.value or name.replace("-", "_") in node.value
                ]
    assert found == []
