"""Disney Villainous documents as proxies: the board's four locations (action symbols,
lock), the objective card, and Villain-deck and Fate cards."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cardkit.model import Document
from cardkit.render.content import ProofCard, Warn, copies_of, marks, text_of
from cardkit.render.text_fit import styled

NAME = "villainous"


def _symbols(row: list[Any]) -> tuple[str, ...]:
    found = []
    for item in row:
        if isinstance(item, dict):
            value = item.get("value")
            found.append(f"{item.get('symbol', '')}" + (f":{value}" if value is not None else ""))
        else:
            found.append(str(item))
    return tuple(found)


def location(
    doc: Document,
    villain: str,
    data: dict[str, Any],
    unsure: frozenset[str],
    at: tuple[str | int, ...] = (),
) -> ProofCard:
    rows = tuple(r for r in (_symbols(data.get("top", [])), _symbols(data.get("bottom", []))) if r)
    locked = bool(data.get("locked"))
    return ProofCard(
        system=NAME,
        kind="location",
        doc_id=doc.id or "",
        box=str(doc.data.get("box", "")),
        deck=f"{villain} · Realm",
        title=str(data.get("name", "")),
        corner=str(data.get("position", "")),
        tags=("Locked",) if locked else (),
        icon_rows=((*rows[0], "lock"), *rows[1:])
        if locked and rows
        else (("lock",),)
        if locked
        else rows,
        text=text_of(data.get("unlock", "")),
        unconfirmed=unsure | marks(data),
        source=f"{doc.display_path} {data.get('name', '')}",
        pointer=at,
    )


def collect(doc: Document, warn: Warn) -> list[ProofCard]:
    data = doc.data
    kind = doc.kind.split("/", 1)[-1]
    name = str(data.get("name", doc.id))
    if kind == "villain":
        board = data.get("board", {})
        unsure = frozenset(
            "locked" for m in board.get("unconfirmed", []) if str(m).endswith("locked")
        )
        spots = [
            location(doc, name, spot, unsure, ("board", "locations", i))
            for i, spot in enumerate(board.get("locations", []))
        ]
        found = []
        if spots:  # the board at its size: the locations in a row, the objective below
            objective = text_of(data.get("objective", ""))
            found.append(
                ProofCard(
                    system=NAME,
                    kind="board",
                    doc_id=doc.id or "",
                    box=str(data.get("box", "")),
                    deck=f"{name} · Realm",
                    title=f"{name}'s Realm",
                    text=styled(f"<b>Objective:</b> {objective}") if objective else "",
                    unconfirmed=frozenset(f for spot in spots for f in spot.unconfirmed)
                    | frozenset(m for m in marks(board) if m != "locations"),
                    source=f"{doc.display_path} board",
                    pointer=("board",),
                    panels=tuple(replace(spot, deck="") for spot in spots),  # one footer
                )
            )
        if data.get("objective"):
            found.append(
                ProofCard(
                    system=NAME,
                    kind="objective",
                    doc_id=doc.id or "",
                    deck=f"{name} · Objective",
                    title=f"{name}'s Objective",
                    text=text_of(data["objective"]),
                    source=f"{doc.display_path} objective",
                    pointer=("objective",),
                )
            )
        return found
    villain = str(data.get("villain_ref", doc.id))
    if kind == "location":
        return [location(doc, villain, data, frozenset())]
    if kind == "card":
        source = doc.display_path
        stats = tuple(
            (label, str(data[key]))
            for key, label in (("cost", "Cost"), ("strength", "Strength"))
            if data.get(key) is not None
        )
        deck = str(data.get("deck", "villain"))
        copies = copies_of(data.get("copies", 1), source, warn)
        return [
            ProofCard(
                system=NAME,
                kind=f"{deck}-card",
                doc_id=doc.id or "",
                deck=f"{villain} · {deck.title()} deck",
                title=str(data.get("title", doc.id)),
                corner=f"{copy}/{copies}" if copies > 1 else "",
                tags=(str(data["type"]),) if data.get("type") else (),
                stats=stats,
                text="\n".join(
                    text_of(data.get(k, "")) for k in ("ability", "activate") if data.get(k)
                ),
                unconfirmed=marks(data),
                source=source,
            )
            for copy in range(1, copies + 1)
        ]
    return []
