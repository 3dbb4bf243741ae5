"""Every gap in the card data: noted by the rulebooks, marked unconfirmed, or inferred by rules.

A gap is open until a confirmation closes it. The rows of a document come from `_Rows`;
`gaps.stream` walks a tree with them (`collect` is that walk, as a list): plain rows that
the reporters print as a table, JSON, Markdown or a CSV checklist for `confirm --batch`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from cardkit import systems
from cardkit.addresses import address_of, matches, walk
from cardkit.check.rules import all_rules, reader_for
from cardkit.gaps.tally import Tally
from cardkit.model import Diagnostic, Document, Pointer
from cardkit.systems import legacy

ORIGINS = ("noted", "unconfirmed", "inferred")
UNNAMED = "noted:unnamed"  # a note naming no field, while it waits to see if one has a row
QUOTE = "Gap: "  # opens the row of a note that doubts no field: the note, whole


@dataclass(frozen=True)
class Gap:
    origin: str  # noted: a rulebook's Gap note; unconfirmed: a field marked so; inferred: a rule
    status: str  # open or resolved
    path: str
    line: int
    column: int
    system: str
    box: str
    document: str
    kind: str
    game_group: str  # the document's group, as its game declares it (systems.group_of)
    card: str
    field: str  # the address `cardkit confirm` takes
    why: str
    code: str = ""
    current: str = ""
    address: str = ""  # what `cardkit confirm DOCUMENT ADDRESS` takes to close this gap
    absent: bool = False  # the field is to be added: the card does not carry it yet
    group_label: str = ""  # what its game calls a group, for people ("" for none)

    @property
    def check(self) -> str:
        """The physical check this row belongs to: one card, or one part of a document."""
        return f"{self.path}#{self.card or self.field.split('/')[0]}"

    def as_dict(self) -> dict[str, Any]:
        """The row as the JSON output has it (docs/json-output.md): every field but the
        label, the old group key before `game_group`, and the check. Every field is a plain
        value, so no deep copy."""
        out: dict[str, Any] = {}
        for name in FIELDS:
            if name == "game_group":
                out[legacy.OLD_NAME] = legacy.old_value(self.game_group, self.group_label)
            if name != "group_label":
                out[name] = getattr(self, name)
        out["check"] = self.check
        return out


FIELDS = [f.name for f in fields(Gap)]


def _card_of(address: str) -> str:
    parts = address.split("/")
    return parts[parts.index("cards") + 1] if "cards" in parts[:-1] else ""


class _Rows:
    def __init__(self, document: Document) -> None:
        self.doc = document
        data = document.data
        manifest = systems.is_manifest(document.kind)
        box = data.get("id") if manifest else data.get("box")
        self.notes = _notes(data)
        self.reader = reader_for(document.system)
        self.sentences: dict[str, str] = {}  # field address -> the note sentence doubting it
        self.unaddressed: dict[str, list[str]] = {}  # note address -> doubts no field holds
        self.caused: dict[str, set[str]] = {}  # note address -> the fields it marks
        if self.reader is not None:
            for pointer, gap in _gap_notes(data):
                home = address_of(data, pointer[:-2]) if pointer[-2:-1] == ("gaps",) else ""
                marks, rest = self.reader(data, str(gap.get("note", "")), home)
                for address, sentence in marks.items():
                    self.sentences.setdefault(address, sentence)
                self.unaddressed[address_of(data, pointer)] = rest
                self.caused[address_of(data, pointer)] = set(marks)
        self.common: dict[str, Any] = {
            "path": document.display_path,
            "system": document.system,
            "box": str(box or document.path.parent.name),
            "document": document.id or "",
            "kind": document.kind,
            "game_group": systems.group_of(document),
            "group_label": systems.group_label(document.kind),
        }

    def row(
        self, origin: str, status: str, pointer: Pointer, field: str, why: str, **extra: Any
    ) -> Gap:
        line, column = self.doc.locate(pointer)
        card = extra.pop("card", None) or _card_of(field)
        return Gap(
            origin,
            status,
            line=line,
            column=column,
            card=card,
            field=field,
            why=why,
            **self.common,
            **extra,
        )

    def why(self, field: str) -> str:
        if field in self.sentences:
            return self.sentences[field]
        return _why_unconfirmed(self.notes if self.reader is None else [], field)

    def collect(self) -> Iterator[Gap]:
        data = self.doc.data
        per_field: list[Gap] = []
        notes: list[tuple[Gap, list[str]]] = []
        for pointer, node in walk(data):
            base = address_of(data, pointer)
            for item in (
                node.get("unconfirmed", []) if isinstance(node.get("unconfirmed"), list) else []
            ):
                field = f"{base}/{item}" if base else str(item)
                current = _lookup(node, str(item))
                per_field.append(
                    self.row(
                        "unconfirmed",
                        "open",
                        (*pointer, "unconfirmed"),
                        field,
                        self.why(field),
                        current=_text(current) if current is not _ABSENT else "",
                        absent=current is _ABSENT,
                        address=field,
                    )
                )
            for index, record in enumerate(
                node.get("confirmations", []) if isinstance(node.get("confirmations"), list) else []
            ):
                field = f"{base}/{record.get('field')}" if base else str(record.get("field"))
                who = f"confirmed by {record.get('by')} on {record.get('date')}"
                why = f"{who}: {record.get('evidence')}"
                per_field.append(
                    self.row(
                        "unconfirmed",
                        "resolved",
                        (*pointer, "confirmations", index),
                        field,
                        why,
                        current=_text(record.get("value")),
                        address=field,
                    )
                )
            note = node.get("gap") if isinstance(node.get("gap"), dict) else None
            found: list[tuple[Pointer, dict[str, Any]]] = [(("gap",), note)] if note else []
            if isinstance(node.get("gaps"), list) and pointer[-1:] != ("gap",):
                found += [
                    (("gaps", i), g) for i, g in enumerate(node["gaps"]) if isinstance(g, dict)
                ]
            for where, gap in found:
                named = [str(f) for f in gap.get("fields", [])]
                if where == ("gap",):  # an inline note: its fields are relative to its holder
                    named = [f"{base}/{f}" if base else f for f in named]
                fields = ", ".join(named) or base
                cards = ", ".join(map(str, gap.get("cards", [])))
                address = (
                    address_of(data, (*pointer, *where)) if where != ("gap",) else f"{base}/gap"
                )
                held = address_of(data, (*pointer, *where))
                rest = self.unaddressed.get(held)
                if where != ("gap",) and rest is not None and not rest:
                    # its doubts are per-field rows, if it caused any; if not, it is one
                    # row at its part, quoting it (docs/gap-notes.md)
                    notes.append((self._unnamed(pointer, gap, address, base), [held, *named]))
                    continue
                notes.append(
                    (
                        self.row(
                            "noted",
                            str(gap.get("status", "open")),
                            (*pointer, *where),
                            fields,
                            " ".join(dict.fromkeys(rest)) if rest else str(gap.get("note", "")),
                            card=cards or ("all" if "*" in fields else ""),
                            address=address,
                        ),
                        [] if rest else named,
                    )
                )
        yield from per_field
        fields_with_rows = {r.field for r in per_field}
        for row, patterns in notes:
            if row.origin == UNNAMED:
                held, named = patterns[0], patterns[1:]
                if self.caused.get(held, set()) & fields_with_rows:
                    continue  # a field it doubts has its row, quoting it
                if named and all(any(_names(p, f) for f in fields_with_rows) for p in named):
                    continue  # every field the note names has its own row
                yield replace(row, origin="noted")
                continue
            if patterns and all(any(_names(p, r.field) for r in per_field) for p in patterns):
                continue  # every field the note names has its own row
            yield row

    def _unnamed(self, pointer: Pointer, gap: dict[str, Any], address: str, base: str) -> Gap:
        """The row of a note that names no field: at the part that holds it, quoting it."""
        where = (*pointer, "gaps", int(address.rsplit("/", 1)[-1]))
        return self.row(
            UNNAMED,
            str(gap.get("status", "open")),
            where,
            base or str(gap.get("deck", "")),
            f"{QUOTE}{gap.get('note', '')}",
            address=address,
        )


_ABSENT: Any = object()


def _names(pattern: str, address: str) -> bool:
    """A note's field pattern names this field (at its depth: `dashboard` names no field)."""
    return matches(pattern, address) and pattern.count("/") == address.count("/")


