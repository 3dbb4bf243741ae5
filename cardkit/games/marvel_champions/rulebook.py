"""A Marvel Champions expansion rulebook <-> its documents.

The expansion document keeps the book's title, contents and section order; keywords,
terms, underling setups, scenarios, starter decklists, the sense deck, the FAQ and
the campaign log become documents of their own kinds.
"""

from __future__ import annotations

import re
from typing import Any

from cardkit.games.marvel_champions import NAME, TITLE
from cardkit.rulebook import generic, headings
from cardkit.rulebook.generic import Groups
from cardkit.rulebook.outline import Section, parse_outline
from cardkit.rulebook.words import slugify

SYSTEM = NAME


def detects(text: str) -> bool:
    """A Marvel Champions rulebook's first line starts with the game's title."""
    return generic.first_line(text).startswith(TITLE)


def warnings(documents: list[dict[str, Any]]) -> list[str]:
    return []


unrepresented = None  # lines no document holds: the export diff says
_MARK = re.compile(r"^(?P<name>.+?)(?: (?P<mark>\*\*?))?$")
_STATUS = {"*": "new", "**": "updated"}
_MARKS = {v: k for k, v in _STATUS.items()}
_DECK_CARD = re.compile(r"^(?P<name>.+?)(?: \(x(?P<count>\d+)\))?$")
_ROLES = {"basic": "basic", "nemesis": "nemesis", "obligation": "obligation", "sense": "sense"}
_SETS = re.compile(r"^Encounter Deck: (?P<sets>.+?)(?: encounter sets)?\.(?: \(.*\))?$")
_REMOVABLE = re.compile(r"^The (?P<sets>.+?) sets? can be removed")
_LIST_LABELS = ("Main Scheme Deck: ", "Villain Deck: ")


def heading(title: str, role: str) -> bool:
    return headings.matches(__package__, role, title)


def level_hint(title: str, following: str, open_titles: list[str]) -> int | None:
    """Scenario headings missing from the contents sit under Scenarios; their parts under them."""
    if following.startswith(_LIST_LABELS):
        return 2
    if open_titles and heading(open_titles[0], "scenarios") and len(open_titles) >= 2:
        return 3
    return None


_CHOSEN = re.compile(r"\bvillain's$")


def _names(text: str) -> list[str]:
    return [n.strip() for n in re.split(r", and |, | and ", text) if n.strip()]


def _entries(section: Section) -> list[dict[str, Any]]:
    """Keywords or terms: one child section each, marked * new or ** updated."""
    found = []
    for child in section.children:
        match = _MARK.match(child.title)
        assert match is not None
        entry: dict[str, Any] = {"name": match["name"]}
        if match["mark"]:
            entry["status"] = _STATUS[match["mark"]]
        entry["body"] = generic.body_items(child.blocks)
        if child.children:
            return []
        found.append(entry)
    return found


def _render_entries(entries: list[dict[str, Any]]) -> Groups:
    groups: Groups = []
    for entry in entries:
        mark = _MARKS.get(entry.get("status", ""), "")
        groups.append([f"{entry['name']} {mark}".rstrip()])
        groups.extend(generic.render_items(entry["body"]))
    return groups


def _deck_group(item: str) -> dict[str, Any] | None:
    name, sep, listed = item.partition(": ")
    if not sep:
        return None
    separator = "; " if "; " in listed else ", "
    cards = []
    for part in listed.split(separator):
        match = _DECK_CARD.match(part)
        assert match is not None
        cards.append({"name": match["name"], "count": int(match["count"] or 1)})
    role = next((r for key, r in _ROLES.items() if name.lower().startswith(key)), None)
    group: dict[str, Any] = {"name": name, "role": role or "other", "cards": cards}
    if separator != ", ":
        group["separator"] = separator
    return group


def render_deck_group(group: dict[str, Any]) -> str:
    parts = [c["name"] + (f" (x{c['count']})" if c["count"] != 1 else "") for c in group["cards"]]
    separator = str(group.get("separator", ", "))
    return f"{group['name']}: " + separator.join(parts)


