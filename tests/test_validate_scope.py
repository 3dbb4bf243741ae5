"""Explaining an invalid file walks only what the compiled validator found wrong: the
errors (and so the messages) must be those of the Python validator over the whole file.

Documents of every kind (copies of the test cases) are broken at random places, seeded,
and both walks compared, error by error.
"""

from __future__ import annotations

import copy
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardkit.check import validate
from cardkit.model import Document
from cardkit.schemas import explain
from cardkit.schemas import registry as schemas
from cardkit.schemas import scope as validate_scope

ROOT = Path(__file__).resolve().parent.parent
VALUES: list[Any] = ["x", 3, -1, None, True, [], {}, [1, "a"], {"bogus": 1}, "far", 2.5, "*"]


def _places(value: Any, where: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield where
    if isinstance(value, dict | list):
        children = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in children:
            yield from _places(child, (*where, key))


def _broken(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    data = copy.deepcopy(data)
    where = rng.choice([p for p in _places(data) if p and p[0] != "kind"])
    parent: Any = data
    for part in where[:-1]:
        parent = parent[part]
    if isinstance(parent, dict) and rng.random() < 0.2:
        parent["zz_unknown"] = 1
    elif isinstance(parent, list) and rng.random() < 0.2:
        parent.append(rng.choice(VALUES))
    else:
        parent[where[-1]] = copy.deepcopy(rng.choice(VALUES))
    return data


def _errors(found: list[Any]) -> list[tuple[Any, ...]]:
    return [(tuple(e.absolute_path), e.validator, e.message, explain.explain(e)) for e in found]


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> list[Document]:
    root = tmp_path_factory.mktemp("cases")
    shutil.copytree(ROOT / "tests" / "cases" / "valid", root / "valid")
    loaded = [validate.load_document(p) for p in validate.collect_files([root])]
    return [d for d in loaded if isinstance(d, Document)]


def test_scoped_explanation_gives_the_whole_walks_errors(documents: list[Document]) -> None:
    rng = random.Random(11)
    compared = 0
    skipped_items = 0
    for document in documents:
        for _ in range(8):
            data = _broken(document.data, rng)
            fast = schemas.fast_validator(document.kind)
            if fast.is_valid(data):
                continue
            broken = Document(document.path, document.display_path, data, document.locate)
            whole = schemas.detailed_validator(document.kind).iter_errors(data)
            assert _errors(validate._detailed_errors(broken, fast)) == _errors(list(whole))
            where = [tuple(e.instance_path) for e in fast.iter_errors(data)]
            scoped = validate_scope.scoped(data, where, document.kind)
            skipped_items += sum(
                isinstance(item, validate_scope.Passes)
                for _, node in _lists(scoped)
                for item in node
            )
            compared += 1
    assert compared > 50
    assert skipped_items > 0  # the walk was really cut short somewhere


def _lists(value: Any) -> Iterator[tuple[Any, list[Any]]]:
    if isinstance(value, list):
        yield value, value
        for item in value:
            yield from _lists(item)
    elif isinstance(value, dict):
        for child in value.values():
            yield from _lists(child)


def test_no_skipping_below_a_turning_keyword_or_an_error() -> None:
    """Lists below an `if` (a Villainous location's top level) are walked whole; so is a
    list holding an error at itself. Elsewhere only the wrong items are kept."""
    assert validate_scope.turning_above("villainous/location", ())  # if/then at its top
    assert not validate_scope.turning_above("marvel-united/villain", ("masterplan", "cards"))
    data = {"masterplan": {"cards": [{"n": 1}, {"n": 2}, {"n": 3}]}, "gaps": [{"note": "x"}]}
    kind = "marvel-united/villain"
    scoped = validate_scope.scoped(data, [("masterplan", "cards", 1, "n")], kind)
    cards = scoped["masterplan"]["cards"]
    assert isinstance(cards[0], validate_scope.Passes) and cards[1] == {"n": 2}
    assert data["masterplan"]["cards"][0] == {"n": 1}  # the document itself is untouched
    whole = validate_scope.scoped(data, [("masterplan", "cards")], kind)
    assert whole["masterplan"]["cards"] == data["masterplan"]["cards"]
    below_if = validate_scope.scoped(data, [], "villainous/location")
    assert below_if == data
