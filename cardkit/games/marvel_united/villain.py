"""A villain's section of a rulebook <-> one `marvel-united/villain` document.

Parts are stored in the order the source gives them (dict order is kept by YAML),
so printing them back in key order reproduces the source.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardkit.games.marvel_united import dashboard, gapnotes, sheets
from cardkit.rulebook import generic, headings
from cardkit.rulebook.generic import Groups
from cardkit.rulebook.outline import Section

PART_SUFFIXES = {
    "dashboard": " Dashboard",
    "threats": " Threat Cards",
    "masterplan": " Masterplan Deck",
}
Lookup = Callable[[str], dict[str, Any]]


def is_villain(section: Section) -> bool:
    return any(
        headings.matches(__package__, "villain_part", child.title) for child in section.children
    )


def gap_parser(deck: str | None, *, sheet: bool = False) -> Callable[[str], dict[str, Any]]:
    """Gap notes as data; `mark_unconfirmed` adds their fields once the document is whole."""

    def parse(text: str) -> dict[str, Any]:
        return gapnotes.parse(text, deck)

    return parse


def _part_kind(title: str) -> str | None:
    for kind, suffix in PART_SUFFIXES.items():
        if title.endswith(suffix):
            return kind
    return None


def _titled(part: dict[str, Any], title: str, default: str) -> dict[str, Any]:
    return part if title == default else {"title": title, **part}


def build(
    section: Section, base: dict[str, Any], slug: Callable[[str], str]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The villain document and any documents split off it (achievements)."""
    name = section.title
    doc: dict[str, Any] = {**base, "name": name}
    extra_docs: list[dict[str, Any]] = []
    if section.blocks:
        doc["intro"] = generic.body_items(section.blocks, gap_parser(None))
    for child in section.children:
        kind = _part_kind(child.title)
        default = f"{name}{PART_SUFFIXES[kind]}" if kind else ""
        if kind == "dashboard" and "dashboard" not in doc:
            part = dashboard.parse(child.blocks, gap_parser("dashboard"))
            if part is None or dashboard.render(part) != generic.blocks_lines(child.blocks):
                part = {"body": generic.body_items(child.blocks, gap_parser("dashboard"))}
            doc["dashboard"] = _titled(part, child.title, default)
        elif kind == "threats" and "threats" not in doc:
            doc["threats"] = _titled(
                sheets.parse_sheet(child.blocks, gap_parser("threats")), child.title, default
            )
        elif kind == "masterplan" and "masterplan" not in doc:
            part = sheets.parse_masterplan(child.blocks, name, gap_parser("masterplan"))
            doc["masterplan"] = _titled(part, child.title, default)
        elif child.title.endswith("Achievements") and not child.children:
            achievements = {
                "kind": "marvel-united/achievements",
                "id": slug(child.title),
                "name": child.title,
                "box": base["box"],
                "villain_ref": base["id"],
                **_achievements(child),
            }
            extra_docs.append(achievements)
            doc.setdefault("achievements_ref", achievements["id"])
        elif any(b.kind == "bullets" for b in child.blocks) and not child.children:
            part = sheets.parse_sheet(child.blocks, gap_parser("threats"))
            doc.setdefault("sheets", []).append({"title": child.title, **part})
        else:
            doc.setdefault("sections", []).append(generic.section_data(child, gap_parser(None)))
    mark_unconfirmed(doc)
    return doc, extra_docs


def _achievements(section: Section) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for item in generic.body_items(section.blocks, gap_parser(None)):
        if (
            isinstance(item, dict)
            and "steps" in item
            and "entries" not in data
            and item.get("start", 1) == 1
        ):
            data["entries"] = [
                {"n": i, "text": text} for i, text in enumerate(item["steps"], start=1)
            ]
        else:
            data.setdefault("after" if "entries" in data else "intro", []).append(item)
    return data


def render_achievements(doc: dict[str, Any]) -> Groups:
    groups: Groups = [[str(doc["name"])]]
    groups.extend(generic.render_items(doc.get("intro", [])))
    if doc.get("entries"):
        groups.append([f"{e['n']}. {e['text']}" for e in doc["entries"]])
    groups.extend(generic.render_items(doc.get("after", [])))
    return groups


def render(doc: dict[str, Any], lookup: Lookup) -> Groups:
    """The villain's content below its heading, in stored order."""
    name = str(doc["name"])
    groups: Groups = generic.render_items(doc.get("intro", []))
    for key, value in doc.items():
        if key in PART_SUFFIXES:
            groups.append([value.get("title", f"{name}{PART_SUFFIXES[key]}")])
            if key == "dashboard":
                groups.extend(
                    generic.render_items(value["body"])
                    if "body" in value
                    else dashboard.render(value)
                )
            elif key == "threats":
                groups.extend(sheets.render_sheet(value))
            else:
                groups.extend(sheets.render_masterplan(value, name))
        elif key == "sheets":
            for sheet in value:
                groups.append([sheet["title"]])
                groups.extend(sheets.render_sheet(sheet))
        elif key == "sections":
            for section in value:
                groups.extend(generic.render_section(section))
        elif key == "achievements_ref":
            groups.extend(render_achievements(lookup(value)))
    return groups


def mark_unconfirmed(doc: dict[str, Any]) -> None:
    """Mark the fields each gap note doubts as unconfirmed, and store them on the note."""
    homes: list[tuple[str, Any]] = [("", doc), *((k, doc.get(k)) for k in PART_SUFFIXES)]
    homes += [(f"sheets/{i}", sheet) for i, sheet in enumerate(doc.get("sheets", []))]
    for home, part in homes:
        if not isinstance(part, dict):
            continue
        for gap in part.get("gaps", []):
            found = gapnotes.reading(doc, gap["note"], home)
            for address in found.marks:
                _mark(doc, address)
            stored = {k: v for k, v in gap.items() if k not in ("fields", "status")}
            if found.patterns:
                stored["fields"] = found.patterns
            stored["status"] = gap.get("status", "open")
            gap.clear()
            gap.update(stored)


def _mark(doc: dict[str, Any], address: str) -> None:
    *where, field = address.split("/")
    node: Any = doc
    for part in where:
        if isinstance(node, list):
            node = next(
                (c for c in node if str(c.get("n", c.get("name"))) == part),
                node[int(part)] if part.isdigit() and int(part) < len(node) else None,
            )
        elif isinstance(node, dict):
            node = node.get(part)
        if node is None:
            return
    if isinstance(node, dict):
        marks = node.setdefault("unconfirmed", [])
        if field not in marks:
            marks.append(field)
