"""What stops a file from becoming a document: YamlProblem (a code and a position), the
readable form of a YAML error, and the guard against alias bombs and deep nesting."""

from __future__ import annotations

from typing import Any

import yaml

MAX_EXPANDED_NODES = 200_000  # a billion-laughs file blows past this at once
MAX_DEPTH = 64  # card data is a few levels deep; later steps walk documents recursively


class YamlProblem(Exception):
    """A file that cannot become a document; carries a code and a 1-based position."""

    def __init__(self, code: str, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line
        self.column = column


def _position(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    line_start = text.rfind("\n", 0, index) + 1
    return text.count("\n", 0, index) + 1, index - line_start + 1


def problem_from_yaml_error(err: yaml.YAMLError, text: str) -> YamlProblem:
    if isinstance(err, yaml.reader.ReaderError):  # a character YAML does not allow: NUL, ESC
        line, column = _position(text, err.position)
        code = f"#x{err.character:04x}" if isinstance(err.character, int) else repr(err.character)
        return YamlProblem(
            "CK001", f"character {code} is not allowed in YAML (control character)", line, column
        )
    mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    problem = getattr(err, "problem", None) or str(err).replace("\n", " ")
    context = getattr(err, "context", None)
    if "expected a single document" in f"{context} {problem}":
        return YamlProblem(
            "CK004", "several YAML documents in one file; keep one per file", line, column
        )
    if "could not determine a constructor for the tag" in problem:
        tag = problem.rsplit(" ", 1)[-1]
        return YamlProblem(
            "CK001", f"unsupported YAML tag {tag}: card files hold plain data", line, column
        )
    if mark is not None and text[mark.index : mark.index + 1] == "\t":
        return YamlProblem("CK001", "tab character where YAML needs spaces", line, column)
    message = f"{context}: {problem}" if context else problem
    return YamlProblem("CK001", f"YAML syntax error: {message}", line, column)


def expanded_size(value: Any) -> int:
    """Node count with aliases expanded, without recursion.

    Refuses nesting deeper than MAX_DEPTH (aliases counted as expanded: later steps walk
    documents recursively), recursive aliases and explosive aliasing.
    """
    memo: dict[int, tuple[int, int]] = {}  # id -> (expanded size, height)
    active: set[int] = set()
    # frame: node, depth, children still to visit (None before the visit), size, height
    stack: list[list[Any]] = [[value, 1, None, 1, 1]]
    while True:
        frame = stack[-1]
        node, depth, children = frame[0], frame[1], frame[2]
        if children is None:
            if id(node) in memo and isinstance(node, dict | list):
                frame[2] = iter(())
                frame[3], frame[4] = memo[id(node)]
            elif not isinstance(node, dict | list):
                frame[2] = iter(())
            else:
                if id(node) in active:
                    raise YamlProblem("CK009", "recursive alias: a node contains itself")
                active.add(id(node))
                frame[2] = iter(list(node.values() if isinstance(node, dict) else node))
            if depth + frame[4] - 1 > MAX_DEPTH:
                raise YamlProblem("CK009", f"nesting deeper than {MAX_DEPTH} levels")
            continue
        child = next(children, _DONE)
        if child is not _DONE:
            stack.append([child, depth + 1, None, 1, 1])
            continue
        stack.pop()
        if isinstance(node, dict | list) and id(node) not in memo:
            active.discard(id(node))
            memo[id(node)] = (frame[3], frame[4])
        if not stack:
            return int(frame[3])
        parent = stack[-1]
        parent[3] += frame[3]
        parent[4] = max(parent[4], frame[4] + 1)
        if parent[3] > MAX_EXPANDED_NODES:
            raise YamlProblem(
                "CK009", f"aliases expand past {MAX_EXPANDED_NODES:,} nodes (billion-laughs guard)"
            )


_DONE = object()
