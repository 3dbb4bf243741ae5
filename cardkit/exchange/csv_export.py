"""Card data as CSV for template tools (Squib, nanDECK): one row per card, a column per field.

A document's cards are the entries of every `cards` list in it, at any depth (a villain's
master plan and threat cards, a hero's cards, a decklist's groups, a card set); a
document without such a list is one card itself. Nested fields become dotted columns
(`place.left`), lists of words are joined with `; `, and counts of icons or tokens are
written as repeated `{token}` marks (`{civilian}{civilian}{thug}`), as are marvelsdb's
inline icons in text (`[boost]` -> `{boost}`). The `qty` column holds the card's copies
(`copies`, `count` or `quantity`; 1 when the kind has none), the column Squib's
`explode:` and nanDECK's `LINKMULTI` read. The rules are written out in docs/exchange.md.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Literal

from cardkit import suggest
from cardkit.errors import UsageError
from cardkit.model import spreadsheet_safe

HEADER = frozenset(
    {"kind", "id", "system", "box", "source", "unconfirmed", "confirmations", "gaps", "gap"}
)
CONTEXT = ("document", "deck", "qty", "unconfirmed")
COPIES = ("copies", "count", "quantity")
_WORD = re.compile(r"^[a-z][a-z_-]*$")
_ICON = re.compile(r"(?<!\[)\[([a-z][a-z_]*)\](?!\])")
_TRAIT = re.compile(r"\[\[([^\[\]]+)\]\]")


def text(value: str) -> str:
    """marvelsdb's inline markup in a template tool's terms: icons as `{token}`."""
    return _TRAIT.sub(r"<b><i>\1</i></b>", _ICON.sub(r"{\1}", value))


def _is_tokens(value: Mapping[Any, Any]) -> bool:
    """A mapping of icon or token names to counts: `{civilian: 2, thug: 1}`."""
    return bool(value) and all(
        isinstance(k, str) and _WORD.match(k) and isinstance(n, int) and not isinstance(n, bool)
        for k, n in value.items()
    )


def tokens(value: Mapping[str, int]) -> str:
    return "".join(f"{{{name}}}" * count for name, count in value.items())


def _item(value: Any) -> str:
    if isinstance(value, Mapping):
        if "text" in value:
            name = value.get("name") or value.get("title")
            return f"{name}: {cell(value['text'])}" if name else cell(value["text"])
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return cell(value)


def cell(value: Any) -> str:
    """One value as the text of one cell."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return text(value)
    if isinstance(value, Mapping):
        return tokens(value) if _is_tokens(value) else json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "; ".join(_item(v) for v in value)
    return str(value)


