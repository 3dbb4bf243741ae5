"""The gap-note grammar (docs/gap-notes.md): one table row per phrasing, written by hand.

The sentences below are written for these tests in the book's style; the expected
claims are what the sentence says when read as English, not what cardkit printed.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardkit.games.marvel_united import gapnotes
from cardkit.games.marvel_united import notegrammar as g

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
    assert g.card_numbers(text) == expected


# (clause, stance, fields, cards, names, scope, soft)
PHRASINGS: list[tuple[str, str, list[str], list[int], list[str], str, bool]] = [
    # doubts
    (
        "the Ogre placements were read from the card images at display resolution.",
        g.DOUBT,
        ["place"],
        [],
        [],
        "general",
        False,
    ),
    ("Cards 3 and 4 were not confirmed at full size.", g.DOUBT, [], [3, 4], [], "named", False),
    (
        "the counts on cards 2 to 4 are not yet checked against the card files.",
        g.DOUBT,
        ["place"],
        [2, 3, 4],
        [],
        "named",
        False,
    ),
    (
        "Several placements, notably the counts on cards 8 and 9, were not confirmed at full size.",
        g.DOUBT,
        ["place"],
        [8, 9],
        [],
        "examples",
        False,
    ),
    (
        "Cards 1 and 2 in particular were not confirmed at full size.",
        g.DOUBT,
        [],
        [1, 2],
        [],
        "examples",
        False,
    ),
    (
        "Icon counts per slot were not confirmed, so every placement on this deck must be checked.",
        g.DOUBT,
        ["place"],
        [],
        [],
        "every",
        False,
    ),
    ("the placements are approximate.", g.DOUBT, ["place"], [], [], "general", False),
    (
        "the Attack icons in the Rope text are identified from their appearance on the card.",
        g.DOUBT,
        ["text"],
        [],
        ["Attack", "Rope"],
        "named",
        False,
    ),
    (
        "the card counts (two Ropes) are read from the sheet and are not confirmed.",
        g.DOUBT,
        ["copies"],
        [],
        [],
        "general",
        False,
    ),
    (
        "the Dashboard player-count table was read at display resolution.",
        g.DOUBT,
        ["player_count"],
        [],
        [],
        "general",
        False,
    ),
    (
        "the four icon meanings in the BAM! effect are identified from their appearance.",
        g.DOUBT,
        ["bam"],
        [],
        [],
        "general",
        False,
    ),
    # clearances
    ("card 5 was checked at full size.", g.CLEAR, [], [5], [], "named", False),
    (
        "the placements were read at display and print resolution.",
        g.CLEAR,
        ["place"],
        [],
        [],
        "general",
        False,
    ),
    (
        "the placements were read from the card images at 300 dpi.",
        g.CLEAR,
        ["place"],
        [],
        [],
        "general",
        False,
    ),
    ("its effect is the text as printed.", g.CLEAR, ["text"], [], [], "general", False),
    # readings
    ("Cards 5 and 6 show no BAM! icon.", g.READ, ["bam"], [5, 6], [], "named", False),
    (
        "this Dashboard prints no Villainous Plot box.",
        g.READ,
        ["villainous_plot"],
        [],
        [],
        "general",
        False,
    ),
    (
        "Cards 3 and 4 read as two Thugs in each side Location.",
        g.READ,
        [],
        [3, 4],
        [],
        "named",
        False,
    ),
    (
        "The Opening card is read as one Thug in each of the three Locations.",
        g.READ,
        [],
        [],
        ["Opening"],
        "named",
        True,
    ),
    ("Card 7 is read as Move 2 with BAM!.", g.READ, ["bam", "move"], [7], [], "named", True),
    # missing content
    (
        "No Masterplan or Threat sheet for Ogre is in the source.",
        g.MISSING,
        [],
        [],
        [],
        "general",
        False,
    ),
    (
        "the Ogre Behavior card is not on this sheet.",
        g.MISSING,
        [],
        [],
        ["Ogre Behavior"],
        "named",
        False,
    ),
    ("the card's rule is not transcribed.", g.MISSING, ["text"], [], [], "general", False),
]


@pytest.mark.parametrize("row", PHRASINGS, ids=[p[0][:48] for p in PHRASINGS])
def test_each_phrasing(row: tuple[str, str, list[str], list[int], list[str], str, bool]) -> None:
    text, stance, fields, cards, names, scope, soft = row
    claims = g.read(text)
    assert len(claims) == 1, claims
    claim = claims[0]
    assert claim.stance == stance
    assert sorted(f for f, _ in claim.fields) == sorted(fields)
    assert list(claim.cards) == cards
    assert list(claim.names) == names
    assert claim.scope == scope
    assert claim.soft == soft


def test_a_sentence_without_a_stance_says_nothing() -> None:
    assert g.read("The Hypnosis text is identical on each card that carries it.") == []


def test_clauses_split_outside_parentheses_only() -> None:
    sentence = (
        "Several counts (cards 1, 2 and 3, and cards 11 and 12) were not confirmed, "
        "and the Attack icons are identified from their appearance; it was read at night."
    )
    assert g.clauses(sentence) == [
        "Several counts (cards 1, 2 and 3, and cards 11 and 12) were not confirmed",
        "the Attack icons are identified from their appearance",
        "it was read at night.",
    ]


def test_a_clause_without_field_words_keeps_the_notes_topic() -> None:
    claims = g.read(
        "the Ogre token placements were read at display resolution. "
        "Cards 6 to 8 were not confirmed at full size; card 9 was checked at full size."
    )
    assert [(c.stance, c.fields[0][0], c.cards) for c in claims] == [
        (g.DOUBT, "place", ()),
        (g.DOUBT, "place", (6, 7, 8)),
        (g.CLEAR, "place", (9,)),
    ]


def test_its_goes_on_about_the_card_just_named() -> None:
    claims = g.read("The Rope card's BAM! icon is not printed; its effect is the text as printed.")
    assert [(c.stance, c.names) for c in claims] == [(g.READ, ("Rope",)), (g.CLEAR, ("Rope",))]


# From claims to marks, on a hand-made villain.


def _villain(n: int = 6, **parts: Any) -> dict[str, Any]:
    cards = [{"n": i, "move": 1, "place": {"left": {"thug": 1}}} for i in range(1, n + 1)]
    cards[0]["effects"] = [{"name": "Opening", "text": "Each Hero discards 1 card."}]
    del cards[1]["place"]  # card 2 lacks its placement
    return {
        "dashboard": {"bam": "Deal 1 damage.", "player_count": {"heroes": {"2": 4}}},
        "threats": {"cards": [{"name": "Rope", "text": "BAM!: x"}, {"name": "Net", "text": "y"}]},
        "masterplan": {"cards": cards},
        **parts,
    }


def _marks(note: str, home: str = "masterplan", data: dict[str, Any] | None = None) -> list[str]:
    return sorted(gapnotes.reading(data or _villain(), note, home).marks)


def place(*numbers: int) -> list[str]:
    return sorted(f"masterplan/cards/{n}/place" for n in numbers)


MARKS = [
    # a general doubt covers the deck's cards that carry the field
    ("the placements were read from the card images at display resolution.", place(1, 3, 4, 5, 6)),
    # a later sentence naming the cards it doubts limits the note to them (card 2 to be added)
    (
        "the placements were read at display resolution. Cards 2 and 3 were not confirmed.",
        place(2, 3),
    ),
    # "notably" gives examples: the whole deck stays in doubt
    (
        "Several placements, notably the counts on card 3, were not confirmed at full size.",
        place(1, 3, 4, 5, 6),
    ),
    # a clearance takes its cards out
    (
        "the placements were read at display resolution. Card 4 was checked at full size.",
        place(1, 3, 5, 6),
    ),
    # a print-resolution reading doubts nothing; only the named check remains
    (
        "the placements were read at 300 dpi. Cards 1 to 4 read as printed in each diagram; "
        "check the counts on card 3 against the card files before use.",
        place(3),
    ),
    # a reading the note hedges ("is read as") is doubted beside the rest
    (
        "the counts on card 5 were not confirmed. The Opening card is read as one Thug.",
        place(1, 5),
    ),
    # "every placement on this deck" overrides any list
    (
        "Icon counts on cards 3 and 4 were not confirmed, so every placement on this deck "
        "must be checked.",
        place(1, 3, 4, 5, 6),
    ),
    # readings of icons are not doubts
    ("Cards 5 and 6 show no BAM! icon.", []),
    # a named threat card decides its deck
    (
        "the Attack icon in the Rope text is identified from its appearance.",
        ["threats/cards/Rope/text"],
    ),
    (
        "The Rope card's BAM! icon is not printed on the card face; its effect is the text as printed.",
        [],
    ),
    (
        "the Dashboard player-count table was read at display resolution.",
        ["dashboard/player_count"],
    ),
]


@pytest.mark.parametrize("note,expected", MARKS, ids=[m[0][:50] for m in MARKS])
def test_marks(note: str, expected: list[str]) -> None:
    assert _marks(note) == expected


def test_a_doubt_no_field_holds_stays_with_the_note() -> None:
    found = gapnotes.reading(
        _villain(),
        "the placements were read at display resolution. "
        "The Whirl Action icon is identified from its appearance on the card.",
        "masterplan",
    )
    assert sorted(found.marks) == place(1, 3, 4, 5, 6)
    assert found.unaddressed == [
        "The Whirl Action icon is identified from its appearance on the card."
    ]


def test_a_missing_deck_is_named_by_the_note() -> None:
    data = _villain()
    del data["threats"]
    found = gapnotes.reading(data, "No Threat sheet for Ogre is in the source.", "dashboard")
    assert found.marks == {} and found.patterns == ["threats"]


def test_each_mark_cites_the_sentence_about_its_card() -> None:
    note = (
        "the placements were read at display resolution. "
        "The counts on cards 3 and 4 were not confirmed at full size."
    )
    marks = gapnotes.reading(_villain(), note, "masterplan").marks
    assert marks["masterplan/cards/3/place"] == (
        "The counts on cards 3 and 4 were not confirmed at full size."
    )


def test_a_sheet_document_marks_its_own_cards() -> None:
    sheet = {"cards": [{"name": "Goon", "copies": 3}, {"name": "Boss", "copies": 1}]}
    found = gapnotes.reading(sheet, "the card counts are not confirmed against a card list.", "")
    assert sorted(found.marks) == ["cards/Boss/copies", "cards/Goon/copies"]
