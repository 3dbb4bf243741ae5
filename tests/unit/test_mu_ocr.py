"""Marvel United OCR readers and finish: on cards drawn here, with a fake engine where the
engine's reading is not what is tested."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PIL import Image, ImageDraw

from cardkit.games.marvel_united import ocr as mu
from cardkit.model import Document
from cardkit.ocr.engine import Reading, Word

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import make_samples  # noqa: E402


def _villain(**sections: Any) -> Document:
    data = {
        "kind": "marvel-united/villain",
        "id": "test-villain",
        "name": "Test Villain",
        **sections,
    }
    return Document(ROOT / "t.yaml", "t.yaml", data, lambda *a, **k: (1, 1))


def _context(card: Image.Image, engine: Any = None) -> SimpleNamespace:
    template = SimpleNamespace(system="marvel-united", name="t")
    templates = SimpleNamespace(vocabularies={})
    return SimpleNamespace(
        engine=engine, key="scan/field", card=card, template=template, templates=templates
    )


def _region(field: str, **options: Any) -> SimpleNamespace:
    return SimpleNamespace(
        field=field,
        mode="block",
        whitelist="",
        parse="text",
        vocabulary="",
        x_height=0.0,
        prep=(),
        options=options,
    )


def _crop(card: Image.Image, box: tuple[float, float, float, float]) -> Image.Image:
    w, h = card.size
    return card.crop((round(box[0] * w), round(box[1] * h), round(box[2] * w), round(box[3] * h)))


PLACE_BOX = (0.04, 0.14, 0.96, 0.39)
BAM_BOX = (0.04, 0.14, 0.30, 0.19)


@pytest.mark.parametrize(
    ("bam", "place"),
    [
        (True, {"left": {"thug": 2}, "villain": {"civilian": 1}, "right": {"thug": 1}}),
        (False, {"anchor": "sewer", "left": {"civilian": 2}, "right": {"thug": 3}}),
    ],
)
def test_place_and_bam_are_read_from_a_rendered_master_plan_card(bam, place):
    card_data = {"n": 4, "move": 2, "bam": bam, "place": place}
    card = make_samples.render(_villain(masterplan={"cards": [card_data]}))
    context = _context(card)
    read = mu.read_place(_crop(card, PLACE_BOX), _region("card/place"), context)
    assert read.value == {k: v for k, v in place.items() if k != "anchor"}
    assert read.confidence >= 0.8
    mark = mu.read_mark(_crop(card, BAM_BOX), _region("card/bam", icon="bam"), context)
    assert mark.value is bam and mark.confidence >= 0.8


def test_a_card_without_a_diagram_gives_no_placement():
    card_data = {"n": 1, "move": "*", "movement": "Move clockwise to the next Location."}
    card = make_samples.render(_villain(masterplan={"cards": [card_data]}))
    read = mu.read_place(_crop(card, PLACE_BOX), _region("card/place"), _context(card))
    assert read.value is None and read.confidence == 0.0


class FakeEngine:
    """Serves a fixed reading per key suffix; records the keys it was asked for."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts, self.keys = texts, []

    def read(self, image: Image.Image, mode: str, *, key: str, whitelist: str = "") -> Reading:
        self.keys.append(key)
        text = next((t for suffix, t in self.texts.items() if key.endswith(suffix)), "")
        words = [
            Word(word, 0.95, (0, 0, 1, 1), number)
            for number, line in enumerate(text.splitlines())
            for word in line.split()
        ]
        return Reading(tuple(words))


HEADINGS = {"Special Rules": "special_rules", "BAM!": "bam", "Villainous Plot": "villainous_plot"}


def test_dashboard_sections_are_split_by_headings_across_two_columns():
    sections = [
        {"heading": "Special Rules", "text": "Heroes cannot enter the Vault while it is sealed."},
        {"heading": "BAM!", "text": "Deal 1 damage to each Hero here."},
        {"heading": "Villainous Plot - Doom Clock", "text": "The Heroes lose at 10."},
    ]
    pdf = make_samples.paint_dashboard("Test Villain", sections, {"heroes": {"2": 4}}, 2)
    card = make_samples.rasterise(pdf)
    body = _crop(card, (0.035, 0.15, 0.97, 0.80))
    assert len(mu._columns(body)) == 2
    engine = FakeEngine(
        {
            "#0": "Special Rules\nHeroes cannot enter the\nVault while it is sealed.\nBAM!\nDeal 1 damage to each Hero here.",
            "#1": "Villainous Plot - Doom Clock\nThe Heroes lose at 10.",
        }
    )
    read = mu.read_sections(body, _region("dashboard", headings=HEADINGS), _context(card, engine))
    assert read.value == {
        "special_rules": "Heroes cannot enter the Vault while it is sealed.",
        "bam": "Deal 1 damage to each Hero here.",
        "villainous_plot": {"name": "Doom Clock", "text": "The Heroes lose at 10."},
    }
    one = make_samples.rasterise(make_samples.paint_dashboard("V", sections, {}, 1))
    assert len(mu._columns(_crop(one, (0.035, 0.15, 0.97, 0.80)))) == 1


