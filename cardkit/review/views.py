"""The page's data as JSON: every card with gaps, each gap with its value and control.

Only plain values go out; the page sets them as text (never as markup), so a card
named `<img src=x onerror=...>` reads as those characters.
"""

from __future__ import annotations

from typing import Any

from cardkit.errors import CardkitError
from cardkit.review import edits, picture
from cardkit.review.repository import Card, Snapshot


def _doubted(card: Card, states: dict[str, tuple[Any, bool]]) -> dict[str, Any]:
    """The card's doubted fields by the name the proxy gives them, with their values."""
    found: dict[str, Any] = {}
    if card.card is None:
        return found
    home = card.id.split("#", 1)[1]
    for row in card.rows:
        if row.status != "open" or row.address not in states:
            continue
        if home and not row.address.startswith(home + "/"):
            continue
        name = row.address[len(home) + 1 if home else 0 :].split("/")[0]
        found[name] = states[row.address][0]
    for name in card.card.unconfirmed:
        found.setdefault(name, None)
    return found


def card_view(card: Card) -> dict[str, Any]:
    entry, proof = card.entry, card.card
    doc = entry.document
    assert doc is not None
    states: dict[str, tuple[Any, bool]] = {}
    gaps = []
    for index, row in enumerate(card.rows):
        value: Any = None
        is_marked = False
        if row.address:
            try:
                value, is_marked = edits.field_state(doc.data, row.address)
                states[row.address] = (value, is_marked)
            except (CardkitError, KeyError, IndexError, TypeError):  # shown, not editable
                row_editor: dict[str, Any] = {"type": "fix-in-file"}
            else:
                row_editor = edits.editor(card, row, value)
        else:
            row_editor = edits.editor(card, row, None)
        gaps.append(
            {
                "index": index,
                "origin": row.origin,
                "status": row.status,
                "field": row.field,
                "address": row.address,
                "why": row.why,
                "code": row.code,
                "line": row.line,
                "value": value,
                "marked": is_marked,
                "absent": row.absent,
                "editor": row_editor,
            }
        )
    view: dict[str, Any] = {
        "id": card.id,
        "path": doc.display_path,
        "etag": entry.etag,
        "document": doc.id or "",
        "system": doc.system,
        "box": gaps_box(card),
        "group": next((r.game_group for r in card.rows if r.game_group), ""),
        "group_label": next((r.group_label for r in card.rows if r.group_label), ""),
        "title": proof.title if proof else (doc.id or doc.display_path),
        "deck": proof.deck if proof else doc.kind,
        "kind": proof.kind if proof else doc.kind.rsplit("/", 1)[-1],
        "line": min(r.line for r in card.rows),
        "picture": proof is not None,
        "scan": bool(scan_of(card)),
        "gaps": gaps,
        "open": sum(g["status"] == "open" for g in gaps),
    }
    if proof is not None:
        w, h = picture.size(proof)
        view["aspect"] = w / h
        view["outlines"] = [o.__dict__ for o in picture.outlines(proof, _doubted(card, states))]
    return view


def gaps_box(card: Card) -> str:
    return next((r.box for r in card.rows if r.box), "")


def scan_of(card: Card) -> Any:
    """The card's scan (a ScanRef) when its document names one inside the repository."""
    from cardkit.render import scan_image as scan

    doc = card.entry.document
    if doc is None or card.card is None:
        return None
    provenance = doc.data.get("provenance")
    if not isinstance(provenance, dict) or not provenance.get("scan"):
        return None
    settings = provenance.get("settings")
    turn = settings.get("rotation", 0) if isinstance(settings, dict) else 0
    try:
        ref = scan.resolve(doc.path, str(provenance["scan"]), provenance.get("region"), turn)
    except (scan.ScanRefused, OSError, ValueError, TypeError):
        return None
    root = scan.repository_root(doc.path).resolve()
    return ref if ref.path.resolve().is_relative_to(root) else None


def everything(snapshot: Snapshot, by: str, evidence: str) -> dict[str, Any]:
    cards = [card_view(c) for c in snapshot.cards.values()]
    cards.sort(key=lambda v: (v["box"], v["path"], v["line"]))
    return {
        "version": snapshot.version,
        "cards": cards,
        "problems": snapshot.problems,
        "by": by,
        "evidence": evidence,
    }
