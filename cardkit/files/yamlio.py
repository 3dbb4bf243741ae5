"""Reading card files safely and fast; finding positions; atomic writes.

Reading uses libyaml (PyYAML's C parser) with YAML 1.2 core-schema scalars, so
`no` stays a string and dates stay strings, exactly as ruamel.yaml reads them
when a file is edited. Positions come from the same parser's node marks, so a
diagnostic always points at what the validator saw.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import yaml

from cardkit.files.atomic import OutputError, atomic_write, write_target
from cardkit.files.yamlio_guard import (
    MAX_DEPTH,
    MAX_EXPANDED_NODES,
    YamlProblem,
    expanded_size,
    problem_from_yaml_error,
)
from cardkit.model import Pointer

MAX_FILE_BYTES = 10 * 1024 * 1024
__all__ = [  # the writer lives in atomic.py; problems and guards in yamlio_guard.py
    "MAX_DEPTH",
    "MAX_EXPANDED_NODES",
    "OutputError",
    "YamlProblem",
    "atomic_write",
    "write_target",
]

try:  # libyaml is optional at run time; the pure parser is 5-10x slower
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]


def _key_text(key: Any) -> str:
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(key)


class CardLoader(_BaseLoader):
    """Safe loader: YAML 1.2 core scalars, no timestamps, duplicate keys refused."""

    yaml_implicit_resolvers: ClassVar[dict[str, list[tuple[str, re.Pattern[str]]]]] = {}  # type: ignore[misc]

    def construct_mapping(  # type: ignore[override]
        self, node: yaml.MappingNode, deep: bool = False
    ) -> dict[str, Any]:
        seen: dict[str, yaml.Node] = {}
        for key_node, _ in node.value:
            key = _key_text(self.construct_object(key_node, deep=True))
            if key in seen:
                mark = key_node.start_mark
                first = seen[key].start_mark.line + 1
                raise YamlProblem(
                    "CK002",
                    f"duplicate key '{key}' (first defined on line {first})",
                    mark.line + 1,
                    mark.column + 1,
                )
            seen[key] = key_node
        mapping = super().construct_mapping(node, deep=deep)
        # JSON objects have string keys: `2: 5` reads as {"2": 5}, as yq and JSON do.
        return {_key_text(k): v for k, v in mapping.items()}


def _construct_int(loader: yaml.BaseLoader, node: yaml.ScalarNode) -> int:
    text = str(loader.construct_scalar(node))
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    if digits.startswith("0o"):
        return sign * int(digits[2:], 8)
    if digits.startswith("0x"):
        return sign * int(digits[2:], 16)
    return sign * int(digits, 10)


_CORE_RESOLVERS: list[tuple[str, str, str]] = [
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        "-+0123456789.",
    ),
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", "~nN\0"),
]
for _tag, _pattern, _first in _CORE_RESOLVERS:
    CardLoader.add_implicit_resolver(_tag, re.compile(_pattern), list(_first))
CardLoader.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^$"), [""])
CardLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)

_STR, _SEQ, _MAP = (f"tag:yaml.org,2002:{name}" for name in ("str", "seq", "map"))
_BY_FIRST = {k: tuple(v) for k, v in CardLoader.yaml_implicit_resolvers.items()}


def _resolve(self: Any, kind: type, value: str, implicit: tuple[bool, bool]) -> str:
    """PyYAML's resolver, minus what cardkit never registers (path and wildcard resolvers):
    libyaml calls it from Python once per node, so its cost is paid on every scalar."""
    if kind is yaml.ScalarNode:
        if implicit[0]:
            for tag, regexp in _BY_FIRST.get(value[:1], ()):
                if regexp.match(value):
                    return str(tag)
        return _STR
    return _SEQ if kind is yaml.SequenceNode else _MAP


def _no_path(*_: Any) -> None:
    """No path resolvers are registered: nothing to track while descending."""


CardLoader.resolve = _resolve  # type: ignore[method-assign]
CardLoader.descend_resolver = _no_path  # type: ignore[method-assign,assignment]
CardLoader.ascend_resolver = _no_path  # type: ignore[method-assign,assignment]


class _Unusual(Exception):
    """A node the plain builder leaves to PyYAML's constructor (merge keys, explicit tags)."""


