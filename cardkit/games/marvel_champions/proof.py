"""Marvel Champions documents as proxy cards: single cards (marvelsdb field names) and
decklists, one proxy per copy. The campaign log is a fillable form (render/forms.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from cardkit.model import Document
from cardkit.render.content import ProofCard, Warn, copies_of, marks, text_of
from cardkit.render.forms import FormField, FormSpec
from cardkit.render.text_fit import styled

NAME = "marvel-champions"
_MARKUP = re.compile(r"\[([a-z_]+)\]")
_TRAIT = re.compile(r"\[\[([^\[\]]+)\]\]")
SCHEME_ICONS = ("acceleration", "crisis", "hazard", "amplify")
STATS = (
    ("cost", "Cost"),
    ("thwart", "THW"),
    ("attack", "ATK"),
    ("defense", "DEF"),
    ("recover", "REC"),
    ("scheme", "SCH"),
    ("health", "HP"),
    ("hand_size", "Hand"),
    ("base_threat", "Starting threat"),
    ("escalation_threat", "Escalation"),
    ("threat", "Target threat"),
)
# The data's per-hero marks: `<stat>_fixed: false` (marvelsdb) or `<stat>_per_hero: true`.
PER_HERO = {
    "base_threat": ("base_threat_fixed", False),
    "escalation_threat": ("escalation_threat_fixed", False),
    "threat": ("threat_fixed", False),
    "health": ("health_per_hero", True),
    "cost": ("cost_per_hero", True),
}


RESOURCES = ("physical", "mental", "energy", "wild")


def card_text(value: Any) -> str:
    """marvelsdb text as printed: `[per_hero]` the inline icon, `<b>`/`<i>` bold and
    italic, `[[Trait]]` bold italic; other tags go."""
    text = _TRAIT.sub(r"<b><i>\1</i></b>", text_of(value)).replace("→", "->")  # Vera has no →
    return styled(_MARKUP.sub(lambda m: "{" + m[1] + "}", text))


def single(doc: Document, warn: Warn) -> list[ProofCard]:
    data = doc.data
    stats: list[tuple[str, str]] = []
    for key, label in STATS:
        if data.get(key) is not None:
            value = str(data[key])
            if data.get(f"{key}_star"):
                value += "★"
            mark = PER_HERO.get(key)
            if mark is not None and data.get(mark[0]) is mark[1]:
                value += "{per_hero}"  # the printed per-hero icon, named in the legend
            stats.append((label, value))
    icons = tuple(key for key in SCHEME_ICONS if data.get(f"scheme_{key}"))
    boost = ("boost",) * int(data.get("boost") or 0) + (("star",) if data.get("boost_star") else ())
    resources = tuple(r for r in RESOURCES for _ in range(int(data.get(f"resource_{r}") or 0)))
    rows = tuple(row for row in (resources, icons, boost) if row)
    traits = text_of(data.get("traits", ""))
    name = str(data.get("name", doc.id)) + (f" · {data['subname']}" if data.get("subname") else "")
    source = doc.display_path
    copies = copies_of(data.get("quantity", 1), source, warn)
    return [
        ProofCard(
            system=NAME,
            kind=str(data.get("type_code", "card")).replace("_", "-"),
            doc_id=doc.id or "",
            box=str(data.get("pack_code", "")),
            deck=f"{data.get('set_code') or data.get('faction_code') or 'Marvel Champions'}",
            title=name,
            corner=f"{copy}/{copies}" if copies > 1 else "",
            tags=tuple(
                t for t in (str(data.get("type_code", "")).replace("_", " ").title(), traits) if t
            ),
            stats=tuple(stats),
            icon_rows=rows,
            text=card_text(data.get("text", "")),
            unconfirmed=marks(data),
            source=source,
        )
        for copy in range(1, copies + 1)
    ]


@dataclass(frozen=True)
class CardIndex:
    """The tree's marvelsdb card files, by code and by printed name."""

    by_code: dict[str, Document]
    by_name: dict[str, list[Document]]


def _name_key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", name.casefold().replace("’", "'").replace("'", "")).strip()


def prepare(documents: list[Document]) -> CardIndex:
    """Index every `marvel-champions/card` in the tree, for the decklists to join."""
    by_code: dict[str, Document] = {}
    by_name: dict[str, list[Document]] = {}
    for doc in documents:
        if doc.kind != f"{NAME}/card":
            continue
        code = doc.data.get("code")
        if code:
            by_code[str(code)] = doc
        by_name.setdefault(_name_key(str(doc.data.get("name", ""))), []).append(doc)
    return CardIndex(by_code, by_name)


