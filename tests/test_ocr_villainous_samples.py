"""End to end with the real tesseract: the synthetic Villainous samples (fate cards, and
villain-deck cards in light ink on a dark panel; benchmarks/make_samples_vc.py) become
validating drafts holding the printed title, type, cost and strength."""

from __future__ import annotations

import shutil

import pytest

from tests.ocr_samples import drafts_of_samples

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract")


def test_villainous_samples_become_validating_drafts_with_the_printed_values(cli, tmp_path):
    found = drafts_of_samples(cli, tmp_path, "villainous", "*-clean.png")
    assert {truth["card"] for _, truth, _ in found} == {"fate", "villain"}
    for stem, truth, draft in found:
        assert (draft["deck"], draft["title"], draft["type"]) == (
            truth["card"],
            truth["title"],
            truth["type"],
        ), stem
        for field in ("cost", "strength"):
            want = int(truth[field]) if truth.get(field) else None
            assert draft.get(field) == want, (stem, field)
        assert draft["ability"] == truth["text"], stem
