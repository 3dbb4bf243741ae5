"""The grammar of a rulebook `Gap:` note: what each of its clauses can say.

A note is split into sentences and a sentence into clauses. Each clause is read as
one `Claim`: which cards (numbers or names), which fields, and its stance: a doubt,
a clearance, a reading, or content that is missing. `docs/gap-notes.md` lists the
phrasings with examples; tests/unit/test_notegrammar.py has a table row for each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DOUBT, CLEAR, READ, MISSING = "doubt", "clear", "read", "missing"

_NUMBER_LIST = r"\d+(?:(?:,? and |, | to )(?:on )?(?:[Cc]ards? )?\d+)*"
_CARD_REFS = re.compile(rf"\b[Cc]ards? \(?({_NUMBER_LIST})\)?|\(({_NUMBER_LIST})\)")

# Field words, tried in order; a match removes its words before the next pattern is tried.
# (pattern, field, deck the field lives in; None: the deck of the card or note)
FIELD_WORDS: list[tuple[str, str, str | None]] = [
    (r"player-count table", "player_count", "dashboard"),
    (r"Villainous Plot box|win or loss condition", "villainous_plot", "dashboard"),
    (r"Back of the Dashboard|starting tokens|Special Setup", "back", "dashboard"),
    (r"BAM! effect", "bam", "dashboard"),
    (r"BAM! (?:icon|symbol)s?|\bwith BAM!", "bam", "masterplan"),
    (r"card counts?", "copies", None),
    (r"star counts?", "text", None),
    (
        r"(?:[Ii]con|[Tt]oken|[Pp]lacement|Thug and Civilian) counts?|placements?|\bcounts?\b",
        "place",
        "masterplan",
    ),
    (r"(?:Thug|Civilian) icon", "place", "masterplan"),
    (r"movement direction|\bas Move \d+", "move", "masterplan"),
    (r"\bicons?\b|\bsymbols?\b|\btext\b|\brules?\b|\beffect\b", "text", None),
]

# Stances, tried in order: the first that matches a clause is its stance.
STANCES: list[tuple[str, str]] = [
    (
        MISSING,
        r"\bnot transcribed\b|\bnot decoded\b|\bis not (?:on|in) (?:this|the)\b"
        r"|\b[Nn]o (?:Master ?[Pp]lan|Threat)\b[^.;]*\bsheets?\b",
    ),
    (
        CLEAR,
        r"(?<!not )\b(?:checked|confirmed) at full size|\bprint resolution\b|\b\d{3,4} ?dpi\b"
        r"|\bas printed\b",
    ),
    (
        DOUBT,
        r"\bnot (?:yet )?(?:confirmed|checked)\b|\bcheck\b[^.;]*\bagainst the card files\b"
        r"|\b(?:must|should) be checked\b|\bapproximate\b|\bidentified (?:from|as)\b"
        r"|\bfrom (?:its |their )?appearance\b|\bat display resolution\b",
    ),
    (
        READ,
        r"\bread as\b|\bshows? no\b|\bprints? no\b|\bhas no\b|\bnot printed\b"
        r"|\bread from the card text\b|\bprinted inside\b",
    ),
]
_SOFT = re.compile(r"\b(?:is|are|was|were) read as\b")  # the transcriber's interpretation
_EVERY = re.compile(r"\bevery (?:placement|card)\b|\bon this deck\b|\ball (?:the )?cards\b")
_EXAMPLES = re.compile(r"\bnotably\b|\bin particular\b|\bsuch as\b|\bfor example\b")
_INHERIT = re.compile(r"^(?:its|their|they|it)\b")  # a clause that goes on about the last cards

_NAME = r"[A-Z][\w!'-]*(?: [A-Z][\w!'-]*)*"
_NAMES = re.compile(
    rf"\b(?:[Tt]he|in the) ({_NAME}(?:(?:, | and ){_NAME})*)"
    r"(?:'s| (?:card(?:'s)?|icons?|text|Threat(?: card)?(?:'s)?)\b)"
)
_POSSESSIVE = re.compile(rf"\b({_NAME})'s\b")


@dataclass(frozen=True)
class Claim:
    stance: str
    fields: tuple[tuple[str, str | None], ...] = ()  # (field, deck)
    cards: tuple[int, ...] = ()
    names: tuple[str, ...] = ()
    scope: str = "general"  # general (no cards named), named, examples, every
    soft: bool = False  # "card 7 is read as ...": a reading the note itself hedges
    decks: tuple[str, ...] = ()  # for MISSING: the decks it says are absent
    clause: str = ""
    sentence: str = ""


def card_numbers(text: str) -> list[int]:
    numbers: list[int] = []
    for match in _CARD_REFS.finditer(text):
        listed = re.sub(r"(?:on )?[Cc]ards? ", "", match[1] or match[2])
        for part in re.split(r",? and |, ", listed):
            low, _, high = part.partition(" to ")
            numbers.extend(range(int(low), int(high) + 1) if high else [int(low)])
    return sorted(dict.fromkeys(numbers))


def sentences(note: str) -> list[str]:
    return [s for s in re.split(r"(?<=\.)\s+(?=[A-Z])", note.strip()) if s]


def clauses(sentence: str) -> list[str]:
    """A sentence cut at `;` and `, and` outside parentheses (`, so` keeps one clause)."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(sentence):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth:
            continue
        for cut in ("; ", ", and "):
            if sentence.startswith(cut, index):
                parts.append(sentence[start:index])
                start = index + len(cut)
    parts.append(sentence[start:])
    return [p.strip() for p in parts if p.strip()]