def flatten(card: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    """Nested fields as dotted columns; token counts and lists stay one column."""
    row: dict[str, str] = {}
    for key, value in card.items():
        name = f"{prefix}{key}"
        if prefix == "" and key in HEADER:
            continue
        if isinstance(value, Mapping) and not _is_tokens(value) and value:
            row.update(flatten(value, f"{name}."))
        else:
            row[name] = cell(value)
    return row


def _label(owner: Mapping[str, Any], fallback: str) -> str:
    for key in ("name", "title"):
        if isinstance(owner.get(key), str):
            return str(owner[key])
    return fallback


Path = tuple[str | int, ...]


def cards(doc: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(deck label, card) for every card the document holds, in document order."""
    for label, card, _, _ in cards_at(doc):
        yield label, card


def cards_at(doc: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any], Path, str]]:
    """(deck label, card, its path in the document, side) for every card, in order.

    A mapping holding a `back` mapping is a two-sided card (a board or dashboard): a row
    for its front (its fields but `back`, printed_side `front`) and one for its back.
    """
    found = list(_walk(doc, _label(doc, str(doc.get("id", ""))), ()))
    if found:
        yield from found
    else:
        yield from _sides(_label(doc, str(doc.get("id", ""))), doc, ())


def _sides(
    label: str, card: Mapping[str, Any], path: Path
) -> Iterator[tuple[str, Mapping[str, Any], Path, str]]:
    back = card.get("back")
    if isinstance(back, Mapping):
        yield label, {k: v for k, v in card.items() if k != "back"}, path, "front"
        yield label, back, (*path, "back"), "back"
    else:
        yield label, card, path, ""


def _walk(value: Any, label: str, path: Path) -> Iterator[tuple[str, Mapping[str, Any], Path, str]]:
    if isinstance(value, Mapping):
        for key, child in value.items():
            if (
                key == "cards"
                and isinstance(child, list)
                and all(isinstance(c, Mapping) for c in child)
            ):
                yield from ((label, c, (*path, key, i), "") for i, c in enumerate(child))
            elif isinstance(child, Mapping) and isinstance(child.get("back"), Mapping):
                yield from _sides(_label(child, f"{label} · {key}"), child, (*path, key))
            elif isinstance(child, Mapping | list):
                inner = (
                    _label(child, f"{label} · {key}")
                    if isinstance(child, Mapping)
                    else f"{label} · {key}"
                )
                yield from _walk(child, inner, (*path, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            if isinstance(child, Mapping):
                yield from _walk(child, _label(child, label), (*path, i))


def open_fields(doc: Mapping[str, Any], path: Path) -> list[str]:
    """The card's fields still unconfirmed, as paths relative to the card: its own
    `unconfirmed` and open `gap` note, and every enclosing object's `unconfirmed` path
    that leads into it (`cards/*/place` on a deck, `dashboard/bam` on the document)."""
    found: list[str] = []
    node: Any = doc
    for depth in range(len(path) + 1):
        if isinstance(node, Mapping):
            for entry in node.get("unconfirmed") or []:
                parts = str(entry).split("/")
                rest = path[depth:]
                if len(parts) > len(rest) and all(
                    p == "*" or p == str(r) for p, r in zip(parts, rest, strict=False)
                ):
                    found.append("/".join(parts[len(rest) :]))
            note = node.get("gap") if depth == len(path) else None
            if isinstance(note, Mapping) and note.get("status") == "open":
                found += [str(f) for f in note.get("fields") or []]
        if depth == len(path):
            break
        step = path[depth]
        if isinstance(node, Mapping) and isinstance(step, str):
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int) and step < len(node):
            node = node[step]
        else:
            break
    return list(dict.fromkeys(found))


def _qty(card: Mapping[str, Any]) -> str:
    for key in COPIES:
        if isinstance(card.get(key), int):
            return str(card[key])
    return "1"


def rows(documents: Iterable[Mapping[str, Any]]) -> list[dict[str, str]]:
    found = []
    for doc in documents:
        for deck, card, path, side in cards_at(doc):
            row = {"document": str(doc.get("id", "")), "deck": deck, "qty": _qty(card)}
            fields = open_fields(doc, path)
            if side == "front":  # what lies under `back` is the back row's
                fields = [f for f in fields if f != "back" and not f.startswith("back/")]
            row["unconfirmed"] = "; ".join(fields)
            row.update(flatten(card))
            if side:  # after the card's own fields: a dashboard's back has a `side` name
                row["printed_side"] = side
            found.append(row)
    return found


def neutral(value: str) -> str:
    """A cell a spreadsheet will not run (`model.spreadsheet_safe`, OWASP's advice)."""
    return str(spreadsheet_safe(value))


def to_csv(documents: Iterable[Mapping[str, Any]], *, raw: bool = False) -> str:
    """The CSV text: the context columns, then every field in first-seen order. Cells that
    a spreadsheet would read as a formula are neutralised unless `raw`."""
    table = rows(documents)
    columns = list(CONTEXT)
    for row in table:
        columns += [c for c in row if c not in columns]
    if not raw:
        table = [{neutral(k): neutral(v) for k, v in row.items()} for row in table]
        columns = [neutral(c) for c in columns]
    # Python's writer quotes a cell holding \n but not one holding a lone \r, which readers
    # take as a row's end: then every cell is quoted, so no cell can split its row
    carriage = any("\r" in c for c in columns) or any("\r" in v for r in table for v in r.values())
    quoting: Literal[0, 1] = csv.QUOTE_ALL if carriage else csv.QUOTE_MINIMAL
    stream = io.StringIO()
    writer = csv.DictWriter(stream, columns, restval="", lineterminator="\n", quoting=quoting)
    writer.writeheader()
    writer.writerows(table)
    return stream.getvalue()


def by_kind(documents: Iterable[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    grouped: dict[str, list[Mapping[str, Any]]] = {}
    for doc in documents:
        grouped.setdefault(str(doc.get("kind", "")), []).append(doc)
    return grouped


def choose_kinds(
    grouped: Mapping[str, list[Mapping[str, Any]]], names: Iterable[str]
) -> dict[str, list[Mapping[str, Any]]]:
    """The groups named: a full kind (`marvel-united/hero`), or a short name one kind has."""
    chosen: dict[str, list[Mapping[str, Any]]] = {}
    for name in names:
        matches = [kind for kind in grouped if kind == name or kind.split("/", 1)[-1] == name]
        if len(matches) > 1 and name not in grouped:
            raise UsageError(f"--kind {name} is more than one kind here: {', '.join(matches)}")
        if not matches:
            short = {kind.split("/", 1)[-1] for kind in grouped}
            hint = suggest.hint(name, set(grouped) | short)
            raise UsageError(f"--kind '{name}' matches nothing here; {hint}")
        chosen[matches[0] if name not in grouped else name] = grouped[
            name if name in grouped else matches[0]
        ]
    return chosen
