"""A Marvel United rulebook transcription <-> the documents of one box.

`parse` turns the text into documents; `render` prints them back as the text.
The box document keeps the book's title, table of contents and the order of its
top-level sections; each section either holds generic text or names the documents
that hold its content.
"""

from __future__ import annotations

import re
from typing import Any

from cardkit.games.marvel_united import NAME, TITLE, sheets, slips, villain
from cardkit.rulebook import generic, headings
from cardkit.rulebook.generic import Groups
from cardkit.rulebook.outline import Outline, Section, parse_outline
from cardkit.rulebook.words import slugify

SYSTEM = NAME


def detects(text: str) -> bool:
    """A Marvel United rulebook's first line starts with the game's title."""
    return generic.first_line(text).startswith(TITLE)


unrepresented = None  # lines no document holds: the export diff says
_COMPONENT = re.compile(
    r"^(?P<count>\d+) (?P<name>.+?)(?: \((?P<each>\d+) for each (?P<per>[^)]+)\))?$"
)


def _component(item: str) -> dict[str, Any]:
    match = _COMPONENT.match(item)
    if match:
        component: dict[str, Any] = {"count": int(match["count"]), "name": match["name"]}
        if match["each"]:
            component.update(each=int(match["each"]), per=match["per"])
        return component
    name, sep, detail = item.partition(": ")
    return {"count": None, "name": name, "detail": detail} if sep else {"count": None, "name": item}


def render_component(component: dict[str, Any]) -> str:
    if component.get("count") is None:
        return (
            f"{component['name']}: {component['detail']}"
            if component.get("detail")
            else str(component["name"])
        )
    text = f"{component['count']} {component['name']}"
    if "each" in component:
        text += f" ({component['each']} for each {component['per']})"
    return text


class _Book:
    def __init__(self, outline: Outline, box: str, source: str) -> None:
        self.box = box
        self.source = source
        self.documents: dict[str, dict[str, Any]] = {}
        self.outline = outline

    def slug(self, title: str) -> str:
        base = slugify(title)
        return base if base not in self.documents and base != self.box else f"{self.box}-{base}"

    def base(self, kind: str, title: str, section: Section) -> dict[str, Any]:
        return {
            "kind": f"{SYSTEM}/{kind}",
            "id": self.slug(title),
            "name": title,
            "box": self.box,
            "source": {"file": self.source, "lines": f"{section.line}-{_last_line(section)}"},
        }

    def add(self, doc: dict[str, Any]) -> str:
        self.documents[doc["id"]] = doc
        return str(doc["id"])

    def entry(self, section: Section, box_doc: dict[str, Any]) -> dict[str, Any]:
        title = section.title
        gap = villain.gap_parser(None)
        if villain.is_villain(section):
            doc, extra = villain.build(section, self.base("villain", title, section), self.slug)
            ids = [self.add(doc)] + [self.add(e) for e in extra]
            return {"title": title, "documents": ids[:1]}
        if (
            heading(title, "components")
            and all(b.kind == "bullets" for b in section.blocks)
            and not section.children
        ):
            items = [line.text.removeprefix("• ") for b in section.blocks for line in b.lines]
            box_doc["components"] = [_component(i) for i in items]
            return {"title": title, "include": "components"}
        if heading(title, "scope_notes") and all(b.kind == "para" for b in section.blocks):
            box_doc["scope_notes"] = [line.text for b in section.blocks for line in b.lines]
            return {"title": title, "include": "scope_notes"}
        card_kind = headings.role_of(__package__, title, ("hero", "equipment"))
        if card_kind is not None:
            kind = card_kind
            ids = [self.add(self._card_doc(kind, child)) for child in section.children]
            entry: dict[str, Any] = {"title": title}
            if section.blocks:
                entry["body"] = generic.body_items(section.blocks, gap)
            return {**entry, "documents": ids}
        for kind in ("henchmen", "weak-spot"):
            if heading(title, kind):
                doc = self.base(kind, title, section)
                doc.update(
                    sheets.parse_sheet(section.blocks, villain.gap_parser("threats", sheet=True))
                )
                villain.mark_unconfirmed(doc)
                if section.children:
                    doc["sections"] = [generic.section_data(c, gap) for c in section.children]
                return {"title": title, "documents": [self.add(doc)]}
        place_kind = headings.role_of(__package__, title, ("location", "mode"))
        if place_kind is not None:
            kind = place_kind
            doc = self.base(kind, title, section)
            if section.blocks:
                doc["intro"] = generic.body_items(section.blocks, gap)
            if section.children:
                doc["sections"] = [generic.section_data(c, gap) for c in section.children]
            return {"title": title, "documents": [self.add(doc)]}
        return generic.section_data(section, gap)

    def _card_doc(self, kind: str, section: Section) -> dict[str, Any]:
        doc = self.base(kind, section.title, section)
        if kind == "hero":
            doc.update(
                sheets.parse_sheet(section.blocks, villain.gap_parser("threats", sheet=True))
            )
            villain.mark_unconfirmed(doc)
            for card in doc.get("cards", []):
                if str(card.get("text", "")).endswith("(icons only, as printed)."):
                    card["icon_only"] = True
        elif all(b.kind == "para" for b in section.blocks):
            doc["intro"] = generic.body_items(section.blocks, villain.gap_parser(None))
        else:
            doc["body"] = generic.body_items(section.blocks, villain.gap_parser(None))
        if section.children:
            doc["sections"] = [generic.section_data(c) for c in section.children]
        return doc


