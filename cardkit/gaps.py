"""Every gap in the card data: noted by the rulebooks, marked unconfirmed, or inferred by rules.

A gap is open until a confirmation closes it. `collect` returns plain rows that the
reporters print as a table, JSON, Markdown or a CSV checklist for `confirm --batch`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from cardkit import systems
from cardkit.addresses import address_of, matches, walk
from cardkit.model import Diagnostic, Document, Pointer
from cardkit.rules import Tree, all_rules

ORIGINS = ("noted", "unconfirmed", "inferred")


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
    villain: str
    card: str
    field: str  # the address `cardkit confirm` takes
    why: str
    code: str = ""
    current: str = ""
    address: str = ""  # what `cardkit confirm DOCUMENT ADDRESS` takes to close this gap

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _short(value: Any) -> str:
    import json

    if value is None:
        return ""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."


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
        self.common: dict[str, str] = {
            "path": document.display_path,
            "system": document.system,
            "box": str(box or document.path.parent.name),
            "document": document.id or "",
            "kind": document.kind,
            "villain": (document.id or "")
            if document.kind == systems.for_kind(document.kind).villain_kind
            else str(data.get("villain_ref", "")),
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

    def collect(self) -> Iterator[Gap]:
        data = self.doc.data
        for pointer, node in walk(data):
            base = address_of(data, pointer)
            for item in (
                node.get("unconfirmed", []) if isinstance(node.get("unconfirmed"), list) else []
            ):
                field = f"{base}/{item}" if base else str(item)
                current = _lookup(node, str(item))
                yield self.row(
                    "unconfirmed",
                    "open",
                    (*pointer, "unconfirmed"),
                    field,
                    _why_unconfirmed(self.notes, field),
                    current=_short(current),
                    address=field,
                )
            for index, record in enumerate(
                node.get("confirmations", []) if isinstance(node.get("confirmations"), list) else []
            ):
                field = f"{base}/{record.get('field')}" if base else str(record.get("field"))
                who = f"confirmed by {record.get('by')} on {record.get('date')}"
                why = f"{who}: {record.get('evidence')}"
                yield self.row(
                    "unconfirmed",
                    "resolved",
                    (*pointer, "confirmations", index),
                    field,
                    why,
                    current=_short(record.get("value")),
                    address=field,
                )
            note = node.get("gap") if isinstance(node.get("gap"), dict) else None
            notes: list[tuple[Pointer, dict[str, Any]]] = [(("gap",), note)] if note else []
            if isinstance(node.get("gaps"), list) and pointer[-1:] != ("gap",):
                notes += [
                    (("gaps", i), g) for i, g in enumerate(node["gaps"]) if isinstance(g, dict)
                ]
            for where, gap in notes:
                named = gap.get("fields", [])
                if where == ("gap",):  # an inline note: its fields are relative to its holder
                    named = [f"{base}/{f}" if base else f for f in named]
                fields = ", ".join(named) or base
                cards = ", ".join(map(str, gap.get("cards", [])))
                yield self.row(
                    "noted",
                    str(gap.get("status", "open")),
                    (*pointer, *where),
                    fields,
                    str(gap.get("note", "")),
                    card=cards or ("all" if "*" in fields else ""),
                    address=address_of(data, (*pointer, *where))
                    if where != ("gap",)
                    else f"{base}/gap",
                )


def _lookup(node: dict[str, Any], relative: str) -> Any:
    value: Any = node
    for part in relative.split("/"):
        if isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return None
    return value


def _notes(data: dict[str, Any]) -> list[tuple[list[str], str]]:
    """Each gap note of a document: the field patterns it names and its text."""
    found = []
    for _, node in walk(data):
        for gap in node.get("gaps", []) if isinstance(node.get("gaps"), list) else []:
            if isinstance(gap, dict):
                found.append(([str(p) for p in gap.get("fields", [])], str(gap.get("note", ""))))
    return found


def _why_unconfirmed(notes: list[tuple[list[str], str]], field: str) -> str:
    """The text of the gap note that covers a field, if one does."""
    for patterns, text in notes:
        if any(matches(p, field) for p in patterns):
            return text
    return "marked unconfirmed: not yet checked against the physical card"


def collect(documents: list[Document], findings: list[Diagnostic] | None = None) -> list[Gap]:
    """Noted and unconfirmed gaps of the documents, plus inferred ones from the game rules."""
    rows: list[Gap] = []
    by_path = {d.display_path: (d, _Rows(d)) for d in documents}
    for _, per_document in by_path.values():
        rows.extend(per_document.collect())
    for finding in findings if findings is not None else infer(documents):
        if finding.path not in by_path:
            continue
        doc, per_document = by_path[finding.path]
        rows.append(
            per_document.row(
                "inferred",
                "open",
                _pointer(finding.pointer),
                _address(doc, finding.pointer),
                finding.message,
                code=finding.code,
            )
        )
    return rows


def _pointer(json_pointer: str) -> Pointer:
    parts = [p.replace("~1", "/").replace("~0", "~") for p in json_pointer.split("/")[1:]]
    return tuple(int(p) if p.isdigit() else p for p in parts)


def _address(doc: Document, json_pointer: str) -> str:
    try:
        return address_of(doc.data, _pointer(json_pointer))
    except (KeyError, IndexError, TypeError):
        return json_pointer


def system_findings(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The game-system rules' findings (not loading, schema, or id and reference checks)."""
    system_rules = {rule.code for rule in all_rules() if rule.system != "core"}
    return [d for d in diagnostics if d.code in system_rules]


def infer(documents: list[Document]) -> list[Diagnostic]:
    """Run the rules over documents and keep the game-system findings: the inferred gaps."""
    from cardkit.validate import run_rules

    return system_findings(run_rules(Tree(documents)))


def load(paths: list[Path]) -> tuple[list[Document], list[Diagnostic]]:
    """Schema-valid documents under paths, and the problems that kept the others out."""
    from cardkit.validate import load_valid

    _, documents, problems = load_valid(paths)
    return documents, problems


def summary(rows: list[Gap]) -> str:
    boxes: dict[str, dict[str, int]] = {}
    for row in rows:
        counts = boxes.setdefault(row.box or "(no box)", {"open": 0, "resolved": 0})
        counts[row.status] = counts.get(row.status, 0) + 1
    parts = [
        f"{box}: {c['open']} open, {c['resolved']} resolved" for box, c in sorted(boxes.items())
    ]
    total_open = sum(c["open"] for c in boxes.values())
    total_resolved = sum(c["resolved"] for c in boxes.values())
    return f"{total_open} open, {total_resolved} resolved" + (
        f" ({'; '.join(parts)})" if parts else ""
    )
