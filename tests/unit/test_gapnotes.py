"""Gap-note phrasings: which cards and fields a note names."""

from __future__ import annotations

import pytest

from cardkit.systems.marvel_united import gapnotes

CARDS = [
    ("Cards 6 and 7 (Ball and Chain) were read as two Thugs", [6, 7]),
    ("the token counts on cards 1 to 8 were read", [1, 2, 3, 4, 5, 6, 7, 8]),
    ("Cards 9 and 11 to 12 in particular were not confirmed", [9, 11, 12]),
    ("check the counts on cards 5 and 6 and on card 1 against the card files", [1, 5, 6]),
    ("Card 2 and card 3 are read as identical mixed placements", [2, 3]),
    ("The Move 0 cards (9 and 10) and the Electric Blasts counts (11 and 12)", [9, 10, 11, 12]),
    ("the counts on cards 1, 2, 5 and 6 (Civilians)", [1, 2, 5, 6]),
    ("the Masterplan token placements were read at display resolution.", []),
]


@pytest.mark.parametrize("text,expected", CARDS, ids=[c[0][:40] for c in CARDS])
def test_card_numbers(text: str, expected: list[int]) -> None:
    assert gapnotes.card_numbers(text) == expected


def test_every_placement_on_the_deck_means_all_cards() -> None:
    note = gapnotes.parse(
        "the Cabal Masterplan token placements were read at display resolution. "
        "Icon counts per slot were not confirmed, so every placement on this deck must be checked."
    )
    assert note.general and note.cards == []
    assert note.fields == ["masterplan/cards/*/place"]
    assert gapnotes.unconfirmed_cards(note, [1, 2, 3]) == [1, 2, 3]


def test_named_cards_only_when_the_note_names_them_first() -> None:
    note = gapnotes.parse(
        "the token counts on cards 5 to 7 were read from the placement diagrams at display resolution."
    )
    assert not note.general
    assert gapnotes.unconfirmed_cards(note, list(range(1, 13))) == [5, 6, 7]


def test_a_card_checked_at_full_size_is_not_unconfirmed() -> None:
    note = gapnotes.parse(
        "the Baron Zemo token placements were read at display resolution. "
        "Cards 6 to 11 were read at display resolution; card 12 was checked at full size."
    )
    assert note.confirmed_cards == [12]
    assert 12 not in gapnotes.unconfirmed_cards(note, list(range(1, 13)))


@pytest.mark.parametrize(
    "text,fields",
    [
        (
            "the Corvus Glaive Masterplan token placements and the Dashboard player-count table were read",
            ["dashboard/player_count", "masterplan/cards/*/place"],
        ),
        ("this Dashboard prints no Villainous Plot box.", ["dashboard/villainous_plot"]),
        (
            "the card counts (three Corrupted Elite Thugs, two Secrets) are read from the sheet",
            ["threats/cards/*/copies"],
        ),
        ("Cards 11 and 12 show no BAM! icon.", ["masterplan/cards/*/bam"]),
    ],
)
def test_fields_a_note_concerns(text: str, fields: list[str]) -> None:
    assert gapnotes.parse(text).fields == fields
