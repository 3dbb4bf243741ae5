"""--assemble: one villain's card drafts become one villain document."""

from __future__ import annotations

from pathlib import Path

from cardkit.check.validate import check
from cardkit.files import yamlio
from cardkit.games.marvel_united import assemble
from cardkit.ocr import draft


def _card(n: int, move: int, scan: str, unsure: bool = False) -> dict:
    data = {
        "kind": "marvel-united/masterplan-card",
        "id": f"mp{n}",
        "card": {"n": n, "move": move, "bam": n % 2 == 0},
        "provenance": {
            "scan": scan,
            "engine": "tesseract",
            "engine_version": "5",
            "confidences": {"card/n": 0.97, "card/move": 0.6 if unsure else 0.95},
        },
    }
    if unsure:
        data["unconfirmed"] = ["card/move"]
        data["gaps"] = [
            {"note": "OCR confidence 60% for card/move", "fields": ["card/move"], "status": "open"}
        ]
    return data


def test_cards_of_one_folder_become_one_villain_ordered_by_number(tmp_path):
    drafts = [
        (Path("a.yaml"), _card(3, 1, "scans/mu/nightshade/c.png", unsure=True)),
        (Path("b.yaml"), _card(1, 2, "scans/mu/nightshade/a.png")),
        (Path("c.yaml"), _card(2, 0, "scans/mu/nightshade/b.png")),
        (Path("d.yaml"), {"kind": "villainous/card", "id": "x", "title": "X", "deck": "fate"}),
    ]
    groups = assemble.group(drafts)
    assert list(groups) == [("marvel-united", "nightshade")]
    document = assemble.assemble(
        "marvel-united", "nightshade", groups[("marvel-united", "nightshade")]
    )
    cards = document["masterplan"]["cards"]
    assert [c["n"] for c in cards] == [1, 2, 3]
    assert cards[2]["unconfirmed"] == ["move"]
    assert document["gaps"][0]["fields"] == ["masterplan/cards/3/move"]
    assert document["provenance"]["confidences"]["masterplan/cards/3/move"] == 0.6
    assert document["provenance"]["settings"]["assembled_from"][0].endswith("c.png")
    target = tmp_path / "nightshade.yaml"
    target.write_text(draft.render(document, "3 card scans"))
    report, _ = check([target])
    assert report.errors == 0, [d.message for d in report.diagnostics]
    assert yamlio.load_text(target.read_text())["name"] == "nightshade"


def test_villain_ref_groups_before_folders():
    one = _card(1, 1, "scans/x/a.png")
    two = _card(2, 1, "scans/y/b.png")
    one["villain_ref"] = two["villain_ref"] = "klaw"
    assert list(assemble.group([(Path("1"), one), (Path("2"), two)])) == [("marvel-united", "klaw")]
