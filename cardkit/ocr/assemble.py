"""Assemble one villain's single-card drafts into one villain document.

Drafts of a villain's cards (master plan cards, threat cards, its dashboard: kinds that
carry `villain_ref` and a `card` or `dashboard` part) are grouped by `villain_ref`, or by
the folder their scans sit in when the reading left it out. Each group becomes one
`<system>/villain` document: dashboard, threat cards, master plan cards ordered by
number. Every card keeps its `unconfirmed` marks (paths made relative to the card) and
its gap notes (field paths made absolute, `masterplan/cards/5/move`); provenance lists
the scans and the field confidences under the new paths.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

PARTS = {"card": None, "dashboard": "dashboard"}  # which part of a draft holds its content


def _deck(kind: str) -> str | None:
    name = kind.split("/")[-1]
    if name.startswith("masterplan"):
        return "masterplan"
    if name.startswith("threat"):
        return "threats"
    if name == "dashboard":
        return "dashboard"
    return None


def group(drafts: list[tuple[Path, dict[str, Any]]]) -> dict[tuple[str, str], list[Any]]:
    """Drafts by (system, villain): `villain_ref`, else the scan's folder name."""
    groups: dict[tuple[str, str], list[tuple[Path, dict[str, Any]]]] = {}
    for path, draft in drafts:
        kind = str(draft.get("kind", ""))
        if _deck(kind) is None:
            continue
        scan = Path(str(draft.get("provenance", {}).get("scan", path)))
        villain = str(draft.get("villain_ref") or scan.parent.name)
        groups.setdefault((kind.split("/")[0], villain), []).append((path, draft))
    return groups


def _rebase(paths: list[str], inner: str, outer: str) -> list[str]:
    """`card/move` (in the draft) as `masterplan/cards/5/move` (in the villain)."""
    return [outer + "/" + p.removeprefix(inner + "/") for p in paths if p.startswith(inner + "/")]


def villain(system: str, name: str, members: list[tuple[Path, dict[str, Any]]]) -> dict[str, Any]:
    from cardkit.ocr.draft import slug

    document: dict[str, Any] = {"kind": f"{system}/villain", "id": slug(name), "name": name}
    masterplan: list[dict[str, Any]] = []
    threats: list[dict[str, Any]] = []
    gaps: list[dict[str, Any]] = []
    confidences: dict[str, float] = {}
    scans: list[str] = []
    for _, draft in members:
        deck = _deck(str(draft["kind"]))
        provenance = draft.get("provenance", {})
        scans.append(str(provenance.get("scan", "")))
        unconfirmed = list(draft.get("unconfirmed", []))
        if deck == "dashboard":
            document["dashboard"] = draft.get("dashboard", {})
            outer, inner = "dashboard", "dashboard"
            if unconfirmed:
                document["dashboard"]["unconfirmed"] = [
                    p.removeprefix("dashboard/") for p in unconfirmed
                ]
        else:
            card = dict(draft.get("card", {}))
            relative = [p.removeprefix("card/") for p in unconfirmed if p.startswith("card/")]
            if relative:
                card["unconfirmed"] = relative
            (masterplan if deck == "masterplan" else threats).append(card)
            key = card.get("n") if deck == "masterplan" else card.get("name")
            outer, inner = f"{deck}/cards/{key if key is not None else len(threats) - 1}", "card"
        for note in draft.get("gaps", []):
            gaps.append({**note, "fields": _rebase(list(note.get("fields", [])), inner, outer)})
        for field, value in provenance.get("confidences", {}).items():
            for rebased in _rebase([field], inner, outer):
                confidences[rebased] = value
    if threats:
        document["threats"] = {"cards": threats}
    if masterplan:
        masterplan.sort(key=lambda c: (c.get("n") is None, c.get("n") or 0))
        document["masterplan"] = {"cards": masterplan}
    if gaps:
        document["gaps"] = gaps
    first = members[0][1].get("provenance", {})
    document["provenance"] = {
        "scan": str(Path(scans[0]).parent) if scans and scans[0] else name,
        **{k: first[k] for k in ("engine", "engine_version", "language", "drafted") if k in first},
        "settings": {"assembled_from": scans},
        **({"confidences": confidences} if confidences else {}),
    }
    return document
