"""Every placement phrasing in the rulebooks, read into counts per slot and printed back."""

from __future__ import annotations

import pytest

from cardkit.games.marvel_united import cards, placement

PHRASINGS = [
    (
        "Place 1 Civilian in each Location beside Klaw's.",
        {"left": {"civilian": 1}, "right": {"civilian": 1}},
    ),
    (
        "Place 2 Thugs in the left Location and 2 Thugs in the right Location.",
        {"left": {"thug": 2}, "right": {"thug": 2}},
    ),
    (
        "Place 1 Thug in each of the three Locations.",
        {"left": {"thug": 1}, "villain": {"thug": 1}, "right": {"thug": 1}},
    ),
    (
        "Place 1 Civilian in each of the three Locations (left, Villain's, right).",
        {"left": {"civilian": 1}, "villain": {"civilian": 1}, "right": {"civilian": 1}},
    ),
    (
        "Place 1 Civilian in each side Location and 1 Civilian in Titania's Location.",
        {"left": {"civilian": 1}, "villain": {"civilian": 1}, "right": {"civilian": 1}},
    ),
    (
        "Place 1 Thug and 1 Civilian in each of the three Locations.",
        {
            "left": {"thug": 1, "civilian": 1},
            "villain": {"thug": 1, "civilian": 1},
            "right": {"thug": 1, "civilian": 1},
        },
    ),
    (
        "Place 1 Civilian in each of the three Locations, with 2 Civilians in Maximus' Location.",
        {"left": {"civilian": 1}, "villain": {"civilian": 2}, "right": {"civilian": 1}},
    ),
    (
        "Place 2 Thugs in the left Location, 1 Thug in Corvus Glaive's Location and 2 Thugs in the right Location.",
        {"left": {"thug": 2}, "villain": {"thug": 1}, "right": {"thug": 2}},
    ),
    (
        "Place 1 Civilian in the left Location, 1 Thug in the Villain's Location and 1 Civilian in the right Location.",
        {"left": {"civilian": 1}, "villain": {"thug": 1}, "right": {"civilian": 1}},
    ),
    (
        "Place 2 Thugs in Crimson Dynamo's Location and 1 Thug in the right Location.",
        {"villain": {"thug": 2}, "right": {"thug": 1}},
    ),
    (
        "Place 2 Thugs and 2 Civilians in the left Location, 1 Thug and 1 Civilian in Baron Zemo's Location and "
        "2 Thugs and 2 Civilians in the right Location.",
        {
            "left": {"thug": 2, "civilian": 2},
            "villain": {"thug": 1, "civilian": 1},
            "right": {"thug": 2, "civilian": 2},
        },
    ),
]


@pytest.mark.parametrize("sentence,expected", PHRASINGS, ids=[p[0][:48] for p in PHRASINGS])
def test_phrasing_reads_as_counts(sentence: str, expected: dict[str, dict[str, int]]) -> None:
    assert placement.parse(sentence) == expected


def test_no_tokens_is_distinct_from_absent() -> None:
    assert placement.parse("No tokens placed.") == "none"
    card = cards.parse_masterplan("3. Move 0. Impossible Shot: Deal 2 damage.", "Bullseye")
    assert card is not None and "place" not in card  # the card prints no placement


@pytest.mark.parametrize(
    "sentence",
    [
        "Place 1 Infection token below the leftmost Civilian.",
        "Place the Negative Zone card next to the play area.",
        "Place 1 Thug in the left Location and 1 Thug in the left Location.",
        "Place 1 Thug.",
    ],
)
def test_unreadable_sentences_are_not_guessed(sentence: str) -> None:
    assert placement.parse(sentence) is None


def test_canonical_sentence_and_kept_wording() -> None:
    counts = {"left": {"civilian": 1}, "right": {"civilian": 1}}
    assert placement.render(counts, "Klaw") == (
        "Place 1 Civilian in the left Location and 1 Civilian in the right Location."
    )
    kept = {**counts, "text": "Place 1 Civilian in each Location beside Klaw's."}
    assert placement.sentence(kept, "Klaw") == kept["text"]
    corrected = {**kept, "right": {"civilian": 2}}
    assert placement.sentence(corrected, "Klaw") == (
        "Place 1 Civilian in the left Location and 2 Civilians in the right Location."
    )
    assert placement.possessive("Enchantress") == "Enchantress'"


def test_lizard_sewer_slots() -> None:
    line = "1. Move 0. BAM!. Place 2 Thugs and 1 Civilian in the left Location and 1 Thug and 1 Civilian in the right Location."
    card = cards.parse_masterplan(line, "Lizard", anchor="sewer")
    assert card is not None
    assert card["place"] == {
        "anchor": "sewer",
        "left": {"thug": 2, "civilian": 1},
        "right": {"thug": 1, "civilian": 1},
    }
    assert cards.render_masterplan(card, "Lizard") == line


@pytest.mark.parametrize(
    "line",
    [
        "9. Move *. Entangle: Give 1 Crisis token to 1 Hero in Venom's Location. Then BAM! "
        'The movement on this card is "Move clockwise to the next Location with any Heroes."',
        "1. Move 3. Ritual card. Place 1 Civilian in each of the three Locations (left, Villain's, right). "
        "Ritual: Increase the Ritual Track by the number of Civilians and Thugs in Dormammu's Location.",
        "4. Move 1. BAM!. Hammer of Skirn: Move Titania clockwise 1 Location. Then, BAM! "
        "Place 1 Civilian in the left Location and 1 Civilian in the right Location.",
        "2. Move 0. BAM!. Subjugate Crowd: Turn the leftmost Civilian into a Thug. (Token placement not confirmed at full size.)",
        "5. Move 0. BAM!.",
    ],
)
def test_master_plan_lines_round_trip(line: str) -> None:
    card = cards.parse_masterplan(line, "Villain")
    assert card is not None
    assert cards.render_masterplan(card, "Villain") == line


def test_master_plan_fields() -> None:
    card = cards.parse_masterplan(
        "1. Move 3. Ritual card. Place 1 Civilian in each of the three Locations (left, Villain's, right). "
        "Ritual: Increase the Ritual Track.",
        "Dormammu",
    )
    assert card is not None
    assert card["ritual"] is True and card["move"] == 3
    assert card["effects"] == [
        {"name": "Ritual", "text": "Increase the Ritual Track.", "after_place": True}
    ]
