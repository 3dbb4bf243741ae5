"""Marvel Champions documents as proxy cards: single cards (marvelsdb field names) and
decklists, one proxy per copy. The campaign log is a fillable form (render/forms.py)."""

from __future__ import annotations

import re
from typing import Any

from cardkit.model import Document
from cardkit.render.content import ProofCard, Warn, copies_of, marks, text_of
from cardkit.render.forms import FormField, FormSpec

NAME = "marvel-champions"
_MARKUP = re.compile(r"\[([a-z_]+)\]")
_TAGS = re.compile(r"</?[a-z]+>")
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


def card_text(value: Any) -> str:
    """marvelsdb text: `[per_hero]` becomes the inline icon, HTML tags go."""
    text = _TAGS.sub("", text_of(value))
    return _MARKUP.sub(lambda m: "{" + m[1] + "}", text)


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
    rows = tuple(row for row in (icons, boost) if row)
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


def decklist(doc: Document, warn: Warn) -> list[ProofCard]:
    data = doc.data
    name = str(data.get("name", doc.id))
    found = []
    for g, group in enumerate(data.get("groups", [])):
        for e, entry in enumerate(group.get("cards", [])):
            source = f"{doc.display_path} {entry.get('name', '')}"
            copies = copies_of(entry.get("count", 1), source, warn)
            for copy in range(1, copies + 1):
                found.append(
                    ProofCard(
                        system=NAME,
                        kind="decklist",
                        doc_id=doc.id or "",
                        box=str(data.get("box", "")),
                        deck=name,
                        title=str(entry.get("name", "")),
                        corner=f"{copy}/{copies}" if copies > 1 else "",
                        tags=tuple(str(t) for t in (group.get("name"), data.get("aspect")) if t),
                        text=f"{data.get('hero', '')} deck: {group.get('name', '')}. The card's "
                        "own text is not transcribed in this decklist.",
                        unconfirmed=marks(entry),
                        source=source,
                        pointer=("groups", g, "cards", e),
                    )
                )
    return found


def collect(doc: Document, warn: Warn) -> list[ProofCard]:
    kind = doc.kind.split("/", 1)[-1]
    if kind == "card":
        return single(doc, warn)
    if kind == "decklist":
        return decklist(doc, warn)
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
