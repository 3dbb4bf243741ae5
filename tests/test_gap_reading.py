"""The two Marvel United books' Gap notes, read by hand, against what the importer marks.

Each expectation below was written from the note's text in scans/ (line numbers given),
before looking at cardkit's output: which cards' placements the note leaves in doubt.
`ALL` means the note doubts the whole deck (every card that carries a placement) ("read at display resolution" with no later
sentence naming the only cards it doubts, or "every placement on this deck").
"""

from __future__ import annotations

from typing import Any

import pytest

from cardkit.games.marvel_united import rulebook as mu
from tests.conftest import ROOT

ALL = None
# villain id: (rulebook line, the master plan cards whose placement the note doubts)
PLACE: dict[str, tuple[int, set[int] | None]] = {
    "klaw": (128, ALL),  # "the icon count per slot was not confirmed at full size"
    "titania": (197, ALL),  # "Several placements, notably ... cards 8 and 11"
    "absorbing-man": (
        254,
        {6, 7, 9, 11},
    ),  # "the counts on cards 6, 7, 9 and 11 were not confirmed"
    "abomination": (298, {1, 2, 5, 6, 11, 12}),  # cards 3, 4, 7, 8 "read as two Thugs"
    "crimson-dynamo": (343, {9, 10, 11, 12}),  # "(9 and 10) ... (11 and 12) were not confirmed"
    "crossbones": (380, {1, 2, 3, 7, 9, 10, 11, 12}),
    "maximus": (435, ALL),  # "Cards 9 and 11 to 12 in particular"
    "cabal-iron-patriot": (483, ALL),  # "every placement on this deck must be checked"
    "blastaar": (524, ALL),
    "hobgoblin": (567, set()),  # "read ... at display and print resolution": no doubt
    "enchantress": (627, ALL),
    "gorr": (666, ALL),
    "knull": (717, ALL),
    "mole-man": (763, {1, 3, 5, 7, 8, 9, 11}),
    "lizard": (817, {1, 5, 6}),  # 300 dpi; "check the counts on cards 5 and 6 and on card 1"
    # "(1, 3, 5, 7, 9, 11) ... approximate"; the Subjugate Crowd cards (2, 4, ..., 12) "carry
    # only the text above; their token placements were not confirmed": to be added.
    "purple-man": (864, set(range(1, 13))),
    "shocker": (922, ALL),
}
PLACE_KS: dict[str, tuple[int, set[int] | None]] = {
    "dormammu": (91, set(range(5, 13))),  # "the token counts on cards 5 to 12"
    "corvus-glaive": (132, ALL),
    "bullseye": (171, ALL),
    "venom": (212, ALL),
    "baron-zemo": (258, set(range(6, 12))),  # "Cards 6 to 11 ...; card 12 was checked"
}
# Notes that only say a card prints no BAM! icon doubt no BAM! flag (lines 567, 666, 763, 922);
# Enchantress line 627: "Card 7 and card 10 are read as Move 2 and Move 5 with BAM!" (card 10
# is not in the deck).
BAM: dict[str, set[int]] = {
    "hobgoblin": set(),
    "gorr": set(),
    "mole-man": set(),
    "shocker": set(),
    "enchantress": {7},
    "knull": set(),
}


def _villains(box: str) -> dict[str, dict[str, Any]]:
    text = (ROOT / "scans/marvel-united" / box / "rulebook.txt").read_text(encoding="utf-8")
    docs = mu.parse(text, box, "rulebook.txt")
    return {d["id"]: d for d in docs if d.get("kind") == "marvel-united/villain"}


@pytest.fixture(scope="module")
def books() -> dict[str, dict[str, Any]]:
    return {**_villains("ks-promos"), **_villains("multiverse-ks-promos")}


def _marked(villain: dict[str, Any], field: str) -> set[int]:
    cards = villain.get("masterplan", {}).get("cards", [])
    return {c["n"] for c in cards if field in c.get("unconfirmed", [])}


@pytest.mark.parametrize("villain", sorted({**PLACE, **PLACE_KS}))
def test_placements_the_note_doubts(books: dict[str, dict[str, Any]], villain: str) -> None:
    _line, expected = {**PLACE, **PLACE_KS}[villain]
    cards = books[villain]["masterplan"]["cards"]
    deck = {c["n"] for c in cards}
    placed = {c["n"] for c in cards if "place" in c}  # a whole-deck doubt: cards that carry one
    assert _marked(books[villain], "place") == (placed if expected is ALL else expected & deck)


@pytest.mark.parametrize("villain", sorted(BAM))
def test_bam_flags_the_note_doubts(books: dict[str, dict[str, Any]], villain: str) -> None:
    assert _marked(books[villain], "bam") == BAM[villain]


def test_knull_threat_note_doubts_only_the_symbiote_henchman(
    books: dict[str, dict[str, Any]],
) -> None:
    # line 701: the Behavior card's rules for the Symbiote Henchman are not transcribed;
    # the Venom T-Rex "effect is the text as printed".
    threats = books["knull"]["threats"]["cards"]
    assert [c["name"] for c in threats if "text" in c.get("unconfirmed", [])] == [
        "Symbiote Henchman"
    ]
    note = books["knull"]["threats"]["gaps"][0]
    assert note["deck"] == "threats" and note["fields"] == ["threats/cards/*/text"]


def test_the_taskmaster_note_is_about_the_taskmaster_card(books: dict[str, dict[str, Any]]) -> None:
    # line 464 sits under the Cabal Threat cards and speaks of the Taskmaster card's symbol.
    cabal = books["cabal-iron-patriot"]
    note = cabal["threats"]["gaps"][0]
    assert note["deck"] == "threats" and note["fields"] == ["threats/cards/*/text"]
    marked = [c["name"] for c in cabal["threats"]["cards"] if c.get("unconfirmed")]
    assert marked == ["Taskmaster"]
    assert "unconfirmed" not in cabal["dashboard"]


def test_missing_sheets_are_named_not_the_dashboard(books: dict[str, dict[str, Any]]) -> None:
    # line 152: "No Masterplan or Threat sheet for Chameleon is in the source"
    note = books["chameleon"]["masterplan"]["gaps"][0]
    assert note["fields"] == ["masterplan", "threats"]
    # line 589: High Evolutionary has no sheets; its Back-of-Dashboard icons are in doubt.
    he = books["high-evolutionary"]
    assert he["dashboard"]["gaps"][0]["fields"] == ["masterplan", "threats", "dashboard/back"]


def test_corvus_glaive_doubts_its_player_count_table(books: dict[str, dict[str, Any]]) -> None:
    # ks-promos line 132: "... and the Dashboard player-count table were read ... at display
    # resolution"
    assert books["corvus-glaive"]["dashboard"]["unconfirmed"] == ["player_count"]
