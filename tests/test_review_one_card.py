"""The review page shows one item per card: a one-card document (an OCR draft) whose
`kind` is doubted beside one of its card's fields is one item, not two."""

from __future__ import annotations

from pathlib import Path

from cardkit.review.repository import Repository

DRAFT = """\
kind: marvel-united/masterplan-card
id: zemo-3
unconfirmed: [kind]
card:
  unconfirmed: [move]
  n: 3
  move: 2
  bam: false
"""


def test_a_draft_doubting_its_kind_and_a_field_is_one_item(tmp_path: Path) -> None:
    (tmp_path / "zemo-3.yaml").write_text(DRAFT, encoding="utf-8")
    snapshot = Repository([tmp_path], tmp_path).snapshot()
    assert snapshot.problems == []
    [item] = snapshot.cards.values()
    assert item.card is not None and item.card.pointer == ("card",)
    assert sorted(row.field for row in item.rows) == ["card/move", "kind"]
