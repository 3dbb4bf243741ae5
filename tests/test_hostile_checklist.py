"""A checklist row on a gap note that names a field the card does not have yet (issue 21):
the value in the row fills that field; it is never dropped while the note is closed."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardkit.confirm import checklist
from cardkit.errors import UsageError
from cardkit.files import yamlio

CARD = """kind: villainous/card
id: lantern
villain_ref: example
deck: villain
title: Lantern Keeper
gaps:
  - {note: "OCR read no FIELDS: fill it in from the card", fields: [FIELDS], status: open}
"""
HEADER = (
    "path,line,document,card,field,origin,status,code,why,current,check,address,value,by,evidence\n"
)


def _batch(tmp_path: Path, fields: str, value: str) -> tuple[Path, Path]:
    card = tmp_path / "lantern.yaml"
    card.write_text(CARD.replace("FIELDS", fields), encoding="utf-8")
    rows = tmp_path / "checklist.csv"
    rows.write_text(
        HEADER + f'{card},7,lantern,,{fields.split(",")[0]},noted,open,,"OCR read no {fields}",,'
        f"{card}#cost,gaps/0,{value},me,the card\n",
        encoding="utf-8",
    )
    return card, rows


def test_the_value_of_a_gap_note_row_fills_the_field_it_names(tmp_path):
    card, rows = _batch(tmp_path, "cost", "2")
    outcomes = checklist.confirm_batch(rows, default_by=None, date="2026-12-02")
    data = yamlio.load_text(card.read_text())
    assert data["cost"] == 2  # before the fix: the note closed, the value dropped
    assert data["gaps"][0]["status"] == "resolved"
    assert data["confirmations"] == [
        {
            "field": "cost",
            "by": "me",
            "date": "2026-12-02",
            "evidence": "the card",
            "value": 2,
            "previous": "absent",
        }
    ]
    assert not any(w for o in outcomes for w in o.warnings)


def test_a_value_for_a_note_naming_several_fields_is_refused_and_nothing_written(tmp_path):
    card, rows = _batch(tmp_path, "cost, strength", "2")
    before = card.read_text()
    with pytest.raises(UsageError, match="names cost, strength; a value fills one field"):
        checklist.confirm_batch(rows, default_by=None, date="2026-12-02")
    assert card.read_text() == before
