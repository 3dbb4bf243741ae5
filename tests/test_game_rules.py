"""Game rules: each fires on the case it names, and consistent things stay quiet."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cardkit.check.validate import check
from tests.conftest import ROOT, run_cli


def _villain(**parts: Any) -> dict[str, Any]:
    return {"kind": "marvel-united/villain", "id": "v", "name": "V", **parts}


def _mp(n: int, **extra: Any) -> dict[str, Any]:
    return {"n": n, "move": 1, "place": {"left": {"thug": 1}, "right": {"thug": 1}}, **extra}


DASH = {
    "special_rules": "x",
    "bam": "x",
    "overflow": "x",
    "villainous_plot": {"text": "x"},
    "player_count": {"heroes": {"2": 3, "3": 4, "4": 5}},
}
THREATS = {"cards": [{"name": "A", "copies": 6, "text": "x"}]}
FULL_MP = {"cards": [_mp(n) for n in range(1, 13)]}


def codes(tmp_path: Path, *docs: dict[str, Any]) -> list[str]:
    for index, doc in enumerate(docs):
        (tmp_path / f"doc{index}.json.yaml").write_text(json.dumps(doc))
    report = check([tmp_path], keep=False)[0]
    assert report.errors == 0 or all(d.code.startswith("MU") for d in report.diagnostics), (
        report.diagnostics
    )
    return sorted(f"{d.code}:{d.message}" for d in report.diagnostics)


def test_a_complete_villain_is_quiet(tmp_path: Path) -> None:
    assert codes(tmp_path, _villain(dashboard=DASH, threats=THREATS, masterplan=FULL_MP)) == []


def test_deck_sizes(tmp_path: Path) -> None:
    short = {"cards": [_mp(n) for n in range(1, 8)]}
    found = codes(
        tmp_path,
        _villain(dashboard=DASH, threats={"cards": [{"name": "A", "copies": 5}]}, masterplan=short),
    )
    assert "MU101:the master plan deck lists 7 of 12 cards" in found
    assert "MU101:the threat deck holds 5 cards, not 6" in found


def test_box_component_list_sets_the_deck_size(tmp_path: Path) -> None:
    box = {
        "kind": "marvel-united/box",
        "id": "b",
        "name": "B",
        "components": [{"count": 50, "name": "Master Plan Cards", "each": 10, "per": "Villain"}],
    }
    ten = {"cards": [_mp(n) for n in range(1, 11)]}
    assert (
        codes(tmp_path, box, _villain(box="b", dashboard=DASH, threats=THREATS, masterplan=ten))
        == []
    )


def test_sheet_that_declares_extra_cards_is_quiet(tmp_path: Path) -> None:
    threats = {
        "intro": ["The sheet shows ten cards. Six are the V Threat deck: ..."],
        "cards": [
            {"name": "A", "copies": 2},
            {"name": "B", "copies": 3, "health": 3},
            {"name": "C", "copies": 1},
            {"name": "Symbiote Henchman", "copies": 4, "health": 4},
        ],
    }
    assert codes(tmp_path, _villain(dashboard=DASH, threats=threats, masterplan=FULL_MP)) == []


def test_challenge_card_on_another_villains_sheet_is_quiet(tmp_path: Path) -> None:
    threats = {
        "cards": [
            {"name": "Double Feature", "copies": 6},
            {"name": "Absorbing Man Challenge", "type": "challenge", "text": "x"},
        ]
    }
    assert codes(tmp_path, _villain(dashboard=DASH, threats=threats, masterplan=FULL_MP)) == []


def test_henchmen_beside_threats_are_quiet(tmp_path: Path) -> None:
    threats = {
        "intro": [
            "The Baron Zemo Threat deck has six cards: five Henchmen and the Masters of Evil Threat."
        ],
        "declared": {"count": 6},
        "cards": [
            *({"name": f"H{i}", "health": 3} for i in range(5)),
            {"name": "Masters of Evil", "health": None},
        ],
    }
    assert codes(tmp_path, _villain(dashboard=DASH, threats=threats, masterplan=FULL_MP)) == []


def test_declared_count_disagreeing(tmp_path: Path) -> None:
    threats = {
        "declared": {"count": 6},
        "cards": [{"name": "A", "copies": 2}, {"name": "B", "copies": 2}],
    }
    found = codes(tmp_path, _villain(dashboard=DASH, threats=threats, masterplan=FULL_MP))
    assert "MU102:the deck is declared as 6 cards but lists 4" in found


def test_numbering_duplicates_and_gaps(tmp_path: Path) -> None:
    cards = [_mp(n) for n in (1, 2, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12)]
    found = codes(tmp_path, _villain(dashboard=DASH, threats=THREATS, masterplan={"cards": cards}))
    assert "MU103:master plan card 2 is listed twice" in found
    assert "MU104:master plan cards 3 are missing from the numbering" in found


def test_note_naming_a_card_the_deck_lacks(tmp_path: Path) -> None:
    mp = {
        "cards": [_mp(n) for n in range(1, 9)],
        "gaps": [
            {
                "note": "card 12 was read at display resolution",
                "deck": "masterplan",
                "cards": [12],
                "status": "open",
            }
        ],
    }
    found = codes(tmp_path, _villain(dashboard=DASH, threats=THREATS, masterplan=mp))
    assert "MU105:the note names card(s) 12, but the deck lists only 8 (up to 8)" in found


def test_note_that_contradicts_the_data(tmp_path: Path) -> None:
    cards = [_mp(n) for n in range(1, 13)]
    cards[5]["place"] = {"left": {"thug": 2}, "villain": {"thug": 2}, "right": {"thug": 2}}
    cards[8] = {"n": 9, "move": 0, "effects": [{"name": "The Struggle Begins", "text": "x"}]}
    note = (
        "Cards 6 and 7 were read as two Thugs in each of the three Locations. "
        "The Struggle Begins card is read as one Thug in each of the three Locations."
    )
    mp = {"cards": cards, "gaps": [{"note": note, "deck": "masterplan", "status": "open"}]}
    found = codes(tmp_path, _villain(dashboard=DASH, threats=THREATS, masterplan=mp))
    contradictions = [f for f in found if f.startswith("MU106")]
    assert len(contradictions) == 2  # card 6 agrees; card 7 and card 9 do not
    assert any("card 7" in f for f in contradictions) and any(
        "card 9" in f and "no placement" in f for f in contradictions
    )


def test_player_count_tables(tmp_path: Path) -> None:
    dash = {**DASH, "player_count": {"heroes": {"2": 5, "3": 4}}}
    found = codes(tmp_path, _villain(dashboard=dash, threats=THREATS, masterplan=FULL_MP))
    assert "MU107:no entry for 4 Heroes" in found
    assert "MU107:the value drops from 5 (2 Heroes) to 4 (3 Heroes)" in found
    other = tmp_path / "missing"
    other.mkdir()
    missing = {k: v for k, v in DASH.items() if k != "player_count"}
    found = codes(other, _villain(dashboard=missing, threats=THREATS, masterplan=FULL_MP))
    assert "MU107:the Dashboard has no player-count table" in found


def test_a_noted_missing_table_is_quiet(tmp_path: Path) -> None:
    dash = {k: v for k, v in DASH.items() if k != "player_count"}
    dash["gaps"] = [
        {
            "note": "this Dashboard prints no player-count table",
            "fields": ["dashboard/player_count"],
            "status": "open",
        }
    ]
    assert codes(tmp_path, _villain(dashboard=dash, threats=THREATS, masterplan=FULL_MP)) == []


def test_missing_dashboard_sections_and_decks(tmp_path: Path) -> None:
    dash = {"special_rules": "x", "bam": "x", "player_count": DASH["player_count"]}
    found = codes(tmp_path, _villain(dashboard=dash))
    assert "MU108:the Dashboard has no Overflow effect" in found
    assert "MU108:the Dashboard has no Villainous Plot or Heroic Goal" in found
    assert (
        "MU109:no threat cards are transcribed" in found
        and "MU109:no master plan cards are transcribed" in found
    )


def test_placement_sanity(tmp_path: Path) -> None:
    cards = [_mp(n) for n in range(1, 13)]
    cards[0]["place"] = {"left": {"thug": 9}}
    cards[1]["place"] = {
        "left": {"thug": 2},
        "right": {"thug": 1},
        "text": "Place 1 Thug in each Location beside V's.",
    }
    found = codes(tmp_path, _villain(dashboard=DASH, threats=THREATS, masterplan={"cards": cards}))
    assert "MU110:card 1 places 9 thug tokens in one slot" in found
    assert (
        "MU110:card 2's kept wording no longer matches its counts; export prints the counts"
        in found
    )


def test_marvel_champions_rules(tmp_path: Path) -> None:
    deck = {
        "kind": "marvel-champions/decklist",
        "id": "d",
        "name": "D",
        "hero": "Echo",
        "aspect": "Protection",
        "groups": [
            {"name": "Echo cards", "role": "hero", "cards": [{"name": "X", "count": 14}]},
            {"name": "Protection cards", "role": "aspect", "cards": [{"name": "Y", "count": 20}]},
        ],
    }
    expansion = {
        "kind": "marvel-champions/expansion",
        "id": "e",
        "name": "E",
        "components": [
            {
                "count": 276,
                "name": "cards",
                "detail": "89 player cards, 16 villain cards, and 170 encounter cards",
            }
        ],
    }
    scenario = {
        "kind": "marvel-champions/scenario",
        "id": "s",
        "name": "S",
        "encounter_sets": ["A"],
        "removable_sets": ["B"],
    }
    log = {
        "kind": "marvel-champions/campaign-log",
        "id": "l",
        "name": "L",
        "box": "e",
        "fields": [{"label": "List of Villains", "text": "Bullseye, Electro."}],
    }
    setup = {
        "kind": "marvel-champions/villain-setup",
        "id": "u",
        "name": "Bullseye",
        "villain": "Bullseye",
        "box": "e",
    }
    found = codes(tmp_path, deck, expansion, scenario, log, setup)
    assert found == [
        "MC101:Echo cards has 14 cards; a hero's own cards are exactly 15",
        "MC101:the deck has 34 hero, aspect and basic cards; a deck is 40 to 50",
        "MC102:276 cards but the parts add up to 275",
        "MC103:'B' can be removed, but the encounter deck does not name it",
        "MC104:the lists differ on Electro",
    ]


def test_villainous_rules(tmp_path: Path) -> None:
    hook = {
        "kind": "villainous/villain",
        "id": "h",
        "name": "H",
        "board": {"locations": [{"name": "A"}, {"name": "B"}, {"name": "C"}]},
    }
    setup = {
        "kind": "villainous/setup",
        "id": "s",
        "name": "S",
        "steps": [{"text": "x"}],
        "power_by_seat": {"seats": {"1": 0, "2": 1}},
    }
    assert codes(tmp_path, hook, setup) == [
        "VL101:the board has 3 locations; every board has four",
        "VL102:no starting Power for seat(s) 3, 4, 5, 6",
    ]


def test_corpus_findings_are_the_true_ones() -> None:
    result = run_cli(["validate", "cards", "--format", "json"], cwd=ROOT)
    found = {
        (Path(d["path"]).stem, d["code"], d["message"])
        for d in json.loads(result.stdout)["diagnostics"]
    }
    assert (
        "enchantress",
        "MU105",
        "the note names card(s) 10, 11, 12, but the deck lists only 7 (up to 7)",
    ) in found
    assert (
        "crimson-dynamo",
        "MU106",
        "the note reads card 9 as 'one Thug in each of the three Locations', "
        "but the card carries no placement",
    ) in found
    # Dormammu "can never be damaged" (ks-promos line 58): he has no Health to tabulate.
    assert not [f for f in found if f[:2] == ("dormammu", "MU107")]
    assert ("knull", "MU107", "the 2, 3, 4, 5 Heroes entries have no number") in found
    # Consistent counts stay quiet: every threat deck in the corpus adds up.
    assert not [f for f in found if f[1] in ("MU102", "MU103") or "threat deck holds" in f[2]]
    # Every finding is a warning: the corpus has no errors.
    assert all(d["severity"] == "warning" for d in json.loads(result.stdout)["diagnostics"])


def test_note_naming_an_icon_no_card_shows(tmp_path: Path) -> None:
    cards = [_mp(n) for n in range(1, 13)]
    cards[0]["effects"] = [{"name": "Surprise Attack!", "text": "x"}]
    note = (
        "The Hiding Underwater Action icon is identified from its appearance. "
        "The Surprise Attack! card is fine. The Behavior card is not on this sheet."
    )
    mp = {"cards": cards, "gaps": [{"note": note, "deck": "masterplan", "status": "open"}]}
    found = codes(tmp_path, _villain(dashboard=DASH, threats=THREATS, masterplan=mp))
    assert found == ["MU111:the note names 'Hiding Underwater', which no card in this file shows"]
