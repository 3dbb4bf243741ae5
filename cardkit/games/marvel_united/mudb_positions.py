"""Where each value of a JSON file starts: `characters[12].cards[3].add` -> line and column.

Python's json module gives no positions, so findings about a database box would point at
nothing a person can open. This walks the text once, as the JSON grammar goes, and
records the line and column of every value by its path (the same path the import's
warnings print).
"""

from __future__ import annotations

import bisect
import json
import re

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_SPACE = re.compile(r"[ \t\n\r]*")
_LITERALS = ("true", "false", "null")


class Positions:
    """Path -> (line, column), both from 1, of a JSON text already known to be valid."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.newlines = [i for i, c in enumerate(text) if c == "\n"]
        self.found: dict[str, tuple[int, int]] = {}
        self._value(_SPACE.match(text, 0).end(), "")  # type: ignore[union-attr]

    def at(self, path: str) -> tuple[int, int]:
        """The position of `path`, or of its nearest ancestor that has one."""
        while path not in self.found and path:
            cut = max(path.rfind("."), path.rfind("["))
            path = path[: max(cut, 0)]
        return self.found.get(path, (1, 1))

    def _position(self, index: int) -> tuple[int, int]:
        line = bisect.bisect_left(self.newlines, index)
        start = self.newlines[line - 1] + 1 if line else 0
        return line + 1, index - start + 1

    def _skip(self, index: int) -> int:
        return _SPACE.match(self.text, index).end()  # type: ignore[union-attr]

    def _value(self, index: int, path: str) -> int:
        self.found[path] = self._position(index)
        char = self.text[index]
        if char == "{":
            return self._object(index + 1, path)
        if char == "[":
            return self._array(index + 1, path)
        if char == '"':
            return json.decoder.scanstring(self.text, index + 1)[1]  # type: ignore[attr-defined,no-any-return]
        for literal in _LITERALS:
            if self.text.startswith(literal, index):
                return index + len(literal)
        match = _NUMBER.match(self.text, index)
        if match is None:
            raise ValueError(f"not JSON at {self._position(index)}")
        return match.end()

    def _object(self, index: int, path: str) -> int:
        index = self._skip(index)
        if self.text[index] == "}":
            return index + 1
        while True:
            key, index = json.decoder.scanstring(self.text, index + 1)  # type: ignore[attr-defined]
            index = self._skip(self._skip(index) + 1)  # past the colon
            index = self._skip(self._value(index, f"{path}.{key}" if path else key))
            if self.text[index] == "}":
                return index + 1
            index = self._skip(index + 1)  # past the comma

    def _array(self, index: int, path: str) -> int:
        index = self._skip(index)
        if self.text[index] == "]":
            return index + 1
        n = 0
        while True:
            index = self._skip(self._value(index, f"{path}[{n}]"))
            n += 1
            if self.text[index] == "]":
                return index + 1
            index = self._skip(index + 1)
