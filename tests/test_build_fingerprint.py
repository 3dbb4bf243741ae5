"""The build's fingerprint covers all of cardkit's code: a build is "up to date" only if no
module changed, wherever it lives (the fingerprint once looked at its own folder alone)."""

from __future__ import annotations

from pathlib import Path

import cardkit
from cardkit.site import inputs


def test_the_code_fingerprint_is_the_whole_package() -> None:
    assert Path(cardkit.__file__).resolve().parent == inputs.PACKAGE


def test_built_in_games_and_core_rules_are_not_taken_for_plug_ins() -> None:
    found = inputs.plugin_files()
    assert not [key for key in found if key.startswith("system:cardkit.")], sorted(found)[:3]


def test_a_change_outside_the_build_room_changes_the_fingerprint(tmp_path: Path) -> None:
    """The fingerprint is of the package's files' sizes and times: one more byte in a
    module of another room (a copy of the package, so the real one is never touched)."""
    import shutil

    copy = tmp_path / "cardkit"
    shutil.copytree(inputs.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = inputs.code_fingerprint(copy)
    module = copy / "gaps" / "rows.py"
    module.write_text(module.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert inputs.code_fingerprint(copy) != before
