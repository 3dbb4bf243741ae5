"""A Marvel United JSON Database box <-> cardkit's Marvel United documents, over plain dicts.

One box file gives: a `box` manifest (name, FAQ as sections, tokens for unknown letters),
a `location` per location, a `mode` per challenge, and per character a `villain` (its
Dashboard, Threat and Master Plan cards) and/or a `hero` (its Hero cards), plus an
`equipment` sheet for its other cards. Texts go where cardkit's fields are, each
translation beside it in `translations`; images in `provenance.images`, `baseUrl` in
the manifest's `provenance.base_url`. Everything else is each document's residual patch
(`exchange.mu-db.patch`), computed against this module's own rebuild, so export gives
the source back JSON-equal. The rules are in docs/exchange.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardkit.exchange import residual
from cardkit.games.marvel_united import mudb_cards as cards
from cardkit.games.marvel_united import mudb_dashboard as dash
from cardkit.games.marvel_united.mudb_letters import Letters, Texts, paragraph
from cardkit.rulebook.words import slug

FORMAT = "mu-db"
KINDS = {
    k: f"marvel-united/{k}" for k in ("box", "villain", "hero", "equipment", "location", "mode")
}
LISTS = ("locations", "challenges", "characters")  # box keys whose items are documents
VILLAIN_LOYALTIES = frozenset({"villain", "villain-bio", "hidden", "anti-hero", "challenge"})
PARTS = ("plan", "threat", "hero", "sheet")  # the order a character's cards are rebuilt in


@dataclass
class Context:
    box: str
    letters: Letters
    marks: dict[str, str] = field(default_factory=dict)  # the vocabulary's marks, for export
    ids: set[str] = field(default_factory=set)

    def new_id(self, name: str) -> str:
        base = slug(name) or "untitled"
        found, n = base, 1
        while found in self.ids:
            n += 1
            found = f"{base}-{n}"
        self.ids.add(found)
        return found


def exchange(doc: dict[str, Any]) -> dict[str, Any]:
    value = doc.get("exchange", {}).get(FORMAT, {})
    return value if isinstance(value, dict) else {}


def texts(doc: dict[str, Any]) -> Texts:
    return Texts(dict(doc.get("translations") or {}))


def _images(source: Any, path: tuple[str, ...] = ()) -> dict[str, str]:
    """Every `img` in a database object, by its path inside it ("." for its own)."""
    found: dict[str, str] = {}
    if isinstance(source, dict):
        if isinstance(source.get("img"), str):
            found["/".join(path) or "."] = source["img"]
        for key, value in source.items():
            if isinstance(value, (dict, list)):
                found.update(_images(value, (*path, key)))
    elif isinstance(source, list):
        for i, value in enumerate(source):
            found.update(_images(value, (*path, str(i))))
    return found


def _place_images(rebuilt: dict[str, Any], images: dict[str, str]) -> None:
    for where, img in images.items():
        target: Any = rebuilt
        for part in [] if where == "." else where.split("/"):
            if isinstance(target, dict):
                target = target.get(part)
            elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
                target = target[int(part)]
            else:
                target = None
        if isinstance(target, dict):
            _insert_image(target, img)


def _insert_image(target: dict[str, Any], img: str) -> None:
    """`img` where the database puts it: first, or just after `cardType`."""
    items = [(k, v) for k, v in target.items() if k != "img"]
    at = 1 if items and items[0][0] == "cardType" else 0
    items.insert(at, ("img", img))
    target.clear()
    target.update(items)


def _finish(doc: dict[str, Any], tx: Texts, images: dict[str, str]) -> None:
    if tx.translations:
        doc["translations"] = tx.translations
    if images:
        doc.setdefault("provenance", {})["images"] = images


def _seal(doc: dict[str, Any], source: dict[str, Any], rebuilt: dict[str, Any]) -> None:
    patch = residual.diff(source, rebuilt)
    if patch:
        doc.setdefault("exchange", {}).setdefault(FORMAT, {})["patch"] = patch


def _patched(doc: dict[str, Any], rebuilt: dict[str, Any]) -> dict[str, Any]:
    _place_images(rebuilt, doc.get("provenance", {}).get("images", {}))
    return residual.apply(rebuilt, exchange(doc).get("patch", {}))  # type: ignore[no-any-return]


# --- locations and challenges -------------------------------------------------------


def location_from(source: dict[str, Any], ctx: Context, where: str) -> dict[str, Any]:
    tx = Texts()
    name = tx.take(source.get("title"), "name") or "Location"
    doc: dict[str, Any] = {"kind": KINDS["location"], "id": ctx.new_id(name), "name": name}
    doc["box"] = ctx.box
    end = source.get("endOfTurn")
    if isinstance(end, dict):
        if text := tx.take(end.get("effect"), "text"):
            doc["text"] = text
        if isinstance(end.get("mandatory"), bool):
            doc["mandatory"] = end["mandatory"]
    if isinstance(source.get("slots"), list):
        doc["slots"] = [
            s if s == "empty" else ctx.letters.token(s, "placement", f"{where}.slots[{i}]")
            for i, s in enumerate(source["slots"])
        ]
    _finish(doc, tx, _images(source))
    _seal(doc, source, location_to(doc, ctx, patched=False))
    return doc


def location_to(doc: dict[str, Any], ctx: Context, *, patched: bool = True) -> dict[str, Any]:
    tx = texts(doc)
    out: dict[str, Any] = {"title": tx.give(doc.get("name"), "name")}
    end: dict[str, Any] = {}
    if isinstance(doc.get("mandatory"), bool):
        end["mandatory"] = doc["mandatory"]
    if effect := tx.give(paragraph(doc.get("text") or doc.get("intro")), "text"):
        end["effect"] = effect
    if end:
        out["endOfTurn"] = end
    if isinstance(doc.get("slots"), list):
        out["slots"] = [
            x for s in doc["slots"] if (x := ctx.letters.letter(str(s), ctx.marks)) is not None
        ]
    return _patched(doc, out) if patched else _with_images(doc, out)


def _with_images(doc: dict[str, Any], rebuilt: dict[str, Any]) -> dict[str, Any]:
    _place_images(rebuilt, doc.get("provenance", {}).get("images", {}))
    return rebuilt


def challenge_from(source: dict[str, Any], ctx: Context) -> dict[str, Any]:
    tx = Texts()
    name = tx.take(source.get("title"), "name") or "Challenge"
    doc: dict[str, Any] = {"kind": KINDS["mode"], "id": ctx.new_id(name), "name": name}
    doc["box"] = ctx.box
    if text := tx.take(source.get("description"), "intro/0"):
        doc["intro"] = [text]
    _finish(doc, tx, _images(source))
    _seal(doc, source, challenge_to(doc, patched=False))
    return doc


def challenge_to(doc: dict[str, Any], *, patched: bool = True) -> dict[str, Any]:
    tx = texts(doc)
    out: dict[str, Any] = {"title": tx.give(doc.get("name"), "name")}
    intro = [i for i in doc.get("intro") or [] if isinstance(i, str)]
    if intro and (description := tx.give("\n".join(intro), "intro/0")):
        out["description"] = description
    return _patched(doc, out) if patched else _with_images(doc, out)


# --- characters ---------------------------------------------------------------------


def _part(card: Any) -> str:
    kind = card.get("cardType") if isinstance(card, dict) else None
    return kind if kind in ("plan", "threat", "hero") else "sheet"


def character_from(source: dict[str, Any], ctx: Context, where: str) -> list[dict[str, Any]]:
    """A character's documents, the one holding its own fields first."""
    name = Texts().take(source.get("name"), "name") or "Character"
    by_part: dict[str, list[tuple[int, dict[str, Any]]]] = {p: [] for p in PARTS}
    deck: list[Any] = source["cards"] if isinstance(source.get("cards"), list) else []
    for i, card in enumerate(deck):  # a `cards` that is no list is kept by the patch
        by_part[_part(card)].append((i, card if isinstance(card, dict) else {}))
    villainish = bool(by_part["plan"] or by_part["threat"] or "dashboard" in source) or (
        not by_part["hero"] and source.get("loyalty") in VILLAIN_LOYALTIES
    )
    docs: list[dict[str, Any]] = []
    primary_id = ctx.new_id(name)
    if villainish:
        docs.append(dash.villain_from(source, primary_id, name, by_part, ctx, where))
    if by_part["hero"] or not villainish:
        hero_id = primary_id if not docs else ctx.new_id(f"{name}-hero")
        docs.append(_hero_from(source, hero_id, name, by_part["hero"], ctx, where, not docs))
    if by_part["sheet"]:
        docs.append(_sheet_from(name, docs[0], by_part["sheet"], ctx))
    primary = docs[0]
    if text := primary["_tx"].take(source.get("bio"), "intro/0"):
        head = {k: primary.pop(k) for k in ("kind", "id", "name", "box")}
        rest = dict(primary)
        primary.clear()
        primary.update({**head, "intro": [text], **rest})  # the bio before the cards
    for doc in docs:
        _finish(doc, doc.pop("_tx"), _images(source) if doc is primary else {})
    extra = exchange_of(primary)
    if len(docs) > 1:
        extra["parts"] = [d["id"] for d in docs[1:]]
        for doc in docs[1:]:
            exchange_of(doc)["part_of"] = primary["id"]
    rebuilt_order = [i for part in PARTS for i, _ in by_part[part]]
    if rebuilt_order != list(range(len(rebuilt_order))):
        extra["order"] = [rebuilt_order.index(i) for i in range(len(rebuilt_order))]
    _seal(primary, source, character_to(docs, ctx, patched=False))
    return docs


