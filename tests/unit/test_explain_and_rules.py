from __future__ import annotations

import re

from cardkit.check.rules import all_rules
from cardkit.schemas import registry as schemas
from cardkit.schemas.explain import explain
from tests.conftest import run_cli


def _messages(kind: str, data: dict[str, object]) -> list[tuple[tuple[object, ...], str]]:
    return [explain(e) for e in schemas.detailed_validator(kind).iter_errors(data)]


def test_one_of_picks_the_branch_whose_shape_fits() -> None:
    data = {
        "kind": "marvel-united/villain",
        "id": "x",
        "name": "X",
        "masterplan": {"cards": [{"n": 1, "place": {"left": {"civilian": "two"}}}]},
    }
    [(pointer, message)] = _messages("marvel-united/villain", data)
    assert pointer == ("masterplan", "cards", 0, "place", "left", "civilian")
    assert message == "expected integer, got string 'two'"


def test_one_of_on_scalars_lists_the_options() -> None:
    data = {
        "kind": "marvel-united/villain",
        "id": "x",
        "name": "X",
        "masterplan": {"cards": [{"n": 1, "move": "far"}]},
    }
    [(_, message)] = _messages("marvel-united/villain", data)
    assert message == "'far' is not valid here: expected integer or '*'"


def test_fast_and_detailed_validators_agree() -> None:
    good = {
        "kind": "villainous/villain",
        "id": "hook",
        "name": "Hook",
        "board": {"locations": [{"name": "Jolly Roger"}]},
    }
    bad = {**good, "board": {"locations": []}}
    for data, ok in ((good, True), (bad, False)):
        assert schemas.fast_validator("villainous/villain").is_valid(data) is ok
        assert schemas.detailed_validator("villainous/villain").is_valid(data) is ok


def test_every_rule_has_code_severity_and_doc() -> None:
    rules = all_rules()
    assert {r.code for r in rules} >= {"CK200", "CK201"}
    for rule in rules:
        assert re.fullmatch(r"[A-Z]{2}\d{3}", rule.code)
        assert rule.doc.endswith(".") and len(rule.doc) < 120 and "\n" not in rule.doc


def test_rules_command_lists_every_rule_with_its_doc() -> None:
    result = run_cli(["rules"])
    assert result.returncode == 0
    for rule in all_rules():
        assert re.search(
            rf"^{rule.code}\s+{rule.severity.value}\s+\S+\s+{re.escape(rule.doc)}$",
            result.stdout,
            re.M,
        )
