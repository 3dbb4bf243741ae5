"""An import's files are created only where no file is at the moment of writing."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardkit.errors import UsageError
from cardkit.files import atomic


def test_existing_files_refuse_the_whole_plan(tmp_path: Path) -> None:
    kept = tmp_path / "a.yaml"
    kept.write_text("mine\n")
    plan = {kept: "new\n", tmp_path / "b.yaml": "new\n"}
    with pytest.raises(UsageError, match=r"1 file\(s\) already exist.*nothing was written"):
        atomic.write_new_files(plan, force=False)
    assert kept.read_text() == "mine\n" and not (tmp_path / "b.yaml").exists()


def test_a_file_saved_after_the_check_is_kept(tmp_path: Path, monkeypatch) -> None:
    """The up-front check misses a file saved a moment later; the write does not."""
    first, late = tmp_path / "sub" / "a.yaml", tmp_path / "sub" / "b.yaml"
    real_exists = Path.exists
    monkeypatch.setattr(Path, "exists", lambda self: False if self == late else real_exists(self))
    late.parent.mkdir()
    late.write_text("saved by a person\n")
    with pytest.raises(UsageError, match=r"b\.yaml appeared while importing; not overwritten"):
        atomic.write_new_files({first: "one\n", late: "two\n"}, force=False)
    assert late.read_text() == "saved by a person\n"
    assert first.read_text() == "one\n"


def test_force_replaces(tmp_path: Path) -> None:
    target = tmp_path / "a.yaml"
    target.write_text("old\n")
    assert atomic.write_new_files({target: "new\n"}, force=True) == [target]
    assert target.read_text() == "new\n"


def test_a_misspelt_import_format_is_named_with_the_close_one(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    data = tmp_path / "box.json"
    data.write_text("{}")
    result = run_cli(["import", "mudb", str(data), "--out", str(tmp_path / "out")])
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "cardkit: import: 'mudb' is neither a file nor a format; did you mean 'mu-db'?"
    )
    assert not (tmp_path / "out").exists()