class _Book:
    def __init__(self, box: str, source: str) -> None:
        self.box, self.source = box, source
        self.documents: dict[str, dict[str, Any]] = {}

    def doc(self, kind: str, title: str, section: Section, **fields: Any) -> str:
        slug = slugify(title)
        if slug in self.documents or slug == self.box:
            slug = f"{slugify(kind)}-{slug}"
        document = {
            "kind": f"{SYSTEM}/{kind}",
            "id": slug,
            "name": title,
            "box": self.box,
            "source": {"file": self.source, "lines": str(section.line)},
            **fields,
        }
        self.documents[slug] = document
        return slug

    def entry(
        self, section: Section, expansion: dict[str, Any], parents: list[str]
    ) -> dict[str, Any]:
        title = section.title
        if heading(title, "components") and not section.children:
            items = [line.text.removeprefix("• ") for b in section.blocks for line in b.lines]
            expansion["components"] = [_component(i) for i in items]
            return {"title": title, "include": "components"}
        key = headings.role_of(__package__, title, ("keywords", "terms"))
        if key is not None:
            entries = _entries(section)
            if entries:
                expansion[key] = entries
                return {"title": title, "body": generic.body_items(section.blocks), "include": key}
        parent = parents[-1] if parents else ""
        if heading(parent, "villain_setups") and not section.children:
            body = generic.body_items(section.blocks)
            return {
                "title": title,
                "documents": [
                    self.doc(
                        "villain-setup",
                        title,
                        section,
                        villain=title,
                        setup=body[:1],
                        tips=body[1:],
                    )
                ],
            }
        if heading(parent, "scenarios"):
            return {"title": title, "documents": [self.scenario(section)]}
        if heading(parent, "starter_decks") and " / " in title:
            deck = self.decklist(section)
            if deck:
                return {"title": title, "documents": [deck]}
        if heading(title, "sense_deck") and not section.children:
            return {
                "title": title,
                "documents": [
                    self.doc("sense-deck", title, section, text=generic.body_items(section.blocks))
                ],
            }
        if heading(title, "faq"):
            faq = self.faq(section)
            if faq:
                return {"title": title, "documents": [faq]}
        if heading(title, "campaign_log") and not parents:
            log = self.campaign_log(section)
            if log:
                return {"title": title, "documents": [log]}
        data: dict[str, Any] = {"title": title}
        if section.blocks:
            data["body"] = generic.body_items(section.blocks)
        if section.children:
            data["sections"] = [
                self.entry(c, expansion, [*parents, title]) for c in section.children
            ]
        return data

    def scenario(self, section: Section) -> str:
        fields: dict[str, Any] = {"intro": generic.body_items(section.blocks)}
        for item in fields["intro"]:
            if not isinstance(item, str):
                continue
            for label in _LIST_LABELS:
                if item.startswith(label):
                    key = "main_scheme" if label.startswith("Main") else "villains"
                    fields.setdefault(key, []).extend(_names(item[len(label) :]))
            sets = _SETS.match(item)
            if sets:
                names = _names(sets["sets"])
                # "(the) chosen villain's": the villain's own sets, chosen at setup, not a name
                chosen = [n for n in names if _CHOSEN.search(n)]
                fields["encounter_sets"] = [n for n in names if n not in chosen]
                if chosen:
                    fields["villain_sets"] = True
            removable = _REMOVABLE.match(item)
            if removable:
                fields["removable_sets"] = _names(removable["sets"])
        known = set(fields.get("encounter_sets", []))
        if "removable_sets" in fields:  # "The Owl and Tombstone sets": the set is "The Owl"
            fields["removable_sets"] = [
                f"The {n}" if f"The {n}" in known and n not in known else n
                for n in fields["removable_sets"]
            ]
        children = list(section.children)
        campaign = _campaign(children[-1]) if children else None
        if campaign is not None:
            children.pop()
        if children:
            fields["sections"] = [generic.section_data(c) for c in children]
        if campaign is not None:
            fields["campaign"] = campaign
        return self.doc("scenario", section.title, section, **fields)

    def decklist(self, section: Section) -> str | None:
        hero, _, aspect = section.title.partition(" / ")
        intro: list[Any] = []
        groups: list[dict[str, Any]] = []
        for block in section.blocks:
            if block.kind == "bullets" and not groups:
                parsed = [_deck_group(line.text.removeprefix("• ")) for line in block.lines]
                if any(g is None for g in parsed):
                    return None
                groups = [g for g in parsed if g is not None]
                for group in groups:
                    if group["role"] == "other" and group["name"].startswith(hero):
                        group["role"] = "hero"
                    elif group["role"] == "other" and group["name"].startswith(aspect):
                        group["role"] = "aspect"
            elif groups:
                return None
            else:
                intro.append(generic.body_items([block])[0])
        return self.doc(
            "decklist", section.title, section, hero=hero, aspect=aspect, intro=intro, groups=groups
        )

    def faq(self, section: Section) -> str | None:
        entries = []
        for topic in section.walk()[1:]:
            paras = [
                b.lines[0].text for b in topic.blocks if b.kind == "para" and len(b.lines) == 1
            ]
            if len(paras) != len(topic.blocks) or len(paras) % 2:
                return None
            for question, answer in zip(paras[::2], paras[1::2], strict=True):
                if not (question.startswith("Q. ") and answer.startswith("A. ")):
                    return None
                entries.append(
                    {"topic": topic.title, "question": question[3:], "answer": answer[3:]}
                )
        if section.blocks:
            return None
        return self.doc("faq", section.title, section, entries=entries)

    def campaign_log(self, section: Section) -> str | None:
        intro: list[Any] = []
        fields: list[dict[str, str]] = []
        for block in section.blocks:
            if block.kind == "bullets" and not fields:
                for line in block.lines:
                    label, sep, text = line.text.removeprefix("• ").partition(": ")
                    if line.text.startswith(" "):
                        return None
                    fields.append({"label": label, "text": text} if sep else {"label": label})
            elif fields:
                return None
            else:
                intro.append(generic.body_items([block])[0])
        return self.doc("campaign-log", section.title, section, intro=intro, fields=fields)