def _text(value: Any) -> str:
    """A value as one line of text, whole: the checklist's `current` column is never cut."""
    import json

    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _gap_notes(data: dict[str, Any]) -> Iterator[tuple[Pointer, dict[str, Any]]]:
    for pointer, node in walk(data):
        if isinstance(node.get("gaps"), list):
            for index, gap in enumerate(node["gaps"]):
                if isinstance(gap, dict):
                    yield (*pointer, "gaps", index), gap


def _lookup(node: dict[str, Any], relative: str) -> Any:
    value: Any = node
    for part in relative.split("/"):
        if isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return _ABSENT
    return value


def _notes(data: dict[str, Any]) -> list[tuple[list[str], str]]:
    """Each gap note of a document: the field patterns it names and its text."""
    return [
        ([str(p) for p in gap.get("fields", [])], str(gap.get("note", "")))
        for _, gap in _gap_notes(data)
    ]


def _why_unconfirmed(notes: list[tuple[list[str], str]], field: str) -> str:
    """The text of the gap note that names a field (same depth: `dashboard` names no field)."""
    for patterns, text in notes:
        if any(_names(p, field) for p in patterns):
            return text
    return "marked unconfirmed: not yet checked against the physical card"


def collect(documents: list[Document], findings: list[Diagnostic] | None = None) -> list[Gap]:
    """Noted and unconfirmed gaps of the documents, plus inferred ones from the game rules
    (or from `findings`, a validate report's diagnostics): `gaps.stream.rows`, as a list."""
    from cardkit.gaps.stream import rows

    return list(rows(documents, findings))


