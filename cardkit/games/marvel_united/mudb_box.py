"""A whole database box <-> its documents: the manifest, then locations, challenges, characters.

The manifest keeps the box's layout (`exchange.mu-db.layout`: which document is which
location, challenge and character, in the file's order) and the letters its declared
tokens stand for, so export writes the lists back in order; documents the layout does
not name (added in cardkit) follow, in the order given.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cardkit import systems
from cardkit.exchange import residual
from cardkit.games.marvel_united import mudb
from cardkit.games.marvel_united.mudb_letters import Letters, Texts
from cardkit.rulebook.words import slug

FAQ_ID = "faq"  # the manifest section holding the box's FAQ


@dataclass
class BoxDocuments:
    documents: list[dict[str, Any]]  # the manifest first
    warnings: list[str] = field(default_factory=list)
    cards: int = 0  # cards in the source: characters', challenges' and the box's own
    lossless: list[str] = field(default_factory=list)  # of the warnings, those losing nothing


def marks() -> dict[str, str]:
    return {name: token.mark for name, token in systems.get("marvel-united").tokens.items()}


def box_id(data: dict[str, Any], box: str | None) -> str:
    return box or slug(str(data.get("boxId") or "")) or "mu-db-box"


def count_cards(data: dict[str, Any]) -> int:
    def cards(owner: Any) -> int:
        found = owner.get("cards") if isinstance(owner, dict) else None
        return len(found) if isinstance(found, list) else 0

    total = cards(data)
    for key in ("challenges", "characters"):
        items = data.get(key)
        total += sum(cards(item) for item in items) if isinstance(items, list) else 0
    return total


def documents_from(data: dict[str, Any], *, box: str | None, where: str) -> BoxDocuments:
    """The documents of one box file (`where` names it in warnings)."""
    ident = box_id(data, box)
    ctx = mudb.Context(ident, Letters(), ids={ident})
    tx = Texts()
    manifest: dict[str, Any] = {"kind": mudb.KINDS["box"], "id": ident}
    manifest["name"] = tx.take(data.get("name"), "name") or str(data.get("boxId") or ident)
    layout: dict[str, Any] = {}
    found: list[dict[str, Any]] = []
    for key in mudb.LISTS:
        items = data.get(key)
        if not isinstance(items, list):
            continue
        layout[key] = []
        for i, item in enumerate(items):
            at = f"{where}: {key}[{i}]"
            if not isinstance(item, dict):
                layout[key].append({"kept": item})  # no document can hold it: kept in place
                ctx.letters.warnings.append(f"{at}: not an object; kept as it is")
                continue
            if key == "locations":
                docs = [mudb.location_from(item, ctx, at)]
            elif key == "challenges":
                docs = [mudb.challenge_from(item, ctx)]
            else:
                docs = mudb.character_from(item, ctx, at)
            layout[key].append([d["id"] for d in docs] if key == "characters" else docs[0]["id"])
            found += docs
    faq = _faq_from(data.get("faq"), tx)
    if faq:
        manifest["sections"] = [faq]
    if ctx.letters.declared:
        manifest["tokens"] = list(ctx.letters.declared.values())
    if tx.translations:
        manifest["translations"] = tx.translations
    provenance: dict[str, Any] = {}
    if isinstance(data.get("img"), str):
        provenance["images"] = {".": data["img"]}
    if isinstance(data.get("baseUrl"), str):
        provenance["base_url"] = data["baseUrl"]
    if provenance:
        manifest["provenance"] = provenance
    extra = mudb.exchange_of(manifest)
    extra["layout"] = layout
    if ctx.letters.letters:
        extra["letters"] = ctx.letters.letters
    shell = {k: ([] if k in mudb.LISTS and isinstance(v, list) else v) for k, v in data.items()}
    patch = residual.diff(shell, _shell_to(manifest, layout))
    if patch:
        extra["patch"] = patch
    return BoxDocuments(
        [manifest, *found], ctx.letters.warnings, count_cards(data), ctx.letters.lossless
    )


def _faq_from(faq: Any, tx: Texts) -> dict[str, Any] | None:
    if not isinstance(faq, list) or not faq:
        return None
    entries: list[dict[str, Any]] = []
    for item in faq:
        path = f"sections/0/sections/{len(entries)}"
        question = (
            tx.take(item.get("question"), f"{path}/title") if isinstance(item, dict) else None
        )
        if question is None:
            break  # the patch keeps the FAQ as it is from here
        entry: dict[str, Any] = {"title": question}
        if answer := tx.take(item.get("answer"), f"{path}/body/0"):
            entry["body"] = [answer]
        entries.append(entry)
    return {"title": "FAQ", "id": FAQ_ID, "sections": entries}


def _faq_to(manifest: dict[str, Any], tx: Texts) -> list[dict[str, Any]] | None:
    for n, section in enumerate(manifest.get("sections") or []):
        if isinstance(section, dict) and section.get("id") == FAQ_ID:
            out = []
            for i, entry in enumerate(section.get("sections") or []):
                path = f"sections/{n}/sections/{i}"
                item: dict[str, Any] = {"question": tx.give(entry.get("title"), f"{path}/title")}
                body = [b for b in entry.get("body") or [] if isinstance(b, str)]
                if body:
                    item["answer"] = tx.give("\n".join(body), f"{path}/body/0")
                out.append(item)
            return out
    return None


def _shell_to(manifest: dict[str, Any], layout: dict[str, Any]) -> dict[str, Any]:
    tx = Texts(dict(manifest.get("translations") or {}))
    provenance = manifest.get("provenance") or {}
    out: dict[str, Any] = {"boxId": manifest.get("id")}
    if isinstance((provenance.get("images") or {}).get("."), str):
        out["img"] = provenance["images"]["."]
    out["name"] = tx.give(manifest.get("name"), "name")
    if isinstance(provenance.get("base_url"), str):
        out["baseUrl"] = provenance["base_url"]
    for key in mudb.LISTS:
        if layout.get(key):
            out[key] = []
    if (faq := _faq_to(manifest, tx)) is not None:
        out["faq"] = faq
    return out


def box_to(
    manifest: dict[str, Any] | None, documents: Iterable[dict[str, Any]], box: str
) -> tuple[dict[str, Any], list[str], dict[str, Any]]:
    """The database box of a box's documents, warnings (tokens with no letter), and the
    layout it followed (which document went where)."""
    manifest = manifest or {"kind": mudb.KINDS["box"], "id": box, "name": box}
    extra = mudb.exchange(manifest)
    letters = Letters.for_box(manifest.get("tokens"), extra.get("letters"))
    ctx = mudb.Context(box, letters, marks())
    by_id = {str(d.get("id")): d for d in documents}
    layout = _layout(extra.get("layout") or {}, by_id)
    out = residual.apply(_shell_to(manifest, layout), extra.get("patch") or {})
    built: dict[str, list[Any]] = {key: [] for key in mudb.LISTS}
    for key in mudb.LISTS:
        for entry in layout.get(key, []):
            if isinstance(entry, dict):
                built[key].append(entry.get("kept"))
            elif key == "locations":
                built[key].append(mudb.location_to(by_id[entry], ctx))
            elif key == "challenges":
                built[key].append(mudb.challenge_to(by_id[entry]))
            else:
                built[key].append(mudb.character_to([by_id[i] for i in entry], ctx))
    for key in mudb.LISTS:
        if isinstance(out.get(key), list) or (key not in out and built[key]):
            out[key] = built[key]
    return out, letters.warnings, layout


def _layout(saved: dict[str, Any], by_id: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The saved layout, less documents gone, plus documents it does not name yet."""

    def present(entry: Any) -> Any:
        if isinstance(entry, dict):
            return entry  # a kept non-object item
        if isinstance(entry, list):
            group = [i for i in entry if i in by_id]
            return group if entry and entry[0] in by_id else None
        return entry if entry in by_id else None

    layout: dict[str, Any] = {
        key: [e for e in map(present, saved.get(key, [])) if e is not None] for key in mudb.LISTS
    }
    named = {i for key in ("locations", "challenges") for i in layout[key] if isinstance(i, str)}
    named |= {i for group in layout["characters"] if isinstance(group, list) for i in group}
    for ident, doc in by_id.items():
        if ident in named or mudb.exchange(doc).get("part_of") in by_id:
            continue
        kind = doc.get("kind")
        if kind == mudb.KINDS["location"]:
            layout["locations"].append(ident)
        elif kind == mudb.KINDS["mode"]:
            layout["challenges"].append(ident)
        elif kind in (mudb.KINDS["villain"], mudb.KINDS["hero"]):
            parts = [p for p in mudb.exchange(doc).get("parts", []) if p in by_id]
            layout["characters"].append([ident, *parts])
    return {k: v for k, v in layout.items() if v or k in saved}