def _last_line(section: Section) -> int:
    last = section.line
    for block in section.blocks:
        last = max(last, block.lines[-1].no)
    for child in section.children:
        last = max(last, _last_line(child))
    return last


def parse(text: str, box: str, source: str) -> list[dict[str, Any]]:
    """The documents of one box: the box manifest first, then the rest in book order."""
    outline = parse_outline(text)
    book = _Book(outline, box, source)
    box_doc: dict[str, Any] = {
        "kind": f"{SYSTEM}/box",
        "id": box,
        "name": _box_name(outline.title.text),
        "source": {"file": source},
        **generic.book_head(outline),
    }
    box_doc["sections"] = [book.entry(section, box_doc) for section in outline.sections]
    return [box_doc, *book.documents.values()]


def heading(title: str, role: str) -> bool:
    return headings.matches(__package__, role, title)


def _box_name(title: str) -> str:
    return title.removesuffix(" Rulebook").removeprefix(f"{TITLE}: ")


def render(documents: list[dict[str, Any]]) -> str:
    """Print a box's documents back as the rulebook text."""
    by_id = {doc["id"]: doc for doc in documents}
    boxes = [doc for doc in documents if doc["kind"] == f"{SYSTEM}/box"]
    if len(boxes) != 1:
        raise ValueError(f"expected one box manifest among the documents, found {len(boxes)}")
    box = boxes[0]
    groups = generic.render_head(box)

    def lookup(ref: str) -> dict[str, Any]:
        if ref not in by_id:
            raise ValueError(f"the box refers to '{ref}', which is not among the documents")
        return by_id[ref]

    def include(section: dict[str, Any]) -> Groups:
        what = section.get("include")
        if what == "components":
            return [["• " + render_component(c) for c in box.get("components", [])]]
        if what == "scope_notes":
            return [[note] for note in box.get("scope_notes", [])]
        return []

    def document(ref: str) -> Groups:
        return render_document(lookup(ref), lookup)

    for section in box["sections"]:
        groups.extend(generic.render_section(section, document, include))
    return generic.join(groups)


def render_document(doc: dict[str, Any], lookup: villain.Lookup) -> Groups:
    kind = doc["kind"].split("/", 1)[1]
    if kind == "villain":
        return villain.render(doc, lookup)
    groups: Groups = []
    if kind in ("hero", "equipment"):
        groups.append([str(doc["name"])])
    if kind in ("henchmen", "weak-spot", "hero"):
        groups.extend(
            sheets.render_sheet(
                {
                    k: v
                    for k, v in doc.items()
                    if k in ("intro", "declared", "cards", "after", "gaps", "body")
                }
            )
        )
    else:
        groups.extend(generic.render_items(doc.get("intro", [])))
        groups.extend(generic.render_items(doc.get("body", [])))
    for section in doc.get("sections", []):
        groups.extend(generic.render_section(section))
    return groups


NEEDS_CONTENTS = True  # sections are found through the book's table of contents


def warnings(documents: list[dict[str, Any]]) -> list[str]:
    """Lines kept verbatim where the parser could not read them, or in the wrong field:
    the checks `validate` runs on the written files too (slips.py, rule MU131)."""
    found = []
    for doc in documents:
        cards = doc.get("masterplan", {}).get("cards", [])
        for slip in slips.slips(doc):
            card = cards[slip.pointer[2]] if slip.card else None
            found.append(f"{doc['id']}{' ' if slip.card else ': '}{slips.message(slip, card)}")
    return found
