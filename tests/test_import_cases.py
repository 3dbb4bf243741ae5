"""`cardkit import` on three villains written by hand in the documented format
(docs/transcription-format.md), each with its expected YAML written by hand.

The cases live in tests/data/import-cases/<name>/: rulebook.txt and expected/*.yaml.
The importer must produce exactly those documents (compared as data, so the expected
files may carry comments saying why), and nothing else, with no warnings.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardkit import yamlio
from tests.conftest import ROOT, run_cli

CASES = sorted((ROOT / "tests" / "data" / "import-cases").iterdir())
BOXES = {"sandman": "sandy-shores", "vulture": "skyline", "rhino": "stampede"}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_hand_written_villain_imports_to_the_hand_written_yaml(
    case: Path, tmp_path: Path
) -> None:
    (tmp_path / "rulebook.txt").write_bytes((case / "rulebook.txt").read_bytes())
    result = run_cli(
        [
            "import",
            "rulebook.txt",
            "--out",
            "out",
            "--system",
            "marvel-united",
            "--box",
            BOXES[case.name],
        ],
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "warning" not in result.stdout and "unrepresented:" not in result.stdout
    made = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert made == sorted(p.name for p in (case / "expected").iterdir())
    for name in made:
        got = yamlio.load_text((tmp_path / "out" / name).read_text(encoding="utf-8"))
        want = yamlio.load_text((case / "expected" / name).read_text(encoding="utf-8"))
        assert got == want, name
    # and the export gives the book back
    exported = run_cli(["export", "rulebook", "out"], cwd=tmp_path)
    assert _lines(exported.stdout) == _lines((case / "rulebook.txt").read_text(encoding="utf-8"))


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines() if line.strip()]
