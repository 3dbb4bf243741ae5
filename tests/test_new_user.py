"""What a new user trips over first: paths the system refuses, README examples that must be true."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

KLAW = ROOT / "tests/data/klaw.yaml"
RULEBOOK = ROOT / "tests/data/new-villain-rulebook.txt"


def _one_clear_line(result: object, path: Path) -> None:
    stderr = result.stderr  # type: ignore[attr-defined]
    assert result.returncode == 2, stderr  # type: ignore[attr-defined]
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith(f"cardkit: {path}: "), stderr
    assert "internal error" not in stderr and "Traceback" not in stderr


@pytest.mark.parametrize(
    "command",
    [
        ["import", "{rulebook}", "--out", "{file}"],
        ["export", "csv", "{klaw}", "--out", "{file}"],
        ["export", "tts", "{klaw}", "--out", "{file}"],
        ["proof", "{klaw}", "--out", "{tmp}/p.pdf", "--png", "{file}"],
    ],
)
def test_out_naming_a_file_where_a_folder_goes_is_one_line_exit_2(
    tmp_path: Path, command: list[str]
) -> None:
    file = tmp_path / "notes.txt"
    file.write_text("a file, not a folder\n")
    shutil.copy(KLAW, tmp_path / "klaw.yaml")
    shutil.copy(RULEBOOK, tmp_path / "rulebook.txt")
    names = {
        "rulebook": str(tmp_path / "rulebook.txt"),
        "klaw": str(tmp_path / "klaw.yaml"),
        "file": str(file),
        "tmp": str(tmp_path),
    }
    result = run_cli([part.format(**names) for part in command], cwd=tmp_path)
    _one_clear_line(result, file)
    assert "folder" in result.stderr
    assert file.read_text() == "a file, not a folder\n"


def test_out_naming_a_folder_or_a_missing_folder_names_the_path(tmp_path: Path) -> None:
    shutil.copy(KLAW, tmp_path / "klaw.yaml")
    folder = tmp_path / "sheets"
    folder.mkdir()
    result = run_cli(["proof", "klaw.yaml", "--out", str(folder)], cwd=tmp_path)
    _one_clear_line(result, folder)
    assert list(folder.iterdir()) == [] and not list(tmp_path.glob(".*.tmp"))
    box = tmp_path / "box"
    run_cli(["import", str(RULEBOOK), "--out", str(box)], cwd=tmp_path)  # 1: a loss it reports
    assert (box / "box.yaml").is_file()
    missing = tmp_path / "no-such-folder" / "rulebook.txt"
    result = run_cli(["export", "rulebook", str(box), "--out", str(missing)], cwd=tmp_path)
    _one_clear_line(result, missing)
    assert not missing.parent.exists()


def _readme_example(command: str) -> tuple[str, str]:
    """The README's `$ cardkit COMMAND ...` line and the output line under it."""
    text = (ROOT / "README.md").read_text()
    found = re.search(rf"^\$ (cardkit {command} .+)\n(.+)$", text, re.M)
    assert found, f"README has no `$ cardkit {command}` example"
    return found.group(1), found.group(2)


def test_the_readme_import_example_prints_what_import_prints(tmp_path: Path) -> None:
    """As written, in a fresh clone: the box the rulebook describes is already in cards/."""
    line, shown = _readme_example("import")
    rulebook, out = line.split()[2], line.split()[4]
    copy = tmp_path / rulebook
    copy.parent.mkdir(parents=True)
    shutil.copy(ROOT / rulebook, copy)
    box = Path("cards/marvel-united/ks-promos")
    shutil.copytree(ROOT / box, tmp_path / box)
    result = run_cli(["import", rulebook, "--out", out], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == shown


def test_the_readme_validate_example_is_what_validate_prints(tmp_path: Path) -> None:
    _, shown = _readme_example("validate")
    where, message = shown.split(": ", 1)
    path, line, column = where.rsplit(":", 2)
    lines = (ROOT / path).read_text().splitlines(keepends=True)
    row, col = int(line) - 1, int(column) - 1
    bad = re.match(r"'(.*?)'", message.split(" ", 1)[1])
    assert bad
    value = re.match(r"[^\s,}]+", lines[row][col:])
    assert value, "the example's position is not on a value"
    lines[row] = lines[row][:col] + bad.group(1) + lines[row][col + value.end() :]
    copy = tmp_path / path
    copy.parent.mkdir(parents=True)
    copy.write_text("".join(lines))
    result = run_cli(["validate", path], cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == shown
