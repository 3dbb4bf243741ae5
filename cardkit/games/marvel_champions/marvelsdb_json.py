"""marvelsdb pack files as text: each card's span and layout read, and written back alike.

marvelsdb-json-data is written by many hands: some files are indented with a tab, some
with four or three spaces; some end in a newline, some do not; some write `•` as `\\u2022`
and others as the character, sometimes both within one file (never within one card).
A card's key order is usually alphabetical, not always. So the reader notes, per card,
what `json.dumps` cannot guess (the key order where it is not alphabetical, the non-ASCII
characters written as escapes) and, per file, the indent and the final newline; the
writer puts them back. A file whose formatting is something else again (a missing space
after a colon) comes back JSON-equal, not byte-equal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

DEFAULT_INDENT = "\t"
_SPACE = re.compile(r"[ \t\r\n]*")
_ESCAPE = re.compile(r"\\u([dD][89abAB][0-9a-fA-F]{2})\\u([0-9a-fA-F]{4})|\\u([0-9a-fA-F]{4})")


class PackSyntaxError(ValueError):
    """A pack file that is not a JSON list of objects: message, line and column."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.line, self.column = line, column


@dataclass
class SourceCard:
    """One card as the file holds it: its fields in the source's order, and its layout."""

    card: dict[str, Any]
    escaped: str = ""  # non-ASCII characters the source writes as \\uXXXX, in code order
    line: int = 1


@dataclass
class PackLayout:
    indent: str = DEFAULT_INDENT
    final_newline: bool = True


@dataclass
class PackText:
    cards: list[SourceCard] = field(default_factory=list)
    layout: PackLayout = field(default_factory=PackLayout)


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"the key '{key}' appears twice in one object")
        seen[key] = value
    return seen


_DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicate_keys)


def _position(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _error(message: str, text: str, index: int) -> PackSyntaxError:
    return PackSyntaxError(message, *_position(text, index))


def escaped_characters(span: str) -> str:
    """The non-ASCII characters a piece of JSON text writes as `\\uXXXX` escapes."""
    found: set[str] = set()
    for high, low, single in _ESCAPE.findall(span):
        if high:
            code = 0x10000 + ((int(high, 16) - 0xD800) << 10) + (int(low, 16) - 0xDC00)
            found.add(chr(code))
        elif int(single, 16) > 0x7F:
            found.add(chr(int(single, 16)))
    return "".join(sorted(found))


def parse(text: str) -> PackText:
    """The cards of a pack file with their spans' escapes, and the file's layout."""
    result = PackText()
    at = _SPACE.match(text, 0).end()  # type: ignore[union-attr]
    if not text.startswith("[", at):
        raise PackSyntaxError(
            "not a marvelsdb pack file (a JSON list of cards)", *_position(text, at)
        )
    at = _SPACE.match(text, at + 1).end()  # type: ignore[union-attr]
    result.layout.indent = text[text.rfind("\n", 0, at) + 1 : at] or DEFAULT_INDENT
    first = True
    while not text.startswith("]", at):
        if not first:
            if not text.startswith(",", at):
                raise _error("not JSON: expected ',' or ']' between cards", text, at)
            at = _SPACE.match(text, at + 1).end()  # type: ignore[union-attr]
        first = False
        try:
            card, end = _DECODER.raw_decode(text, at)
        except json.JSONDecodeError as err:
            raise PackSyntaxError(f"not JSON: {err.msg}", err.lineno, err.colno) from None
        except ValueError as err:
            raise PackSyntaxError(f"not JSON: {err}", *_position(text, at)) from None
        if not isinstance(card, dict):
            raise PackSyntaxError(
                "not a marvelsdb pack file: a card is not a JSON object", *_position(text, at)
            )
        span = text[at:end]
        result.cards.append(SourceCard(card, escaped_characters(span), _position(text, at)[0]))
        at = _SPACE.match(text, end).end()  # type: ignore[union-attr]
    rest = text[at + 1 :]
    if rest.strip():
        raise _error("not JSON: text after the list of cards", text, at + 1)
    result.layout.final_newline = rest.endswith("\n")
    return result


def _escape(text: str, characters: str) -> str:
    for char in characters:
        text = text.replace(char, json.dumps(char)[1:-1])
    return text


def dump_card(card: Mapping[str, Any], indent: str, escaped: str = "") -> str:
    """One card as it sits in the list: indented one level, its escapes as the source's."""
    body = json.dumps(card, indent=indent, ensure_ascii=False)
    return _escape("\n".join(indent + line for line in body.split("\n")), escaped)


def dump(cards: Iterable[tuple[Mapping[str, Any], str]], layout: PackLayout) -> str:
    """A pack file: the cards (each with its escaped characters) in the given layout."""
    parts = [dump_card(card, layout.indent, escaped) for card, escaped in cards]
    body = "[\n" + ",\n".join(parts) + "\n]" if parts else "[]"
    return body + ("\n" if layout.final_newline else "")
