"""cardkit schema: one kind printed, all of them exported for editors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cardkit.schemas import registry as schemas
from tests.conftest import ROOT, run_cli

KLAW = ROOT / "tests" / "cases" / "valid" / "marvel-united-box" / "klaw.yaml"


def test_a_kind_prints_its_schema_and_a_typo_gets_a_suggestion() -> None:
    shown = run_cli(["schema", "marvel-united/villain"])
    assert shown.returncode == 0
    assert json.loads(shown.stdout) == json.loads(
        schemas.schema_path("marvel-united/villain").read_text()
    )
    typo = run_cli(["schema", "marvel-united/villan"])
    assert typo.returncode == 2
    assert typo.stderr == (
        "cardkit: unknown kind 'marvel-united/villan'; did you mean 'marvel-united/villain'?\n"
    )


def test_exported_schemas_check_a_card_offline_with_another_tool(tmp_path: Path) -> None:
    out = tmp_path / "editor-schemas"
    result = run_cli(["schema", "--export", str(out)])
    assert result.returncode == 0, result.stderr
    assert {f"{k}.schema.json" for k in schemas.kinds()} <= {
        p.relative_to(out).as_posix() for p in out.rglob("*.schema.json")
    }
    peer = Path(sys.executable).parent / "check-jsonschema"
    villain = out / "marvel-united" / "villain.schema.json"
    good = subprocess.run([peer, "--schemafile", villain, KLAW], capture_output=True, text=True)
    assert good.returncode == 0, good.stdout + good.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text(KLAW.read_text().replace("id: klaw", "id: Not An Id"))
    bad = subprocess.run([peer, "--schemafile", villain, broken], capture_output=True, text=True)
    assert bad.returncode == 1