def exchange_of(doc: dict[str, Any]) -> dict[str, Any]:
    return doc.setdefault("exchange", {}).setdefault(FORMAT, {})  # type: ignore[no-any-return]


def _hero_from(
    source: dict[str, Any],
    doc_id: str,
    name: str,
    hero_cards: list[tuple[int, Any]],
    ctx: Context,
    where: str,
    primary: bool,
) -> dict[str, Any]:
    tx = Texts()
    tx.take(source.get("name"), "name")
    doc: dict[str, Any] = {"kind": KINDS["hero"], "id": doc_id, "name": name, "box": ctx.box}
    if hero_cards:
        doc["cards"] = [
            cards.hero_from(card, n, tx, ctx.letters, f"{where}.cards[{i}]")
            for n, (i, card) in enumerate(hero_cards)
        ]
    doc["_tx"] = tx
    return doc


def _sheet_from(
    name: str, primary: dict[str, Any], sheet_cards: list[tuple[int, Any]], ctx: Context
) -> dict[str, Any]:
    tx = Texts()
    doc: dict[str, Any] = {"kind": KINDS["equipment"], "id": ctx.new_id(f"{name}-equipment")}
    doc["name"] = name
    doc["box"] = ctx.box
    ref = "villain_ref" if primary["kind"] == KINDS["villain"] else "hero_ref"
    doc[ref] = primary["id"]
    doc["cards"] = [cards.sheet_from(card, n, tx) for n, (_, card) in enumerate(sheet_cards)]
    doc["_tx"] = tx
    return doc


