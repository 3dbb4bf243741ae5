"""The CLI as users script it: formats, exit codes, clear one-line errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import ROOT, run_cli

INVALID = ROOT / "tests/cases/invalid/schema-errors"
VALID = ROOT / "tests/cases/valid/marvel-united-box"


def test_text_format_lines_and_exit_code() -> None:
    result = run_cli(["validate", "."], cwd=INVALID)
    lines = result.stdout.splitlines()
    assert result.returncode == 1
    assert all(re.fullmatch(r"klaw\.yaml:\d+:\d+: CK\d{3} .+", line) for line in lines[:-1])
    assert lines[-1] == "1 file checked: 9 error(s), 0 warning(s)"


def test_json_format_is_the_documented_contract() -> None:
    result = run_cli(["validate", ".", "--format", "json"], cwd=INVALID)
    payload = json.loads(result.stdout)
    assert result.returncode == 1
    assert set(payload) == {"version", "tool", "diagnostics", "summary"}
    assert payload["version"] == 1
    first = payload["diagnostics"][0]
    assert set(first) == {"path", "line", "column", "code", "severity", "message", "pointer"}
    assert first == {
        "path": "klaw.yaml",
        "line": 2,
        "column": 5,
        "code": "CK100",
        "severity": "error",
        "message": "'Klaw' does not match the pattern ^[a-z0-9][a-z0-9-]*$",
        "pointer": "/id",
    }
    assert payload["summary"] == {"files": 1, "errors": 9, "warnings": 0, "ok": False}
    doc = (ROOT / "docs/json-output.md").read_text()
    for field in ("path", "line", "column", "code", "severity", "message", "pointer", "summary"):
        assert f"`{field}`" in doc


def test_github_format() -> None:
    result = run_cli(["validate", ".", "-f", "github"], cwd=INVALID)
    first = result.stdout.splitlines()[0]
    assert first.startswith("::error file=klaw.yaml,line=2,col=5,title=CK100::CK100 ")


def test_sarif_format() -> None:
    result = run_cli(["validate", ".", "-f", "sarif"], cwd=INVALID)
    log = json.loads(result.stdout)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert run["tool"]["driver"]["name"] == "cardkit"
    assert len(run["results"]) == 9
    region = run["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 2, "startColumn": 5}
    rule_ids = {r["id"] for r in run["tool"]["driver"]["rules"]}
    assert "CK200" in rule_ids


def test_clean_tree_exits_zero_in_every_format() -> None:
    for fmt in ("text", "json", "github", "sarif"):
        result = run_cli(["validate", ".", "-f", fmt], cwd=VALID)
        assert result.returncode == 0, (fmt, result.stdout)


def test_missing_path_is_exit_2_with_one_line() -> None:
    result = run_cli(["validate", "no/such/dir"])
    assert result.returncode == 2
    assert result.stderr.strip() == "cardkit: no/such/dir: no such file or directory"


def test_bad_option_is_exit_2() -> None:
    result = run_cli(["validate", "--format", "xml"])
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_no_cards_folder_is_exit_2(tmp_path: Path) -> None:
    result = run_cli(["validate"], cwd=tmp_path)
    assert result.returncode == 2
    assert "no cards/ folder" in result.stderr


def test_missing_dependency_is_exit_3(tmp_path: Path) -> None:
    # A module that fails to import stands in for an uninstalled package.
    (tmp_path / "jsonschema_rs.py").write_text("raise ImportError('not installed')\n")
    result = run_cli(["validate", "."], cwd=VALID, env={"PYTHONPATH": str(tmp_path)})
    assert result.returncode == 3
    assert result.stderr.strip() == (
        "cardkit: missing dependency: jsonschema-rs (install it with 'pip install jsonschema-rs')"
    )


def test_unreadable_file_is_a_diagnostic_and_the_run_goes_on(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text("kind: marvel-united/location\nid: a\nname: A\n")
    (tmp_path / "dangling.yaml").symlink_to(tmp_path / "gone.yaml")
    (tmp_path / "bad.yaml").write_bytes(b"\xff\xfe")
    result = run_cli(["validate", "."], cwd=tmp_path)
    assert result.returncode == 1
    assert "bad.yaml:1:1: CK003" in result.stdout
    assert "good.yaml" not in result.stdout
    assert result.stdout.splitlines()[-1] == "2 files checked: 1 error(s), 0 warning(s)"


def test_reference_into_the_rest_of_the_tree_resolves_when_validating_one_file(
    tmp_path: Path,
) -> None:
    cards = tmp_path / "cards" / "marvel-united"
    cards.mkdir(parents=True)
    (cards / "box.yaml").write_text("kind: marvel-united/box\nid: promos\nname: Promos\n")
    (cards / "loc.yaml").write_text("kind: marvel-united/location\nid: a\nname: A\nbox: promos\n")
    (cards / "orphan.yaml").write_text(
        "kind: marvel-united/location\nid: b\nname: B\nbox: nowhere\n"
    )
    assert run_cli(["validate", "cards/marvel-united/loc.yaml"], cwd=tmp_path).returncode == 0
    orphan = run_cli(["validate", "cards/marvel-united/orphan.yaml"], cwd=tmp_path)
    assert orphan.returncode == 1 and "CK201 box 'nowhere'" in orphan.stdout


def test_every_command_is_documented() -> None:
    from cardkit.cli import app

    readme = (ROOT / "README.md").read_text()
    for command in app.registered_commands:
        assert command.callback is not None and command.callback.__doc__, command.name
        name = command.name or command.callback.__name__
        assert f"cardkit {name}" in readme, f"README lacks `cardkit {name}`"
        help_result = run_cli([name, "--help"])
        assert help_result.returncode == 0


def _loaded_after(imports: str, modules: tuple[str, ...]) -> list[str]:
    """Which of `modules` a fresh interpreter has loaded after running `imports`."""
    import subprocess
    import sys

    probe = f"print(json.dumps(sorted(m for m in {modules!r} if m in sys.modules)))"
    code = f"import json, sys\n{imports}\n{probe}\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return list(json.loads(out.stdout))


def test_help_is_fast_to_import() -> None:
    # Not a timing test: --help must not import the heavy libraries at all.
    heavy = ("reportlab", "PIL", "pytesseract", "jsonschema", "jsonschema_rs", "yaml")
    assert _loaded_after("import cardkit.cli", heavy) == []


def test_build_writes_the_reports(tmp_path: Path) -> None:
    import shutil

    for part in ("cards", "scans"):
        shutil.copytree(ROOT / part, tmp_path / part)
    result = run_cli(["build"], cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    for name in ("validate.json", "gaps.json", "gaps.md", "gaps.csv", "import.txt", "proofs.pdf"):
        assert (tmp_path / "build" / name).stat().st_size > 0
    assert "0 unrepresented lines" in (tmp_path / "build" / "import.txt").read_text()
    assert result.stdout.splitlines()[0].startswith("validate: ")
    (tmp_path / "cards" / "broken.yaml").write_text("kind: marvel-united/villain\nid: Bad\n")
    assert run_cli(["build"], cwd=tmp_path).returncode == 1


def test_the_core_never_imports_typer_or_rich() -> None:
    imports = (
        "import cardkit.check.validate, cardkit.gaps.rows, cardkit.confirm.edit, cardkit.rulebook.importer, cardkit.site.build\n"
        "import cardkit.render.proof, cardkit.report.gaps_report, cardkit.systems\n"
        "cardkit.systems.load()"
    )
    assert _loaded_after(imports, ("typer", "rich", "click")) == []
