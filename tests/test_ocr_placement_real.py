"""End to end with the real tesseract: a portrait card drawn here with PIL, its words
across it and no MOVE label, is filed as a master plan by the placement diagram it
prints (a row of three alike slots: kind_choice.py `_structures`); the same card with
two plain alike panels instead is not (two alike boxes are any card's pair of panels)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from cardkit.files import yamlio
from tests.drawn_fonts import dejavu

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract")

INK = (30, 30, 30)


def _card(slots: int, title: str = "Venom 3") -> Image.Image:
    card = Image.new("RGB", (750, 1050), (240, 230, 205))
    pen = ImageDraw.Draw(card)
    pen.text((40, 40), title, font=dejavu(60), fill=INK)
    for n in range(slots):
        left = 40 + n * 230
        box = (left, 300, left + 200, 480)
        pen.rectangle(box, fill=(225, 212, 180), outline=(90, 70, 40), width=4)
    pen.text((40, 620), "Give 1 Crisis token to 1 Hero", font=dejavu(36, False), fill=INK)
    pen.text((40, 670), "in Venom's Location.", font=dejavu(36, False), fill=INK)
    return card


def _draft(tmp_path: Path, card: Image.Image) -> dict[str, Any]:
    from cardkit.ocr import batch
    from cardkit.ocr.pipeline import Options

    card.save(tmp_path / "plan.png")
    settings = batch.Settings(tmp_path / "out", options=Options(("marvel-united",), 0.9))
    [result] = batch.run([tmp_path / "plan.png"], settings, jobs=1)
    assert result.ok, result.message
    document: dict[str, Any] = yamlio.load_text((tmp_path / "out" / "plan.yaml").read_text())
    return document


def test_a_card_with_a_row_of_three_slots_and_no_move_label_is_a_master_plan(
    tmp_path: Path,
) -> None:
    document = _draft(tmp_path, _card(3))
    assert document["kind"] == "marvel-united/masterplan-card"
    assert document["provenance"]["template"] == "grammar marvel-united/masterplan"
    assert document["card"]["n"] == 3
    assert "card/move" in document["unconfirmed"]  # no Move printed: not read, and said so


def test_the_same_card_with_two_plain_panels_is_no_master_plan(tmp_path: Path) -> None:
    # its title without a number: a numbered title is a master plan's sign of its own
    document = _draft(tmp_path, _card(2, title="Venom"))
    assert document["kind"] != "marvel-united/masterplan-card"
