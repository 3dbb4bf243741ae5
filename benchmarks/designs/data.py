"""Which cards each design draws, what is printed on them, and their truth, read straight
from the YAML in cards/marvel-united/ (never from OCR, never through cardkit's loaders)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# the card YAML read and stripped to what is printed, as the existing samples do it
from make_samples import confirmed as printed
from make_samples import load

ROOT = Path(__file__).resolve().parents[2]
BOX = "cards/marvel-united"

# The headings a Dashboard prints, by data key (the printed card's own words).
HEADINGS = {
    "special_rules": "Special Rules",
    "bam": "BAM!",
    "overflow": "Overflow",
    "heroic_goal": "Heroic Goal",
    "commander_solo_mode": "Commander Solo Mode",
}
SLOTS = ("left", "villain", "right")


@dataclass
class Card:
    """One card to paint: what it prints (from the data) and its truth."""

    stem: str
    source: str  # the YAML file, relative to the repository
    kind: str  # masterplan, threat, dashboard
    data: dict[str, Any]  # the printed card: the data without unconfirmed marks
    villain: str
    columns: int = 1
    sections: list[dict[str, str]] = field(default_factory=list)
    player_count: dict[int, Any] = field(default_factory=dict)


def _slug(text: str) -> str:
    slug = "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")
    while "--" in slug:
        slug = slug.replace("--", "-")
    return slug


def _flat(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return " ".join(_flat(v) for v in value)
    if isinstance(value, dict):
        return _flat(value.get("text", ""))
    return ""


def masterplan(design: str, villain: str, number: int) -> Card:
    path = f"{BOX}/{villain}.yaml"
    data = load(path)
    card = printed(next(c for c in data["masterplan"]["cards"] if c["n"] == number))
    stem = f"{design}-{data['id']}-mp{number:02d}"
    return Card(stem, path, "masterplan", card, str(data["name"]))


def threat(design: str, villain: str, name: str) -> Card:
    path = f"{BOX}/{villain}.yaml"
    data = load(path)
    card = printed(next(c for c in data["threats"]["cards"] if c["name"] == name))
    stem = f"{design}-{data['id']}-threat-{_slug(name)}"
    return Card(stem, path, "threat", card, str(data["name"]))


def dashboard(design: str, villain: str, columns: int, order: tuple[str, ...] = ()) -> Card:
    """A Dashboard's headed sections, in the data's order or the design's `order` (data
    keys; sections not named keep the data's order after them)."""
    path = f"{BOX}/{villain}.yaml"
    data = load(path)
    board = data["dashboard"]
    keys = [k for k in board if k in HEADINGS or k == "villainous_plot"]
    keys = [k for k in order if k in keys] + [k for k in keys if k not in order]
    sections = []
    for key in keys:
        value = board[key]
        if key == "villainous_plot":
            heading = value.get("label") or "Villainous Plot"
            if value.get("name"):
                heading = f"Villainous Plot - {value['name']}"
            sections.append({"heading": heading, "text": _flat(value)})
        else:
            sections.append({"heading": HEADINGS[key], "text": _flat(value)})
    heroes = (board.get("player_count") or {}).get("heroes", {})
    return Card(
        f"{design}-{data['id']}-dashboard",
        path,
        "dashboard",
        {},
        str(data["name"]),
        columns=columns,
        sections=sections,
        player_count={int(k): v for k, v in heroes.items()},
    )


def move_of(card: dict[str, Any]) -> int | str:
    """The printed Move value: `*` when the card moves by its sentence instead."""
    move = card.get("move")
    return "*" if move is None else move


def movement_of(card: dict[str, Any]) -> str:
    return str(card.get("movement") or card.get("move_text") or "")


def slots_of(place: Any) -> dict[str, dict[str, int]] | str | None:
    if place == "none":
        return "none"
    if not isinstance(place, dict):
        return None
    return {s: dict(place.get(s) or {}) for s in SLOTS}


def truth(card: Card, design: str, joiner: str, diagram: list[str] | None) -> dict[str, Any]:
    """The truth file's content (without how the image was degraded), in the form of
    scans/samples/marvel-united/*.truth.yaml, plus `design` and the drawn `diagram`.
    `joiner` is what the design prints between an effect's name and its text."""
    head: dict[str, Any] = {"game": "marvel-united", "design": design}
    if card.kind == "masterplan":
        data = card.data
        effects = [{"name": e.get("name"), "text": e["text"]} for e in data.get("effects", [])]
        movement = movement_of(data)
        said = " ".join((f"{e['name']}{joiner}" if e["name"] else "") + e["text"] for e in effects)
        text = " ".join(t for t in (movement, said, data.get("text", "")) if t)
        place = data.get("place")
        out = {
            **head,
            "card": "masterplan",
            "title": f"{card.villain} {data['n']}",
            "name": card.villain,
            "n": data["n"],
            "move": move_of(data),
            "bam": bool(data.get("bam")),
            "movement": movement or None,
            "effects": effects,
            "text": text,
            "place": slots_of(place),
        }
        if isinstance(place, dict) and place.get("anchor"):
            out["anchor"] = place["anchor"]
        out["diagram"] = diagram
        return out
    if card.kind == "threat":
        return {
            **head,
            "card": "threat",
            "title": card.data["name"],
            "villain": card.villain,
            "name": card.data["name"],
            "text": card.data["text"],
            "health": card.data.get("health"),
            "copies": 1,
        }
    return {
        **head,
        "card": "dashboard",
        "title": card.villain,
        "name": card.villain,
        "columns": card.columns,
        "sections": card.sections,
        "text": " ".join(f"{s['heading']} {s['text']}" for s in card.sections),
        "player_count": card.player_count,
    }