_STAGES = {"Setup:": "setup", "Victory:": "victory", "Defeat:": "defeat"}


def _campaign(section: Section) -> dict[str, Any] | None:
    """Campaign instructions: Setup, Victory and Defeat, each a list of steps, in book order."""
    if not heading(section.title, "campaign_instructions") or section.children:
        return None
    campaign: dict[str, Any] = {"title": section.title}
    stage = None
    for block in section.blocks:
        text = block.text
        if block.kind == "para" and text in _STAGES and _STAGES[text] not in campaign:
            stage = _STAGES[text]
            campaign[stage] = []
        elif stage is None:
            return None
        else:
            campaign[stage].extend(generic.body_items([block]))
    return campaign


def _render_campaign(campaign: dict[str, Any]) -> Groups:
    labels = {v: k for k, v in _STAGES.items()}
    groups: Groups = [[campaign["title"]]]
    for key, items in campaign.items():
        if key in labels:
            groups.append([labels[key]])
            groups.extend(generic.render_items(items))
    return groups


def _component(item: str) -> dict[str, Any]:
    match = re.match(r"^(?P<count>\d+) (?P<name>\w+), (?P<detail>.+)$", item)
    if match:
        return {"count": int(match["count"]), "name": match["name"], "detail": match["detail"]}
    return {"count": None, "name": item}


def parse(text: str, box: str, source: str) -> list[dict[str, Any]]:
    outline = parse_outline(text, level_hint)
    book = _Book(box, source)
    expansion: dict[str, Any] = {
        "kind": f"{SYSTEM}/expansion",
        "id": box,
        "name": outline.title.text.removeprefix("Marvel Champions: The Card Game – ").removesuffix(
            " Rulebook"
        ),
        "source": {"file": source},
        **generic.book_head(outline),
    }
    expansion["sections"] = [book.entry(s, expansion, []) for s in outline.sections]
    senses = [
        card["name"]
        for doc in book.documents.values()
        for group in doc.get("groups", [])
        if group.get("role") == "sense"
        for card in group["cards"]
    ]
    for doc in book.documents.values():
        if doc["kind"] == f"{SYSTEM}/sense-deck" and senses:
            doc["cards"] = senses  # the hero's Sense cards, as the decklist names them
    return [expansion, *book.documents.values()]


def render(documents: list[dict[str, Any]]) -> str:
    by_id = {d["id"]: d for d in documents}
    expansion = next(d for d in documents if d["kind"] == f"{SYSTEM}/expansion")
    groups = generic.render_head(expansion)

    def include(section: dict[str, Any]) -> Groups:
        what = section.get("include")
        if what == "components":
            return [["• " + _render_component(c) for c in expansion.get("components", [])]]
        if what in ("keywords", "terms"):
            return _render_entries(expansion.get(what, []))
        return []

    def document(ref: str) -> Groups:
        return render_document(by_id[ref])

    for section in expansion["sections"]:
        groups.extend(generic.render_section(section, document, include))
    return generic.join(groups)


def _render_component(component: dict[str, Any]) -> str:
    if component.get("count") is None:
        return str(component["name"])
    return f"{component['count']} {component['name']}, {component['detail']}"


def render_document(doc: dict[str, Any]) -> Groups:
    kind = doc["kind"].split("/", 1)[1]
    if kind == "villain-setup":
        return generic.render_items(doc["setup"] + doc["tips"])
    if kind == "sense-deck":
        return generic.render_items(doc["text"])
    if kind == "decklist":
        groups = generic.render_items(doc["intro"])
        groups.append(["• " + render_deck_group(g) for g in doc["groups"]])
        return groups
    if kind == "faq":
        groups, topic = [], None
        for entry in doc["entries"]:
            if entry["topic"] != topic:
                topic = entry["topic"]
                groups.append([topic])
            groups += [["Q. " + entry["question"]], ["A. " + entry["answer"]]]
        return groups
    if kind == "campaign-log":
        groups = generic.render_items(doc["intro"])
        groups.append(
            [
                f"• {f['label']}: {f['text']}" if "text" in f else f"• {f['label']}"
                for f in doc["fields"]
            ]
        )
        return groups
    groups = generic.render_items(doc.get("intro", []))
    for section in doc.get("sections", []):
        groups.extend(generic.render_section(section))
    if "campaign" in doc:
        groups.extend(_render_campaign(doc["campaign"]))
    return groups