def test_player_count_table_reads_cell_by_cell():
    pdf = make_samples.paint_dashboard("V", [], {"heroes": {"2": 5, "3": 6, "4": 7}}, 1)
    card = make_samples.rasterise(pdf)
    table = _crop(card, (0.035, 0.80, 0.30, 0.97))
    bands = mu._bands(table)
    cells = [mu._cells(table.crop((0, top, table.width, bottom))) for top, bottom in bands]
    assert [len(c) for c in cells if c] == [3, 3]  # two ruled rows of three cells
    cell_texts = {"#0.0": "2", "#0.1": "3", "#0.2": "4", "#1.0": "5", "#1.1": "6", "#1.2": "7"}
    engine = FakeEngine(cell_texts)
    read = mu.read_table(table, _region("dashboard/player_count"), _context(card, engine))
    assert read.value == {"heroes": {"2": 5, "3": 6, "4": 7}}
    assert sorted("#" + k.rsplit("#", 1)[1] for k in engine.keys) == sorted(cell_texts)
    short = FakeEngine({**cell_texts, "#1.2": ""})
    read = mu.read_table(table, _region("dashboard/player_count"), _context(card, short))
    assert read.value == {"heroes": {"2": 5, "3": 6, "4": None}} and read.confidence < 0.5


def test_a_table_without_rules_between_cells_is_read_row_by_row():
    rows = Image.new("RGB", (300, 120), "white")
    draw = ImageDraw.Draw(rows)
    for y in (5, 60, 115):
        draw.line((5, y, 295, y), fill="black", width=2)
    engine = FakeEngine({"#0": "2 3 4", "#1": "5 6 7"})
    read = mu.read_table(rows, _region("dashboard/player_count"), _context(rows, engine))
    assert read.value == {"heroes": {"2": 5, "3": 6, "4": 7}}


def _draft(kind: str, card: dict[str, Any], **top: Any) -> dict[str, Any]:
    confidences = {f"card/{k}": 0.95 for k in card}
    confidences.update({k: 0.95 for k in top})
    return {
        "kind": kind,
        "id": "scan",
        "card": card,
        **top,
        "provenance": {"confidences": confidences},
    }


def _read(**printed: str) -> SimpleNamespace:
    return SimpleNamespace(fields=[SimpleNamespace(field=k, text=v) for k, v in printed.items()])


def test_finish_turns_a_master_plan_reading_into_card_fields():
    document = _draft(
        "marvel-united/masterplan-card",
        {"move": "Move 3", "text": "Sonic Wave Blast: Move each Hero 1 Location away."},
        title="Test Villain 7",
        deck="Test Villain · Master Plan",
    )
    mu.finish(document, _read(**{"card/move": "Move 3"}))
    assert document["card"] == {
        "move": 3,
        "n": 7,
        "effects": [{"name": "Sonic Wave Blast", "text": "Move each Hero 1 Location away."}],
    }
    assert "`test-villain`" in document["notes"][0]
    assert "title" not in document and "deck" not in document
    assert set(document["provenance"]["confidences"]) == {"card/move", "card/n", "card/effects"}


def test_finish_reads_a_star_move_its_movement_and_no_tokens():
    document = _draft(
        "marvel-united/masterplan-card",
        {
            "move": "Move",
            "text": "No tokens placed. Move clockwise to the next Location. Smash: Deal 1 damage.",
        },
        title="Test Villain 2",
    )
    mu.finish(document, _read(**{"card/move": "Move *"}))
    card = document["card"]
    assert card["move"] == "*" and card["place"] == "none"
    assert card["movement"] == "Move clockwise to the next Location."
    assert card["effects"] == [{"name": "Smash", "text": "Deal 1 damage."}]


def test_a_movement_sentence_ending_the_text_keeps_one_full_stop():
    document = _draft(
        "marvel-united/masterplan-card",
        {"move": "Move", "text": "Move clockwise to the next Location with the least cards."},
        title="Gorr 9",
    )
    mu.finish(document, _read(**{"card/move": "Move *"}))
    assert (
        document["card"]["movement"] == "Move clockwise to the next Location with the least cards."
    )
    assert "effects" not in document["card"]


@pytest.mark.parametrize(
    ("read", "movement"),
    [
        ("Mave clockwise to the next Location. Smash: Deal 1 damage.", True),  # one edit
        ("Viove clockwise to the next Location. Smash: Deal 1 damage.", False),  # two: kept
    ],
)
def test_a_misread_move_keyword_is_corrected_only_within_the_strict_distance(read, movement):
    document = _draft("marvel-united/masterplan-card", {"move": "Move", "text": read}, title="V 2")
    mu.finish(document, _read(**{"card/move": "Move *"}))
    card, fixes = document["card"], document["provenance"].get("corrections", [])
    if movement:
        assert card["movement"] == "Move clockwise to the next Location."
        assert card["effects"] == [{"name": "Smash", "text": "Deal 1 damage."}]
        assert fixes == [
            {"field": "card/movement", "read": "Mave", "corrected": "Move", "why": "vocabulary"}
        ]
    else:  # not a movement sentence as far as the reader can tell: nothing invented
        assert "movement" not in card and fixes == []
        assert card["effects"][0]["text"].startswith("Viove clockwise")


def test_finish_marks_an_unread_card_number_instead_of_guessing_silently():
    document = _draft("marvel-united/masterplan-card", {"move": "Move 1"}, title="Klaw")
    mu.finish(document, _read(**{"card/move": "Move 1"}))
    assert document["card"]["n"] == 1
    assert "card/n" in document["unconfirmed"]
    assert any("card number" in gap["note"] for gap in document["gaps"])


def test_finish_strips_the_health_bar_read_with_a_threats_text():
    document = _draft(
        "marvel-united/threat-card",
        {"name": "Rolling Blackout", "text": "5 Health BAM!: Deal 1 damage."},
        deck="Test Villain - Threat",
    )
    mu.finish(document, _read())
    assert document["card"]["text"] == "BAM!: Deal 1 damage."
    assert "Test Villain" in document["notes"][0]
