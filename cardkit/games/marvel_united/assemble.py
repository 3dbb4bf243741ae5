"""Marvel United's `assemble` hook (cardkit.plugin.Assembler): one villain's single-card
drafts into one villain document.

Drafts of a villain's cards (master plan cards, threat cards, its dashboard: kinds that
carry `villain_ref` and a `card` or `dashboard` part) are grouped by `villain_ref`, else by
the villain printed on the card (`provenance.villain`), else by the folder their scans sit
in (the villain printed on that folder's other cards, when they name one). Each group
becomes one `<system>/villain` document: dashboard, threat cards, master plan cards ordered
by number. Every card keeps its `unconfirmed` marks (paths made relative to the card) and
its gap notes (field paths made absolute, `masterplan/cards/5/move`; a threat card whose
name is not one path part, `Screaming Mimi`, by its position: `threats/cards/0/health`);
provenance lists the scans and the field confidences under the new paths.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

PARTS = {"card": None, "dashboard": "dashboard"}  # which part of a draft holds its content
SEGMENT = re.compile(r"[A-Za-z0-9_*-]+")  # one part of a field path (common.schema.json fieldPath)


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
    """Drafts by (system, villain): `villain_ref`; else the villain printed on the card
    (`provenance.villain`, the same name whatever its case or spacing); else the one villain
    printed on the other cards of the scan's folder; else the folder's name."""
    from cardkit.ocr.draft import slug

    kept = [(p, d) for p, d in drafts if _deck(str(d.get("kind", ""))) is not None]
    printed: dict[tuple[str, str], str] = {}  # (system, slug) -> the name as first printed
    in_folder: dict[tuple[str, str], set[str]] = {}  # (system, folder) -> villains printed
    for path, draft in kept:
        system, name = str(draft["kind"]).split("/")[0], _printed(draft)
        if name:
            name = printed.setdefault((system, slug(name)), name)
            in_folder.setdefault((system, _folder(path, draft)), set()).add(name)
    groups: dict[tuple[str, str], list[tuple[Path, dict[str, Any]]]] = {}
    for path, draft in kept:
        system, folder, name = (
            str(draft["kind"]).split("/")[0],
            _folder(path, draft),
            _printed(draft),
        )
        there = sorted(in_folder.get((system, folder), set()))
        villain = printed[(system, slug(name))] if name else there[0] if len(there) == 1 else folder
        groups.setdefault((system, str(draft.get("villain_ref") or villain)), []).append(
            (path, draft)
        )
    return groups


def _printed(draft: dict[str, Any]) -> str:
    provenance = draft.get("provenance")
    return str(provenance.get("villain") or "").strip() if isinstance(provenance, dict) else ""


def _folder(path: Path, draft: dict[str, Any]) -> str:
    provenance = draft.get("provenance")
    scan = provenance.get("scan") if isinstance(provenance, dict) else None
    return Path(str(scan or path)).parent.name


def clashes(members: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    """Cards drafted twice for one villain (two scans of master plan card 1, two dashboards):
    one document cannot hold both."""
    seen: dict[tuple[str, str], str] = {}
    out = []
    for path, draft in members:
        deck = _deck(str(draft.get("kind", "")))
        card: dict[str, Any] = draft["card"] if isinstance(draft.get("card"), dict) else {}
        key = {"masterplan": card.get("n"), "threats": card.get("name")}.get(str(deck), "")
        if key is None:
            continue
        scan = str(draft.get("provenance", {}).get("scan") or path)
        what, which = f"{deck} card {key}" if key != "" else str(deck), (str(deck), str(key))
        if which in seen:
            out.append(f"{what} is drafted from both {seen[which]} and {scan}")
        else:
            seen[which] = scan
    return out


def _rebase(paths: list[str], inner: str, outer: str) -> list[str]:
    """`card/move` (in the draft) as `masterplan/cards/5/move` (in the villain)."""
    return [outer + "/" + p.removeprefix(inner + "/") for p in paths if p.startswith(inner + "/")]


def assemble(system: str, name: str, members: list[tuple[Path, dict[str, Any]]]) -> dict[str, Any]:
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
            if key is None or not SEGMENT.fullmatch(str(key)):  # `Screaming Mimi`: by position
                key = len(threats) - 1
            outer, inner = f"{deck}/cards/{key}", "card"
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
