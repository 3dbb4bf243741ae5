"""Shell completion offers values from the data: papers, kinds, document ids, boxes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardkit.cli import complete
from tests.conftest import ROOT


def _bash(words: str) -> list[str]:
    """What bash's completion asks cardkit for the last word of `words` (a real process:
    the shell's protocol is what is tested)."""
    parts = words.split(" ")
    env = {
        **os.environ,
        "_CARDKIT_COMPLETE": "complete_bash",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(parts) - 1),
    }
    script = Path(sys.executable).with_name("cardkit")  # the name a shell completes
    result = subprocess.run(
        [str(script)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return result.stdout.split()


def test_paper_ids_boxes_and_kinds_complete_in_bash() -> None:
    assert _bash("cardkit proof --paper l") == ["letter"]
    assert _bash("cardkit proof --paper a") == ["a3", "a4"]
    assert _bash("cardkit proof --id kla") == ["klaw"]
    assert "multiverse-ks-promos" in _bash("cardkit proof --box mul")
    assert _bash("cardkit proof --kind masterp") == ["masterplan"]
    assert _bash("cardkit export csv --kind marvel-united/her") == ["marvel-united/hero"]
    assert "captain-hook" in _bash("cardkit gaps --id cap")


def test_values_come_from_the_tree_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cards = tmp_path / "cards" / "x"
    cards.mkdir(parents=True)
    (cards / "box.yaml").write_text("kind: marvel-united/box\nid: my-box\nname: Mine\n")
    (cards / "a.yaml").write_text(
        "# a comment first\nkind: marvel-united/hero\nid: 'zed-one'\nbox: my-box\n"
        "cards:\n  - {name: Z}\n    id: not-top-level\n"
    )
    (cards / "b.yaml").write_text("\x00\xff not yaml at all")  # unreadable: skipped
    monkeypatch.chdir(tmp_path)
    assert complete.ids("") == ["my-box", "zed-one"]
    assert complete.boxes("") == ["my-box"]
    assert complete.ids("ZED") == ["zed-one"]
    assert complete.papers("A") == ["a3", "a4"]  # any case, as --paper takes
    assert "hero" in complete.document_kinds("he")
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.chdir(empty)  # no cards/ here: nothing offered, nothing raised
    assert complete.ids("") == [] and complete.proof_kinds("") == []


def test_every_value_option_offers_completion() -> None:
    from cardkit.cli import _reference

    wanted = {"--paper", "--id", "--box", "--kind"}
    for path, command in _reference.walk():
        for param in getattr(command, "params", []):
            if set(getattr(param, "opts", [])) & wanted:
                assert param._custom_shell_complete is not None, (path, param.opts)
    assert ROOT.is_dir()
