"""The Villain Dashboard: labelled paragraphs <-> fields, in the order the source gives them."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from cardkit.rulebook import words
from cardkit.rulebook.blocks import body_or_kept
from cardkit.rulebook.generic import GAP_PREFIX, Groups, render_items
from cardkit.rulebook.outline import Block

PLAYER_COUNT_LABEL = (
    "Player-count table (printed in the lower left of the Dashboard; "
    "the card gives no label for it)"
)
STARTING_TOKENS = "Heroes' starting tokens: "
SPECIAL_SETUP = "Special Setup: "
_SIMPLE = {
    "Special Rules": "special_rules",
    "BAM!": "bam",
    "Overflow": "overflow",
    "Heroic Goal": "heroic_goal",
    "Commander Solo Mode": "commander_solo_mode",
}
_LABELS = {v: k for k, v in _SIMPLE.items()}
_PLOT = re.compile(r"^(?P<label>Villainous Plot(?: - (?P<name>[^:]+)| / [^:]+)?): (?P<text>.*)$")
_BACK = re.compile(r"^Back of the Dashboard \((?P<side>[^)]+)\): (?P<rest>.*)$")
_HEROES = re.compile(r"(\d) Heroes: (\d+)")
_TRACK = re.compile(r"runs from (\d+) to (\d+)")
_ICON = re.compile(r"\b(one|two|three|four|\d) ([A-Za-z][A-Za-z -]{0,60}?) (?:tokens?|icons?)\b")


def _icons(text: str) -> list[str]:
    icons: list[str] = []
    for count, name in _ICON.findall(text):
        icons.extend([name.lower().replace(" ", "-")] * (words.number(count) or 0))
    return icons


def starting_tokens(text: str, own_paragraph: bool = False) -> dict[str, Any]:
    tokens: dict[str, Any] = {"text": text, "icons": _icons(text)}
    if own_paragraph:
        tokens["own_paragraph"] = True
    if "not identified" in text:
        tokens["unconfirmed"] = ["icons"]
    return tokens


def player_count(text: str) -> dict[str, Any]:
    table: dict[str, Any] = {"heroes": player_count_values(text)}
    if render_player_count(table) != text:
        table["text"] = text
    return table


def render_player_count(table: dict[str, Any]) -> str:
    text = table.get("text")
    if isinstance(text, str) and player_count_values(text) == table["heroes"]:
        return text
    return "; ".join(f"{n} Heroes: {v}" for n, v in table["heroes"].items()) + "."


def player_count_values(text: str) -> dict[str, int | None]:
    heroes: dict[str, int | None] = {n: int(v) for n, v in _HEROES.findall(text)}
    nulls = re.search(r"the ([\d, and]+) Heroes entries are printed with no number", text)
    for n in re.findall(r"\d", nulls[1]) if nulls else []:
        heroes[n] = None
    return dict(sorted(heroes.items()))


def _back(side: str, rest: str) -> dict[str, Any]:
    back: dict[str, Any] = {"side": side}
    setup, marker, tokens = rest.partition(STARTING_TOKENS)
    if setup.startswith(SPECIAL_SETUP):
        back["special_setup"] = setup[len(SPECIAL_SETUP) :].rstrip()
    elif setup.strip():
        back["text"] = rest
        return back
    if marker:
        back["starting_tokens"] = starting_tokens(tokens)
    return back


def _render_back(back: dict[str, Any]) -> Groups:
    if "text" in back:
        first = back["text"]
    else:
        parts = []
        if "special_setup" in back:
            parts.append(SPECIAL_SETUP + back["special_setup"])
        tokens = back.get("starting_tokens")
        if tokens and not tokens.get("own_paragraph"):
            parts.append(STARTING_TOKENS + tokens["text"])
        first = " ".join(parts)
    groups = [[f"Back of the Dashboard ({back['side']}): {first}"]]
    tokens = back.get("starting_tokens")
    if tokens and tokens.get("own_paragraph"):
        groups.append([STARTING_TOKENS + tokens["text"]])
    groups.extend(render_items(back.get("more", [])))
    return groups


def _append(value: Any, item: Any) -> Any:
    return [*value, item] if isinstance(value, list) else [value, item]


def parse(blocks: list[Block], gap: Callable[[str], dict[str, Any]]) -> dict[str, Any] | None:
    """Dashboard fields from its blocks, or None when a block does not fit."""
    data: dict[str, Any] = {}
    current: str | None = None
    for block in blocks:
        text = block.lines[0].text if block.kind == "para" and len(block.lines) == 1 else None
        plot = _PLOT.match(text) if text else None
        back = _BACK.match(text) if text else None
        label, _, rest = (text or "").partition(": ")
        if text is not None and label in _SIMPLE and _SIMPLE[label] not in data:
            current = _SIMPLE[label]
            data[current] = rest
        elif plot and "villainous_plot" not in data:
            current = "villainous_plot"
            entry: dict[str, Any] = {}
            if plot["name"]:
                entry["name"] = plot["name"]
            elif plot["label"] != "Villainous Plot":
                entry["label"] = plot["label"]
            entry["text"] = plot["text"]
            track = _TRACK.search(plot["text"])
            if track:
                entry["track"] = {"min": int(track[1]), "max": int(track[2])}
            data[current] = entry
        elif (
            text is not None
            and text.startswith(PLAYER_COUNT_LABEL + ": ")
            and "player_count" not in data
        ):
            current = "player_count"
            data[current] = player_count(text[len(PLAYER_COUNT_LABEL) + 2 :])
        elif back and "back" not in data:
            current = "back"
            data[current] = _back(back["side"], back["rest"])
        elif text is not None and text.startswith(STARTING_TOKENS) and current == "back":
            if "starting_tokens" in data["back"] or "more" in data["back"]:
                return None
            data["back"]["starting_tokens"] = starting_tokens(text[len(STARTING_TOKENS) :], True)
        elif text is not None and text.startswith(GAP_PREFIX):
            if "gaps" in data and current != "gaps":
                return None
            data.setdefault("gaps", []).append(gap(text[len(GAP_PREFIX) :]))
            current = "gaps"
        elif current is None:
            data.setdefault("intro", []).append(body_or_kept(block))
        elif current in _LABELS:
            data[current] = _append(data[current], body_or_kept(block))
        elif current == "villainous_plot":
            data[current]["text"] = _append(data[current]["text"], body_or_kept(block))
        elif current in ("player_count", "back"):
            data[current].setdefault("more", []).append(body_or_kept(block))
        else:
            return None
    return data


def _labelled(label: str, value: Any) -> Groups:
    items = value if isinstance(value, list) else [value]
    groups = [[f"{label}: {items[0]}"]]
    groups.extend(render_items(items[1:]))
    return groups


def render(data: dict[str, Any]) -> Groups:
    groups: Groups = render_items(data.get("intro", []))
    for key, value in data.items():
        if key in _LABELS:
            groups.extend(_labelled(_LABELS[key], value))
        elif key == "villainous_plot":
            label = value.get("label") or (
                f"Villainous Plot - {value['name']}" if value.get("name") else "Villainous Plot"
            )
            groups.extend(_labelled(label, value["text"]))
        elif key == "player_count":
            groups.append([f"{PLAYER_COUNT_LABEL}: {render_player_count(value)}"])
            groups.extend(render_items(value.get("more", [])))
        elif key == "back":
            groups.extend(_render_back(value))
        elif key == "gaps":
            groups.extend([GAP_PREFIX + str(g["note"])] for g in value)
    return groups
