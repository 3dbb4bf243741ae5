"""Small word helpers every reader shares: ids from titles, numbers written as words."""

from __future__ import annotations

import re

NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
}


def slug(text: str) -> str:
    """A cardkit id or file name from an outside code or name: `spider_man` -> `spider-man`."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "cards"


def slugify(text: str) -> str:
    """`Hangman's Tree` -> `hangmans-tree`: lower case, apostrophes dropped, runs to dashes."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "").replace("’", "")).strip("-")


def number(word: str) -> int | None:
    """`3` or `three` -> 3; None for anything else."""
    word = word.lower()
    return int(word) if word.isdigit() else NUMBER_WORDS.get(word)


def ordinal(word: str) -> int | None:
    """`third` or `3rd` -> 3; None for anything else."""
    word = word.lower()
    digits = re.fullmatch(r"(\d+)(?:st|nd|rd|th)", word)
    return int(digits[1]) if digits else ORDINALS.get(word)
