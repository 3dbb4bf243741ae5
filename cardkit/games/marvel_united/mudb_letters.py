"""The Marvel United JSON Database's letters and texts, and how cardkit reads them.

The database writes tokens as letters: `add` (tokens a Master Plan card places) and a
Location's `slots` use "C" and "T" (its field reference also lists "D" and "empty" for
slots, without saying what "D" is); a Hero card's `actions`, a Threat's `actions` and a
Dashboard's `superVillain` use "A", "H", "M", "W". The letters are the initials of the
symbols the database's own texts name in brackets ([CIVILIAN], [THUG], [ATTACK],
[HEROIC], [MOVE], [WILD]), which are cardkit's tokens civilian, thug, attack, heroic,
move and wild. A letter outside these tables is never dropped: it becomes a token the
box declares (`<letter>_token`, or `<letter>_action` for an action; the letter is its mark,
and a proof's stand-in tile shows it) and a warning says so.
The mapping is written out in docs/exchange.md.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

PLACEMENT_LETTERS = {"C": "civilian", "T": "thug"}
ACTION_LETTERS = {"A": "attack", "H": "heroic", "M": "move", "W": "wild"}
EMPTY_SLOT = "empty"  # a Location slot with no token printed in it
ROLES = {"placement": PLACEMENT_LETTERS, "action": ACTION_LETTERS}


def _spelled(letter: str) -> str:
    """A token name for any letter: `d` for "D", `digit_one` for "1"."""
    parts = []
    for char in letter:
        if char.isascii() and char.isalpha():
            parts.append(char.lower())
        else:
            parts.append(re.sub(r"[^a-z]+", "_", unicodedata.name(char, "sign").lower()))
    return "_".join(p.strip("_") for p in parts if p.strip("_")) or "blank"


@dataclass
class Letters:
    """Letters <-> token names for one box: the fixed tables plus the box's own tokens."""

    declared: dict[str, dict[str, Any]] = field(default_factory=dict)  # token name -> entry
    letters: dict[str, str] = field(default_factory=dict)  # declared token name -> letter
    warnings: list[str] = field(default_factory=list)
    lossless: list[str] = field(default_factory=list)  # warnings that lose nothing

    @classmethod
    def for_box(cls, tokens: list[Any] | None, letters: dict[str, str] | None) -> Letters:
        found = cls()
        for entry in tokens or []:
            if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                found.declared[entry["name"]] = entry
        found.letters = dict(letters or {})
        return found

    def token(self, letter: Any, role: str, where: str) -> str:
        """The token a letter stands for; an unknown letter is declared (and warned about)."""
        text = str(letter)
        if text in ROLES[role]:
            return ROLES[role][text]
        for name, known in self.letters.items():
            if known == text and self.declared.get(name, {}).get("role") == role:
                return name
        name = _spelled(text) + ("_token" if role == "placement" else "_action")
        mark = next((c for c in text if c.isascii() and c.isalnum()), "X")
        self.declared[name] = {
            "name": name,
            "singular": f"{text} token",
            "plural": f"{text} tokens",
            "mark": mark,
            "icon": name.replace("_", "-"),
            "role": role,
            "description": f"The Marvel United JSON Database's letter {text!r}, "
            "which its field reference does not name.",
        }
        self.letters[name] = text
        # said, but nothing is lost: the letter is the token's mark and comes back on export
        said = f"{where}: letter {text!r} has no cardkit token; declared as token {name} of the box"
        self.warnings.append(said)
        self.lossless.append(said)
        return name

    def letter(self, token: str, marks: dict[str, str]) -> str | None:
        """The database letter for a token name; None (and a warning) where it has none.

        A token the box declares itself is written as its mark (a letter new to the
        database, with a warning); a vocabulary token with no letter (crisis, an icon name)
        is left out of the database file: the sidecar keeps it.
        """
        for table in ROLES.values():
            for letter, name in table.items():
                if name == token:
                    return letter
        if token in self.letters:
            return self.letters[token]
        if token == EMPTY_SLOT:
            return EMPTY_SLOT
        mark = (self.declared.get(token) or {}).get("mark")
        if isinstance(mark, str) and token not in marks:
            self.warn(f"token {token} of the box has no database letter; written as {mark!r}")
            return mark
        self.warn(f"token {token} has no database letter; left out (the sidecar keeps it)")
        return None

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)


@dataclass
class Texts:
    """One document's translations: cardkit's field path -> the `locText` beside its English.

    The database gives every text as `{text, locText}`: `text` goes where cardkit's field
    is; `locText` goes to the document's `translations` under the same field path, only
    where it differs from `text` (an English file repeats the English there).
    """

    translations: dict[str, str] = field(default_factory=dict)

    def take(self, value: Any, path: str) -> str | None:
        if not isinstance(value, dict):
            return None
        text, loc = value.get("text"), value.get("locText")
        if not isinstance(text, str) or not text:
            return None
        if isinstance(loc, str) and loc != text:
            self.translations[path] = loc
        return text

    def give(self, text: Any, path: str) -> dict[str, Any] | None:
        if not isinstance(text, str):
            return None
        return {"text": text, "locText": self.translations.get(path, text)}


def paragraph(value: Any) -> str | None:
    """cardkit paragraphs (a string or a list of blocks) as one database text."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = [item for item in value if isinstance(item, str)]
        return "\n".join(parts) if parts else None
    return None
