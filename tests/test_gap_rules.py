"""Rules the gap list leans on, each on a hand-made case: MU106 compares only the slots
a note reads, MC105 counts a box's player cards, and the chosen villain's sets are no set."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cardkit.check.validate import check
from cardkit.games.marvel_champions import rulebook as mc
from tests.conftest import ROOT


def _codes(tmp_path: Path, *docs: dict[str, Any]) -> list[str]:
    for index, doc in enumerate(docs):
        (tmp_path / f"doc{index}.json.yaml").write_text(json.dumps(doc))
    return sorted(f"{d.code}:{d.message}" for d in check([tmp_path], keep=False)[0].diagnostics)


def _villain(note: str) -> dict[str, Any]:
    cards = [
        {"n": n, "move": 1, "place": {"left": {"thug": 1}, "right": {"thug": 1}}}
        for n in range(1, 13)
    ]
    cards[2]["place"] = {"left": {"civilian": 3}, "villain": {"thug": 1}, "right": {"civilian": 1}}
    return {
        "kind": "marvel-united/villain",
        "id": "v",
        "name": "V",
        "dashboard": {
            "special_rules": "x",
            "bam": "x",
            "overflow": "x",
            "villainous_plot": {"text": "x"},
            "player_count": {"heroes": {"2": 3, "3": 4, "4": 5}},
        },
        "threats": {"cards": [{"name": "A", "copies": 6, "text": "x"}]},
        "masterplan": {"cards": cards, "gaps": [{"note": note, "status": "open"}]},
    }


def test_a_note_on_one_slot_is_compared_with_that_slot_only(tmp_path: Path) -> None:
    quiet = _villain("Card 3 was read as three Civilians in the left Location.")
    assert [c for c in _codes(tmp_path, quiet) if c.startswith("MU106")] == []


def test_a_note_that_disagrees_on_its_slot_is_a_finding_at_the_card(tmp_path: Path) -> None:
    wrong = _villain("Card 3 was read as two Civilians in the left Location.")
    found = [c for c in _codes(tmp_path, wrong) if c.startswith("MU106")]
    assert found == [
        "MU106:the note reads card 3 as 'two Civilians in the left Location', but the card "
        "carries 3 Civilians in the left Location, 1 Thug in the Villain's Location and "
        "1 Civilian in the right Location"
    ]


def _decklist(ident: str, counts: dict[str, int]) -> dict[str, Any]:
    return {
        "kind": "marvel-champions/decklist",
        "id": ident,
        "name": ident,
        "box": "e",
        "hero": ident,
        "groups": [
            {"name": role, "role": role, "cards": [{"name": f"{ident}-{role}", "count": n}]}
            for role, n in counts.items()
        ],
    }


def test_the_box_player_card_count_against_its_decklists(tmp_path: Path) -> None:
    expansion = {
        "kind": "marvel-champions/expansion",
        "id": "e",
        "name": "E",
        "components": [{"count": 100, "name": "cards", "detail": "30 player cards, 70 others"}],
    }
    # player cards: hero, aspect, basic, sense; nemesis and obligation are encounter cards.
    # 22 + 6 = 28 cards and 2 identities: 30, as the box says.
    one = _decklist("a", {"hero": 15, "aspect": 5, "basic": 2, "nemesis": 5, "obligation": 1})
    two = _decklist("b", {"hero": 5, "sense": 1})
    (tmp_path / "agree").mkdir()
    found = _codes(tmp_path / "agree", expansion, one, two)
    assert [c for c in found if c.startswith("MC105")] == []
    two["groups"][0]["cards"][0]["count"] = 4
    (tmp_path / "short").mkdir()
    found = _codes(tmp_path / "short", expansion, one, two)
    assert [c for c in found if c.startswith("MC105")] == [
        "MC105:the box says 30 player cards; its 2 decklists hold 27 player cards and "
        "2 identities: 29"
    ]


def test_the_chosen_villains_sets_are_not_a_set_name() -> None:
    # scans/marvel-champions/fear-no-evil line 336: "Encounter Deck: Protection Racket,
    # Disasters, Tracksuit Mafia, Standard, and chosen villain's encounter sets."
    text = (ROOT / "scans/marvel-champions/fear-no-evil/rulebook.txt").read_text()
    docs = {d["id"]: d for d in mc.parse(text, "fear-no-evil", "rulebook.txt")}
    racket = docs["protection-racket"]
    assert racket["encounter_sets"] == ["Protection Racket", "Disasters", "Tracksuit Mafia",
                                        "Standard"]  # fmt: skip
    assert racket["villain_sets"] is True
    # line 406: "..., Standard, and the chosen villain's encounter sets."
    assert "the chosen villain's" not in docs["art-museum-heist"]["encounter_sets"]
    assert docs["art-museum-heist"]["villain_sets"] is True