def fields_of(clause: str) -> tuple[tuple[str, str | None], ...]:
    found: list[tuple[str, str | None]] = []
    rest = clause
    for pattern, name, deck in FIELD_WORDS:
        if re.search(pattern, rest):
            if name == "text" and found:
                continue  # "text" only when nothing more precise was said
            rest = re.sub(pattern, " ", rest)
            if (name, deck) not in found:
                found.append((name, deck))
    return tuple(found)


def names_in(clause: str) -> tuple[str, ...]:
    names: list[str] = []
    for match in [*_NAMES.finditer(clause), *_POSSESSIVE.finditer(clause)]:
        for name in re.split(r", | and ", match[1]):
            if name and name not in names:
                names.append(name)
    return tuple(names)


def stance_of(clause: str) -> str | None:
    for stance, pattern in STANCES:
        if re.search(pattern, clause):
            return stance
    return None


def _missing_decks(clause: str) -> tuple[str, ...]:
    decks = []
    if re.search(r"Master ?[Pp]lan", clause):
        decks.append("masterplan")
    if re.search(r"\bThreat\b", clause):
        decks.append("threats")
    return tuple(decks)


def read(note: str) -> list[Claim]:
    """Every clause of a note as a claim; clauses that say none of the above are left out."""
    claims: list[Claim] = []
    topic: tuple[tuple[str, str | None], ...] = ()
    for sentence in sentences(note):
        last: Claim | None = None
        for clause in clauses(sentence):
            stance = stance_of(clause)
            fields = fields_of(clause) or topic
            topic = fields or topic
            numbers = tuple(card_numbers(clause))
            names = names_in(clause)
            if not numbers and not names and last is not None and _INHERIT.match(clause):
                numbers, names = last.cards, last.names
            if _EVERY.search(clause):
                scope = "every"
            elif numbers and _EXAMPLES.search(clause):
                scope = "examples"
            else:
                scope = "named" if numbers or names else "general"
            claim = Claim(
                stance or "",
                fields,
                numbers,
                names,
                scope,
                soft=stance == READ and bool(_SOFT.search(clause)),
                decks=_missing_decks(clause) if stance == MISSING else (),
                clause=clause,
                sentence=sentence,
            )
            last = claim
            if stance:
                claims.append(claim)
    return claims
