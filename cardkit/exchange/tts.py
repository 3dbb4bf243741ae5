"""Tabletop Simulator decks: deck sheet images and a saved object, from proof cards.

TTS reads a custom deck as a grid image ("deck sheet") of up to 10 columns and 7 rows,
one card per cell, plus one back image. A card in the saved object names its picture by
`CardID = deck key * 100 + cell index`, the cell index counted row by row from the top
left, and the deck key pointing into `CustomDeck`, which holds the sheet's URL and its
`NumWidth` x `NumHeight`. The geometry here is pure; pictures come from the proof
renderer (`cardkit.render`), so a TTS card looks like its printed proxy.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

MAX_COLS, MAX_ROWS = 10, 7  # TTS's largest deck sheet grid
MIN_GRID = 2  # TTS's custom deck dialog takes 2 x 2 at least; we keep to it
SHEET_LIMIT = 4096  # pixels per side that every TTS build loads


@dataclass(frozen=True)
class Sheet:
    """One deck sheet: `count` cards from `first` in a `cols` x `rows` grid."""

    key: int  # the CustomDeck key, 1-based
    first: int
    count: int
    cols: int
    rows: int


def card_pixels(card_w: float, card_h: float, limit: int = SHEET_LIMIT) -> tuple[int, int]:
    """The largest card picture whose full 10 x 7 sheet stays within `limit` pixels a side.

    Sizes are in any one unit; the aspect ratio is kept (63.5 x 88.9 mm gives 409 x 573).
    """
    width = min(limit // MAX_COLS, math.floor(limit // MAX_ROWS * card_w / card_h))
    return width, round(width * card_h / card_w)


def sheets(count: int, first_key: int = 1) -> list[Sheet]:
    """Split a deck of `count` cards into sheets of at most 70; each grid as small as fits.

    Keys run from `first_key`: the decks of one export take keys no other deck has, so
    decks spawned into one table never share a `CustomDeck` key (TTS would show one
    deck's sheet for the other's cards).
    """
    found = []
    per_sheet = MAX_COLS * MAX_ROWS
    for key, first in enumerate(range(0, count, per_sheet), start=first_key):
        n = min(per_sheet, count - first)
        cols = max(MIN_GRID, min(MAX_COLS, n))
        rows = max(MIN_GRID, math.ceil(n / cols))
        found.append(Sheet(key, first, n, cols, rows))
    return found


def card_id(sheet: Sheet, index_in_deck: int) -> int:
    return sheet.key * 100 + (index_in_deck - sheet.first)


def cell(sheet: Sheet, card: int, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """The pixel box (left, top, right, bottom) of `card`'s cell, from its CardID."""
    index = card % 100
    col, row = index % sheet.cols, index // sheet.cols
    w, h = size
    return (col * w, row * h, (col + 1) * w, (row + 1) * h)


def guid(*parts: str) -> str:
    """A stable 6-hex-digit GUID, so the same deck gives the same file."""
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:6]


TRANSFORM = {
    "posX": 0.0,
    "posY": 1.0,
    "posZ": 0.0,
    "rotX": 0.0,
    "rotY": 180.0,
    "rotZ": 180.0,  # face down, as a deck lies on the table
    "scaleX": 1.0,
    "scaleY": 1.0,
    "scaleZ": 1.0,
}


@dataclass(frozen=True)
class DeckCard:
    name: str
    description: str


def custom_deck(sheet: Sheet, face_url: str, back_url: str, unique: bool) -> dict[str, Any]:
    """A `CustomDeck` entry; with `unique`, the back is a sheet of the same grid, cell by cell."""
    return {
        "FaceURL": face_url,
        "BackURL": back_url,
        "NumWidth": sheet.cols,
        "NumHeight": sheet.rows,
        "BackIsHidden": True,
        "UniqueBack": unique,
        "Type": 0,
    }


def saved_object(
    name: str,
    cards: Sequence[DeckCard],
    face_urls: Sequence[str],
    back_urls: str | Sequence[str],
    description: str = "",
    *,
    first_key: int = 1,
    sideways: bool = False,
) -> dict[str, Any]:
    """The saved-object JSON for one deck (a single card when the deck has one card).

    `back_urls` is one back for every card, or one back sheet per face sheet (unique
    backs: a double-sided card shows its other side). `sideways`: landscape cards
    (TTS's `SidewaysCard`, so they lie and zoom the long way).
    """
    deck_sheets = sheets(len(cards), first_key)
    unique = not isinstance(back_urls, str)
    backs = list(back_urls) if unique else [str(back_urls)] * len(deck_sheets)
    if not len(face_urls) == len(backs) == len(deck_sheets):
        raise ValueError(f"{len(deck_sheets)} sheets need as many face and back URLs")
    decks = {
        str(s.key): custom_deck(s, face, back, unique)
        for s, face, back in zip(deck_sheets, face_urls, backs, strict=True)
    }
    contained = []
    for sheet in deck_sheets:
        for index in range(sheet.first, sheet.first + sheet.count):
            card = cards[index]
            number = card_id(sheet, index)
            contained.append(
                {
                    "Name": "Card",
                    "Nickname": card.name,
                    "Description": card.description,
                    "CardID": number,
                    "SidewaysCard": sideways,
                    "Transform": dict(TRANSFORM),
                    "CustomDeck": {str(sheet.key): decks[str(sheet.key)]},
                    "GUID": guid(name, str(index), card.name),
                }
            )
    if len(contained) == 1:
        state = {**contained[0], "Transform": dict(TRANSFORM)}
    else:
        state = {
            "Name": "DeckCustom",
            "Nickname": name,
            "Description": description,
            "Transform": dict(TRANSFORM),
            "DeckIDs": [c["CardID"] for c in contained],
            "SidewaysCard": sideways,
            "CustomDeck": decks,
            "ContainedObjects": contained,
            "GUID": guid(name),
        }
    return {"SaveName": "", "Date": "", "VersionNumber": "", "ObjectStates": [state]}