def _build(loader: Any, node: yaml.Node, depth: int = 1) -> Any:
    """The document from its nodes, for the common case: plain mappings, lists and scalars.

    What PyYAML's constructor would give (core-schema scalars, string keys, duplicate keys
    refused) at a third of the cost; anything else raises _Unusual. Nesting deeper than
    MAX_DEPTH is refused (CK009): later steps walk documents recursively.
    """
    tag = node.tag
    if depth > MAX_DEPTH:
        mark = node.start_mark
        raise YamlProblem(
            "CK009", f"nesting deeper than {MAX_DEPTH} levels", mark.line + 1, mark.column + 1
        )
    if isinstance(node, yaml.ScalarNode):
        if tag == _STR:
            return node.value
        if tag == "tag:yaml.org,2002:int":
            digits = node.value  # ASCII: the resolver tags only [0-9] runs as integers
            return int(digits) if digits.isdigit() else _construct_int(loader, node)
        if tag == "tag:yaml.org,2002:null":
            return None
        if tag == "tag:yaml.org,2002:bool":
            return node.value in ("true", "True", "TRUE")
        if tag == "tag:yaml.org,2002:float":
            return loader.construct_yaml_float(node)
        raise _Unusual
    if isinstance(node, yaml.SequenceNode) and tag == _SEQ:
        return [_build(loader, child, depth + 1) for child in node.value]
    if not isinstance(node, yaml.MappingNode) or tag != _MAP:
        raise _Unusual
    mapping: dict[str, Any] = {}
    lines: dict[str, int] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            raise _Unusual
        key = _key_text(_build(loader, key_node))
        if key in mapping:
            mark = key_node.start_mark
            raise YamlProblem(
                "CK002",
                f"duplicate key '{key}' (first defined on line {lines[key]})",
                mark.line + 1,
                mark.column + 1,
            )
        lines[key] = key_node.start_mark.line + 1
        mapping[key] = _build(loader, value_node, depth + 1)
    return mapping


