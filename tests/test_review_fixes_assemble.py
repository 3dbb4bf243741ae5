"""Review fixes on `ocr --assemble`: an existing document is checked as it is written,
so one a person saves while the drafts are assembled is kept, not replaced."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from cardkit.cli import ocr as ocr_cli
from cardkit.ocr import draft
from cardkit.ocr.scan import ScanResult
from tests.conftest import ROOT

DRAFT = ROOT / "tests/data/review/mu-crossbones-mp01-phone.yaml"  # a real OCR draft
SAVED = "# a person's own villain file, saved while cardkit assembled\n"


def test_a_document_saved_while_assembling_is_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "drafts"
    out.mkdir()
    shutil.copy(DRAFT, out / DRAFT.name)
    results = [
        ScanResult("mu-crossbones-mp01-phone.jpg", True, drafts=[{"draft": str(out / DRAFT.name)}])
    ]
    render = draft.render
    saved: list[Path] = []

    def render_then_someone_saves(document: dict[str, Any], *args: Any) -> str:
        text = render(document, *args)
        target = out / f"{document['id']}.yaml"  # after the check, before the write
        target.write_text(SAVED, encoding="utf-8")
        saved.append(target)
        return text

    monkeypatch.setattr(draft, "render", render_then_someone_saves)
    refused = ocr_cli._assemble(results, out, False)
    assert saved, "no document was assembled from the draft"
    assert saved[0].read_text(encoding="utf-8") == SAVED
    assert [r.ok for r in refused] == [False]
    assert "not overwritten" in refused[0].message
