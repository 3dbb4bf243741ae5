"""A villain's section of a rulebook <-> one `marvel-united/villain` document.

Parts are stored in the order the source gives them (dict order is kept by YAML),
so printing them back in key order reproduces the source.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardkit.rulebook import generic, headings
from cardkit.rulebook.generic import Groups
from cardkit.rulebook.outline import Section
from cardkit.systems.marvel_united import dashboard, gapnotes, sheets

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
    """Gap notes as structured data; on a sheet document its cards sit at the top level."""

    def parse(text: str) -> dict[str, Any]:
        note = gapnotes.parse(text, deck)
        if sheet:
            note.fields = [
                f.removeprefix("threats/")
                for f in note.fields
                if not f.startswith(("dashboard", "masterplan"))
            ]
        gap: dict[str, Any] = {"note": text}
        if note.deck:
            gap["deck"] = note.deck
        if note.cards:
            gap["cards"] = note.cards
        if note.fields:
            gap["fields"] = note.fields
        gap["status"] = "open"
        return gap

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
    """Mark the fields the rulebook's gap notes name as unconfirmed, card by card."""
    parts = [doc, *(doc.get(k) for k in PART_SUFFIXES), *doc.get("sheets", [])]
    for part in parts:
        if not isinstance(part, dict):
            continue
        for gap in part.get("gaps", []):
            note = gapnotes.parse(gap["note"], gap.get("deck"))
            for path in gap.get("fields", []):
                _mark(doc, path, note)


def _mark(doc: dict[str, Any], path: str, note: gapnotes.GapNote) -> None:
    if "/" not in path and "cards/*/" not in path:
        return  # a whole part ("dashboard") is too broad to mark field by field
    if "cards/*/" in path:
        where, _, field = path.rpartition("cards/*/")
        container = _at(doc, where.rstrip("/"))
        found = container.get("cards", []) if isinstance(container, dict) else []
        numbers = [c["n"] for c in found if "n" in c]
        chosen = set(gapnotes.unconfirmed_cards(note, numbers)) if numbers else None
        targets = [c for c in found if (chosen is None or c.get("n") in chosen) and field in c]
    else:
        where, _, field = path.rpartition("/")
        container = _at(doc, where)
        targets = [container] if isinstance(container, dict) and field in container else []
    for target in targets:
        marks = target.setdefault("unconfirmed", [])
        if field not in marks:
            marks.append(field)


def _at(doc: dict[str, Any], path: str) -> Any:
    node: Any = doc
    for part in [p for p in path.split("/") if p]:
        node = node.get(part) if isinstance(node, dict) else None
    return node
