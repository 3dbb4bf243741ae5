"""Example-driven acceptance cases, as in check-jsonschema.

tests/cases/valid/<name>/ must validate with no diagnostics; tests/cases/invalid/<name>/
must print exactly its expected.txt (paths relative to the case folder) and exit 1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli

CASES = Path(__file__).parent / "cases"
EXAMPLES = Path(__file__).parent.parent / "docs" / "examples"
VALID = [*sorted(p for p in (CASES / "valid").iterdir() if p.is_dir()), EXAMPLES]
INVALID = sorted(p for p in (CASES / "invalid").iterdir() if p.is_dir())


@pytest.mark.parametrize("case", VALID, ids=[p.name for p in VALID])
def test_valid_case_has_no_errors(case: Path) -> None:
    """Valid: exit 0. Warnings (game-rule gaps) are allowed only as listed in expected.txt."""
    result = run_cli(["validate", "."], cwd=case)
    assert result.returncode == 0, result.stdout + result.stderr
    expected = case / "expected.txt"
    if expected.exists():
        assert result.stdout == expected.read_text(encoding="utf-8")
    else:
        assert result.stdout.strip().endswith("no problems")


@pytest.mark.parametrize("case", INVALID, ids=[p.name for p in INVALID])
def test_invalid_case_prints_expected_diagnostics(case: Path) -> None:
    result = run_cli(["validate", "."], cwd=case)
    expected = (case / "expected.txt").read_text(encoding="utf-8")
    assert result.stdout == expected
    assert result.returncode == 1
    assert "Traceback" not in result.stderr


def test_every_kind_has_a_valid_example() -> None:
    from cardkit.files.yamlio import load_text
    from cardkit.schemas import registry as schemas

    seen = {
        load_text(path.read_text(encoding="utf-8-sig")).get("kind")
        for folder in VALID
        for path in folder.rglob("*.yaml")
    }
    missing = sorted(set(schemas.kinds()) - seen)
    assert not missing, (
        f"kinds with no valid example under tests/cases/valid or docs/examples: {missing}"
    )