def _set_of(group: dict[str, Any], data: dict[str, Any]) -> tuple[str, str]:
    """What a decklist group's cards come from: (field, value) of marvelsdb card data."""
    role = str(group.get("role", ""))
    if role in ("hero", "nemesis", "obligation", "sense"):
        return "set_code", re.sub(r"[^a-z0-9]+", "_", str(data.get("hero", "")).lower()).strip("_")
    if role == "aspect":
        return "faction_code", str(data.get("aspect", "")).lower()
    if role == "basic":
        return "faction_code", "basic"
    return "", ""


def find(
    entry: dict[str, Any], group: dict[str, Any], data: dict[str, Any], index: CardIndex | None
) -> Document | None:
    """The card file a decklist line names: by `code`, else by name and set."""
    if index is None:
        return None
    if entry.get("code") and str(entry["code"]) in index.by_code:
        return index.by_code[str(entry["code"])]
    named = index.by_name.get(_name_key(str(entry.get("name", ""))), [])
    if len(named) <= 1:
        return named[0] if named else None
    field, value = _set_of(group, data)
    same_set = [doc for doc in named if field and str(doc.data.get(field, "")).startswith(value)]
    return (same_set or named)[0]


def decklist(doc: Document, warn: Warn, index: CardIndex | None = None) -> list[ProofCard]:
    """One proxy per copy of each line: the card's own face where the tree holds its card
    file (joined by code, else name and set), else its name, group and aspect and one
    warning for the line."""
    data = doc.data
    name = str(data.get("name", doc.id))
    found = []
    for g, group in enumerate(data.get("groups", [])):
        for e, entry in enumerate(group.get("cards", [])):
            source = f"{doc.display_path} {entry.get('name', '')}"
            copies = copies_of(entry.get("count", 1), source, warn)
            card_doc = find(entry, group, data, index)
            if card_doc is None:
                warn(
                    f"{source}: no card file in this tree for '{entry.get('name', '')}' "
                    "(cardkit import marvelsdb puts them there); its proxy shows the name only"
                )
            own = single(card_doc, warn)[0] if card_doc is not None else None
            for copy in range(1, copies + 1):
                base = ProofCard(
                    system=NAME,
                    kind="decklist",
                    doc_id=doc.id or "",
                    box=str(data.get("box", "")),
                    deck=name,
                    title=str(entry.get("name", "")),
                    corner=f"{copy}/{copies}" if copies > 1 else "",
                    tags=tuple(str(t) for t in (group.get("name"), data.get("aspect")) if t),
                    unconfirmed=marks(entry),
                    source=source,
                    pointer=("groups", g, "cards", e),
                )
                if own is not None:  # the card's face, in this deck, counted as the deck counts
                    base = replace(
                        own,
                        doc_id=base.doc_id,
                        box=base.box,
                        deck=name,
                        corner=base.corner,
                        unconfirmed=own.unconfirmed | base.unconfirmed,
                        source=source,
                        pointer=base.pointer,
                    )
                found.append(base)
    return found


def collect(doc: Document, warn: Warn, index: CardIndex | None = None) -> list[ProofCard]:
    kind = doc.kind.split("/", 1)[-1]
    if kind == "card":
        return single(doc, warn)
    if kind == "decklist":
        return decklist(doc, warn, index)
    return []


def form(doc: Document) -> FormSpec | None:
    """The campaign log as a fillable form: one field per log field.

    A label that asks questions ("Trust Established? and Mary Defeated?") gets a
    checkbox per question; any other field is a text box, taller the more items its
    description lists (a comma-separated list), between 3 and 8 lines.
    """
    if doc.kind.split("/", 1)[-1] != "campaign-log":
        return None
    fields: list[FormField] = []
    for entry in doc.data.get("fields", []):
        label = str(entry.get("label", "")).strip()
        help_text = text_of(entry.get("text", ""))
        questions = [q.strip(" .,") for q in re.findall(r"[^?]+\?", label)]
        if questions:
            for question in questions:
                question = re.sub(r"^(and|or)\s+", "", question.strip())
                fields.append(FormField(question, lines=0))
            continue
        fields.append(FormField(label, help_text, min(8, max(3, help_text.count(",") + 2))))
    fields.append(FormField("Notes", lines=6))
    box = str(doc.data.get("box", ""))
    return FormSpec(str(doc.data.get("name", "Campaign Log")), tuple(fields), subtitle=box)