def decode(raw: bytes) -> str:
    """UTF-8 text of a file; a byte-order mark is accepted and dropped."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        before = raw[: err.start]
        line = before.count(b"\n") + 1
        column = err.start - (before.rfind(b"\n") + 1) + 1
        raise YamlProblem(
            "CK003", f"not UTF-8: byte 0x{raw[err.start]:02x} cannot be decoded", line, column
        ) from None


def check_size(size: int) -> None:
    if size > MAX_FILE_BYTES:
        raise YamlProblem("CK008", f"file is {size:,} bytes, over the {MAX_FILE_BYTES:,}-byte cap")


def read_bytes(path: Path) -> bytes:
    """A regular file's bytes, capped; pipes, devices and folders are refused without blocking.

    Raises YamlProblem for what is not a card file and OSError for what cannot be opened.
    """
    from cardkit.files import bounded

    try:  # a FIFO opens without waiting for a writer; the size is known before reading
        return bounded.read_capped(path, MAX_FILE_BYTES)
    except bounded.NotRegular as refused:
        raise YamlProblem("CK010", f"is a {refused.kind}, not a file") from None
    except bounded.OverCap as over:
        check_size(over.size)
        raise  # not reached: check_size refuses every size over the cap


def read_text(path: Path) -> str:
    return decode(read_bytes(path))


def load_text(text: str) -> Any:
    """Parse one YAML document safely; raises YamlProblem with a position."""
    return load_with_nodes(text)[0]


def load_with_nodes(text: str) -> tuple[Any, yaml.Node | None]:
    """The document and the node tree it was built from (positions, for a Locator)."""
    loader = CardLoader(text)
    node = None
    walk = False  # PyYAML built it: expand aliases and measure depth without recursion
    try:
        node = loader.get_single_node()
        if node is None:
            data = None
        elif "&" in text or "<<" in text:  # anchors, aliases and merges: PyYAML's way
            data = loader.construct_document(node)
            walk = True
        else:
            try:
                data = _build(loader, node)
            except _Unusual:
                data = loader.construct_document(node)
                walk = True
    except YamlProblem:
        raise
    except yaml.YAMLError as err:
        raise problem_from_yaml_error(err, text) from None
    except RecursionError:
        raise YamlProblem("CK001", "YAML nesting is too deep") from None
    finally:
        loader.dispose()
    if walk:
        expanded_size(data)
    return data, node


@dataclass
class Locator:
    """Finds the line and column of a JSON pointer, parsing the text only when asked."""

    text: str
    _root: yaml.Node | None = None
    _parsed: bool = False

    @classmethod
    def parsed(cls, text: str, root: yaml.Node | None) -> Locator:
        """A locator over nodes already composed (by the load that read the document)."""
        return cls(text, root, root is not None)

    def release(self) -> None:
        """Let the node tree go (it is composed again if a position is asked for later)."""
        self._root, self._parsed = None, False

    def __call__(self, pointer: Pointer, *, key: bool = False) -> tuple[int, int]:
        """1-based position of the deepest node on the pointer's path.

        With key=True and a mapping key as the last part, the key's own position.
        """
        if not self._parsed:
            self._parsed = True
            try:
                self._root = yaml.compose(self.text, Loader=CardLoader)
            except (yaml.YAMLError, YamlProblem, RecursionError):
                self._root = None
        node = self._root
        if node is None:
            return (1, 1)
        for index, part in enumerate(pointer):
            child = _child(node, part, key=key and index == len(pointer) - 1)
            if child is None:
                break
            node = child
        return (node.start_mark.line + 1, node.start_mark.column + 1)


def _child(node: yaml.Node, part: str | int, *, key: bool = False) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == str(part):
                return key_node if key else value_node
    elif (
        isinstance(node, yaml.SequenceNode)
        and isinstance(part, int)
        and 0 <= part < len(node.value)
    ):
        child: yaml.Node = node.value[part]
        return child
    return None


def _flowable(value: Any) -> bool:
    """Small mappings of scalars (token counts, sources) read best on one line."""
    if isinstance(value, dict):
        return (
            bool(value)
            and all(
                isinstance(v, str | int | float | bool | type(None))
                or (isinstance(v, dict) and _flowable(v))
                for v in value.values()
            )
            and len(repr(value)) <= 110
        )
    return False


def _plain(text: str) -> bool:
    """A string that stays one plain item in a flow list (`[a, b]`). ruamel writes `: x`
    there unquoted, which no YAML reader parses back: such lists are written in block
    style, where it quotes them."""
    return not (text[:1] in FLOW_INDICATORS or ": " in text or " #" in text or text != text.strip())


FLOW_INDICATORS = set(":?-,[]{}#&*!|>'\"%@`")


def to_ruamel(value: Any, *, flow: bool = False) -> Any:
    """Plain data as ruamel nodes, small mappings in flow style, for round-trip dumping."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(value, dict):
        mapping = CommentedMap((k, to_ruamel(v)) for k, v in value.items())
        if flow or _flowable(value):
            mapping.fa.set_flow_style()
        return mapping
    if isinstance(value, list):
        seq = CommentedSeq(to_ruamel(v) for v in value)
        scalars = all(
            isinstance(v, int | float) or (isinstance(v, str) and len(v) <= 40 and _plain(v))
            for v in value
        )
        if (flow or value) and scalars and len(repr(value)) <= 90:
            seq.fa.set_flow_style()
        return seq
    return value


def round_trip_yaml() -> Any:
    from ruamel.yaml import YAML

    yaml_rt = YAML(typ="rt")
    yaml_rt.width = 4096  # one source line stays one YAML line: diffs stay readable
    yaml_rt.indent(mapping=2, sequence=4, offset=2)
    yaml_rt.preserve_quotes = True
    return yaml_rt


def dump_document(data: dict[str, Any], header: str = "") -> str:
    """YAML text for a new document, with an optional comment header (a modeline)."""
    import io

    stream = io.StringIO()
    round_trip_yaml().dump(to_ruamel(data), stream)
    return header + stream.getvalue()