def inferred_row(per_document: _Rows, code: str, where: str, message: str) -> Gap:
    """A rule's finding (at JSON pointer `where`) as a gap row of its document."""
    doc = per_document.doc
    return per_document.row(
        "inferred", "open", _pointer(where), _address(doc, where), message, code=code
    )


def part_of(row: Gap) -> str:
    return row.field.split("/")[0]


def said_by(row: Gap, own: list[Gap]) -> bool:
    """An inferred row that a note or an unconfirmed mark of its document already gives."""
    part = part_of(row)
    return any(
        (
            other.origin == "noted"
            and not other.why.startswith(QUOTE)  # doubts no field: says no rule's finding
            and part in other.field.split(", ")
        )
        or (other.origin == "unconfirmed" and other.field == row.field)
        for other in own
    )


def restated_codes() -> dict[str, frozenset[str]]:
    return {rule.code: rule.restates for rule in all_rules()}


def restated(row: Gap, parts: set[tuple[str, str]], restates: dict[str, frozenset[str]]) -> bool:
    """An inferred row restating another rule's row on the same part of its document;
    `parts` holds (code, part) of every inferred row of that document."""
    part = part_of(row)
    return any((code, part) in parts for code in restates.get(row.code, ()))


def _pointer(json_pointer: str) -> Pointer:
    parts = [p.replace("~1", "/").replace("~0", "~") for p in json_pointer.split("/")[1:]]
    return tuple(int(p) if p.isdigit() else p for p in parts)


def _address(doc: Document, json_pointer: str) -> str:
    try:
        return address_of(doc.data, _pointer(json_pointer))
    except (KeyError, IndexError, TypeError):  # a key the document lacks: name it as such
        pointer = _pointer(json_pointer)
        for cut in range(len(pointer) - 1, -1, -1):
            try:
                head = address_of(doc.data, pointer[:cut])
            except (KeyError, IndexError, TypeError):
                continue
            return "/".join([head, *map(str, pointer[cut:])] if head else map(str, pointer[cut:]))
        return "/".join(map(str, pointer))


def system_findings(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The game-system rules' findings (not loading, schema, or id and reference checks)."""
    system_rules = {rule.code for rule in all_rules() if gives_gaps(rule)}
    return [d for d in diagnostics if d.code in system_rules]


def gives_gaps(rule: Any) -> bool:
    """A rule whose findings are inferred gaps: the game systems' rules, and the lines an
    import could not place (CK300: a loss stays a gap until someone places it)."""
    from cardkit.check.core.unclaimed import CODE as UNCLAIMED

    return bool(rule.system != "core" or rule.code == UNCLAIMED)


def load(paths: list[Path]) -> tuple[list[Document], list[Diagnostic]]:
    """Schema-valid documents under paths, and the problems that kept the others out."""
    from cardkit.check.validate import load_valid

    _, documents, problems = load_valid(paths)
    return documents, problems


def checks(rows: list[Gap]) -> int:
    """How many physical checks the rows ask for: a card (or a part) looked at once."""
    return len({row.check for row in rows})


def summary(rows: list[Gap]) -> str:
    """`12 open on 12 checks, 1 resolved (box: 12 open, 1 resolved)`."""
    return Tally().counted_all(rows).line()
