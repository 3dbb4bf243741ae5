"""The Marvel United JSON Database's own boxes, read where they are (../shared/mu-db, GPL-3.0).

Nothing of them is copied here: the tests import each box, validate what cardkit wrote and
export it again, and compare with the file. They skip when the folder is missing
(`CARDKIT_MUDB` names another one).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cardkit.check.validate import check
from cardkit.files import yamlio
from cardkit.games.marvel_united import mudb_files
from tests.conftest import ROOT


def _shared() -> Path:
    """`CARDKIT_MUDB`, else ../shared/mu-db beside the checkout (or beside its worktree folder)."""
    if os.environ.get("CARDKIT_MUDB"):
        return Path(os.environ["CARDKIT_MUDB"])
    near = [up / "shared" / "mu-db" for up in (ROOT.parent, ROOT.parent.parent)]
    return next((p for p in near if p.is_dir()), near[0])


SHARED = _shared()
BOXES = sorted(SHARED.glob("*/*.json")) if SHARED.is_dir() else []
pytestmark = pytest.mark.skipif(not BOXES, reason=f"no Marvel United JSON Database at {SHARED}")


@pytest.mark.parametrize("path", BOXES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_import_validate_export_gives_the_box_back(path: Path, tmp_path: Path) -> None:
    plan = mudb_files.plan_import([path], tmp_path / "cards")
    mudb_files.write_import(plan, force=False)
    folder = tmp_path / "cards" / plan.boxes[0]
    report = check([folder], keep=False)[0]
    assert report.errors == 0, [d for d in report.diagnostics if d.severity.name == "ERROR"][:3]
    documents = [yamlio.load_text(p.read_text("utf-8")) for p in sorted(folder.glob("*.yaml"))]
    built = mudb_files.build([(d, "") for d in documents])
    ((name, data),) = built.boxes.items()
    assert name == path.name
    source = json.loads(path.read_text(encoding="utf-8"))
    assert data == source
    assert built.cards == plan.cards
    text = mudb_files.dump_json(data, newline=built.newline[name])
    if json.dumps(source, indent=2, ensure_ascii=False) in path.read_text("utf-8"):
        assert text == path.read_text("utf-8")  # written as json.dumps writes: byte for byte