def character_to(
    docs: list[dict[str, Any]], ctx: Context, *, patched: bool = True
) -> dict[str, Any]:
    """The database character of a primary document and its parts (hero, equipment)."""
    primary = docs[0]
    tx = texts(primary)
    villain = next((d for d in docs if d["kind"] == KINDS["villain"]), None)
    hero = next((d for d in docs if d["kind"] == KINDS["hero"]), None)
    sheet = next((d for d in docs if d["kind"] == KINDS["equipment"]), None)
    out: dict[str, Any] = {"loyalty": "villain" if villain is primary else "hero"}
    out["name"] = tx.give(primary.get("name"), "name")
    intro = [i for i in primary.get("intro") or [] if isinstance(i, str)]
    if intro:
        out["bio"] = tx.give("\n".join(intro), "intro/0")
    deck: list[dict[str, Any]] = []
    if villain is not None:
        deck += dash.villain_cards(villain, ctx)
    if hero is not None:
        hero_tx = texts(hero)
        deck += [
            cards.hero_to(item, i, hero, hero_tx, ctx.letters, ctx.marks)
            for i, item in enumerate(hero.get("cards") or [])
        ]
    if sheet is not None:
        sheet_tx = texts(sheet)
        deck += [
            cards.sheet_to(item, i, sheet_tx, "equipment")
            for i, item in enumerate(sheet.get("cards") or [])
        ]
    order = exchange(primary).get("order")
    if isinstance(order, list) and sorted(order) == list(range(len(deck))):
        deck = [deck[j] for j in order]
    if deck:
        out["cards"] = deck
    if villain is not None and isinstance(villain.get("dashboard"), dict):
        out["dashboard"] = dash.dashboard_to(villain, ctx)
    return _patched(primary, out) if patched else _with_images(primary, out)
