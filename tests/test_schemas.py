"""The schemas themselves: valid 2020-12, and read the same way by check-jsonschema."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from cardkit.schemas import registry as schemas
from tests.conftest import ROOT

SCHEMA_FILES = sorted((ROOT / "schemas").rglob("*.schema.json"))


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=[p.name for p in SCHEMA_FILES])
def test_schema_is_valid_2020_12(path: Path) -> None:
    Draft202012Validator.check_schema(json.loads(path.read_text()))


def test_kinds_match_schema_files_and_systems() -> None:
    from cardkit.systems import system_names

    systems = {kind.split("/")[0] for kind in schemas.kinds()}
    assert systems == set(system_names())


def test_check_jsonschema_agrees_on_the_examples(tmp_path: Path) -> None:
    """An outside validator resolves our relative $refs from disk with no network."""
    exe = shutil.which("check-jsonschema", path=str(Path(sys.executable).parent))
    assert exe, "check-jsonschema is a dev dependency"
    valid = ROOT / "tests/cases/valid/marvel-united-box/klaw.yaml"
    ok = subprocess.run(
        [exe, "--schemafile", str(schemas.schema_path("marvel-united/villain")), str(valid)],
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text(valid.read_text().replace("move: 0", "move: far"))
    bad = subprocess.run(
        [exe, "--schemafile", str(schemas.schema_path("marvel-united/villain")), str(broken)],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 1


def _undescribed(node: object, where: str) -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.get("properties", {}).items():
            if isinstance(value, dict) and key != "kind" and "description" not in value:
                found.append(f"{where}/{key}")
            found += _undescribed(value, f"{where}/{key}")
        for key in ("items", "additionalProperties"):
            found += _undescribed(node.get(key), where)
        for key, value in node.get("$defs", {}).items():
            found += _undescribed(value, f"{where}#{key}")
        for key in ("oneOf", "anyOf", "allOf"):
            for branch in node.get(key, []):
                found += _undescribed(branch, where)
    return found


def test_every_field_a_person_writes_has_a_description() -> None:
    missing = [
        hit
        for path in SCHEMA_FILES
        for hit in _undescribed(json.loads(path.read_text()), path.relative_to(ROOT).as_posix())
    ]
    assert missing == []
