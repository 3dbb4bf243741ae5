"""`cardkit ocr --check` on a master plan whose Move the scan did not yield: the draft
lists `card/move` as not read (draft.py `_not_read`), and the check says so beside the
file's value instead of comparing it (compare.py `not_read`: silence is no agreement).
Files and drafts written here by hand; the expected lines come from compare.not_read's
docstring and the line it formats."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from PIL import Image

from cardkit.check.validate import check
from cardkit.ocr import compare, draft
from cardkit.ocr.engine import Mode, Reading, Word
from tests.conftest import ROOT, run_cli

CARD = """\
kind: marvel-united/masterplan-card
id: mp
card:
  n: 3
  move: 2
  bam: false
  effects:
    - {name: Sonic Blast, text: Each Hero takes 1 damage.}
"""


def _draft_without_move() -> dict[str, Any]:
    document: dict[str, Any] = {
        "kind": "marvel-united/masterplan-card",
        "id": "mp",
        "card": {
            "n": 3,
            "effects": [{"name": "Sonic Blast", "text": "Each Hero takes 1 damage."}],
            "bam": False,
        },
    }
    draft._not_read(document, "marvel-united")
    return document


def test_check_reports_an_unread_move_beside_the_files_value(tmp_path: Path) -> None:
    path = tmp_path / "mp.yaml"
    path.write_text(CARD)
    report, [document] = check([path])
    assert report.errors == 0, [d.message for d in report.diagnostics]
    silent = compare.not_read(_draft_without_move(), "scans/mp.png", document, "")
    assert silent == [
        f"{path}: card/move: not read: scan mp.png did not yield it, file has 2 (unchecked)",
        f"{path}: card/place: not read: scan mp.png did not yield it, file has (absent) "
        "(unchecked)",
    ]


def test_check_against_a_villains_master_plan_reports_its_unread_move(tmp_path: Path) -> None:
    path = tmp_path / "klaw.yaml"
    shutil.copy(ROOT / "tests" / "data" / "klaw.yaml", path)
    _, [document] = check([path])
    # card 1 of the fixture: Move 0 (a value that is falsy is still a value), its placement
    silent = compare.not_read(_draft_without_move(), "klaw-1.png", document, "masterplan/cards/1")
    assert silent == [
        f"{path}: masterplan/cards/1/move: not read: scan klaw-1.png did not yield it, "
        "file has 0 (unchecked)",
        f"{path}: masterplan/cards/1/place: not read: scan klaw-1.png did not yield it, "
        'file has {"left": {"civilian": 1}, "right": {"civilian": 1}, '
        '"text": "Place 1 Civilian in each Location beside Klaw\'s."} (unchecked)',
    ]


def test_a_gap_of_another_kind_is_not_reported_as_not_read(tmp_path: Path) -> None:
    path = tmp_path / "mp.yaml"
    path.write_text(CARD)
    _, [document] = check([path])
    unsure = {
        "kind": "marvel-united/masterplan-card",
        "id": "mp",
        "card": {"move": 5},
        "gaps": [
            {"note": "OCR confidence 40% for card/move: check it against the card"},
            {"note": "card/move", "fields": ["card/move"], "status": "open"},
        ],
    }
    assert compare.not_read(unsure, "mp.png", document, "") == []


class MoveUnread:
    """A plug-in engine (`--engine tests.test_ocr_check_move_unread:MoveUnread`): the
    whole-card read gives a master plan's title, its effect and its MOVE label, and no
    Move value; every other read (the label's surroundings, a probe) gives nothing."""

    name = "move-unread"

    def version(self) -> str:
        return "0"

    def read(self, image: Image.Image, mode: Mode, *, key: str, whitelist: str = "") -> Reading:
        if not key.endswith("/page"):
            return Reading()
        lines = ["Venom 3", "Sonic Blast: Each Hero takes 1 damage.", "MOVE"]
        tops = (40, 400, 900)
        words = [
            Word(word, 0.96, (40 + 110 * at, top, 100, 34), number)
            for number, (text, top) in enumerate(zip(lines, tops, strict=True))
            for at, word in enumerate(text.split())
        ]
        return Reading(tuple(words))


def test_ocr_check_says_the_scan_did_not_yield_the_move(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "mp.yaml").write_text(CARD)
    Image.new("RGB", (750, 1050), (240, 230, 205)).save(tmp_path / "mp.png")
    result = run_cli(
        [
            "ocr",
            "mp.png",
            "--out",
            "out",
            "--check",
            "cards",
            "--engine",
            "tests.test_ocr_check_move_unread:MoveUnread",
        ],
        cwd=tmp_path,
    )
    drafted = (tmp_path / "out" / "mp.yaml").read_text()
    assert "kind: marvel-united/masterplan-card" in drafted, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert (
        "cards/mp.yaml: card/move: not read: scan mp.png did not yield it, file has 2 (unchecked)"
    ) in lines, result.stdout
    assert not any("card/move: agree" in ln or "card/move: disagree" in ln for ln in lines)
