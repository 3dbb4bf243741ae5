"""Marvel United JSON Database cards <-> the card items of cardkit's Marvel United kinds.

Each pair reads a database card (`cardType` plan, threat, hero, or any other) into the
item cardkit keeps it as, and rebuilds the database card from that item. What a rebuild
does not give back (images, keys cardkit does not model, a letter order) is the
document's residual patch (cardkit.exchange.residual), not these functions' concern.
"""

from __future__ import annotations

from typing import Any

from cardkit.games.marvel_united.mudb_letters import Letters, Texts, paragraph

SLOTS = {"left": "left", "center": "villain", "right": "right"}  # database slot -> cardkit
PLAYERS = {"twoHeroes": "2", "threeHeroes": "3", "fourHeroes": "4"}


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def tokens_from(letters: Any, book: Letters, role: str, where: str) -> list[str] | None:
    if not isinstance(letters, list):
        return None
    return [book.token(x, role, f"{where}[{i}]") for i, x in enumerate(letters)]


def letters_from(tokens: Any, book: Letters, marks: dict[str, str]) -> list[str] | None:
    if not isinstance(tokens, list):
        return None
    return [x for t in tokens if (x := book.letter(str(t), marks)) is not None]


def place_from(add: Any, book: Letters, where: str) -> Any:
    """`add: {left: [C, C], center: [T]}` -> `{left: {civilian: 2}, villain: {thug: 1}}`."""
    if not isinstance(add, dict):
        return None
    place: dict[str, dict[str, int]] = {}
    for slot, cardkit_slot in SLOTS.items():
        names = tokens_from(add.get(slot), book, "placement", f"{where}.{slot}") or []
        for name in names:
            counts = place.setdefault(cardkit_slot, {})
            counts[name] = counts.get(name, 0) + 1
    return place or "none"


def add_from(place: Any, book: Letters, marks: dict[str, str]) -> dict[str, list[str]] | None:
    if place == "none":
        return {slot: [] for slot in SLOTS}
    if not isinstance(place, dict):
        return None
    add: dict[str, list[str]] = {}
    for slot, cardkit_slot in SLOTS.items():
        counts = place.get(cardkit_slot) or {}
        add[slot] = [
            x for n, c in counts.items() for _ in range(int(c)) if (x := book.letter(n, marks))
        ]
    return add


def _effect(card: dict[str, Any], tx: Texts, path: str) -> dict[str, Any] | None:
    special = card.get("specialEffect")
    if not isinstance(special, dict):
        return None
    effect: dict[str, Any] = {}
    if name := tx.take(special.get("title"), f"{path}/name"):
        effect["name"] = name
    if text := tx.take(special.get("description"), f"{path}/text"):
        effect["text"] = text
    return effect


def _special(effect: dict[str, Any], tx: Texts, path: str) -> dict[str, Any]:
    special: dict[str, Any] = {}
    if title := tx.give(effect.get("name"), f"{path}/name"):
        special["title"] = title
    if description := tx.give(paragraph(effect.get("text")), f"{path}/text"):
        special["description"] = description
    return special


def plan_from(card: dict[str, Any], n: int, tx: Texts, book: Letters, where: str) -> Any:
    path = f"masterplan/cards/{n - 1}"
    item: dict[str, Any] = {"n": n}
    move = card.get("movement", card.get("M"))
    if isinstance(move, int) and not isinstance(move, bool) and 0 <= move <= 12:
        item["move"] = move
    if movement := tx.take(card.get("movementText"), f"{path}/movement"):
        item["movement"] = movement
        item.setdefault("move", "*")
    if isinstance(card.get("bam"), bool):
        item["bam"] = card["bam"]
    effect = _effect(card, tx, f"{path}/effects/0")
    if effect and "text" in effect:
        item["effects"] = [effect]
    place = place_from(card.get("add"), book, f"{where}.add")
    if place is not None:
        item["place"] = place
    if text := tx.take(card.get("description"), f"{path}/text"):
        item["text"] = text
    return item


def plan_to(
    item: dict[str, Any],
    index: int,
    villain: dict[str, Any],
    tx: Texts,
    book: Letters,
    marks: dict[str, str],
    move_key: str,
) -> dict[str, Any]:
    path = f"masterplan/cards/{index}"
    card: dict[str, Any] = {"cardType": "plan"}
    if title := tx.give(villain.get("name"), "name"):
        card["title"] = title
    if _int(item.get("move")):
        card[move_key] = item["move"]
    if movement := tx.give(item.get("movement"), f"{path}/movement"):
        card["movementText"] = movement
    if isinstance(item.get("bam"), bool):
        card["bam"] = item["bam"]
    if (add := add_from(item.get("place"), book, marks)) is not None:
        card["add"] = add
    for i, effect in enumerate(item.get("effects") or []):
        if i == 0 and isinstance(effect, dict):
            card["specialEffect"] = _special(effect, tx, f"{path}/effects/0")
    if description := tx.give(paragraph(item.get("text")), f"{path}/text"):
        card["description"] = description
    return card


def threat_from(card: dict[str, Any], index: int, tx: Texts, book: Letters, where: str) -> Any:
    path = f"threats/cards/{index}"
    item: dict[str, Any] = {"name": tx.take(card.get("title"), f"{path}/name") or "(untitled)"}
    item["type"] = "threat"
    life = card.get("lifePoints")
    if isinstance(life, dict) and set(life) == set(PLAYERS) and len(set(life.values())) == 1:
        value = next(iter(life.values()))
        if _int(value):
            item["health"] = value
    icons = tokens_from(card.get("actions"), book, "action", f"{where}.actions")
    if icons:
        item["icons"] = icons
    if text := tx.take(card.get("description"), f"{path}/text"):
        item["text"] = text
    return item


def threat_to(
    item: dict[str, Any], index: int, tx: Texts, book: Letters, marks: dict[str, str]
) -> dict[str, Any]:
    path = f"threats/cards/{index}"
    card: dict[str, Any] = {"cardType": "threat"}
    if title := tx.give(item.get("name"), f"{path}/name"):
        card["title"] = title
    if description := tx.give(paragraph(item.get("text")), f"{path}/text"):
        card["description"] = description
    if _int(item.get("health")):
        card["lifePoints"] = {key: item["health"] for key in PLAYERS}
    if (actions := letters_from(item.get("icons"), book, marks)) is not None:
        card["actions"] = actions
    return card


def hero_from(card: dict[str, Any], index: int, tx: Texts, book: Letters, where: str) -> Any:
    path = f"cards/{index}"
    effect = _effect(card, tx, path)
    item: dict[str, Any] = {}
    if effect and "name" in effect:
        item["name"] = effect["name"]
        if "text" in effect:
            item["text"] = effect["text"]
    else:
        item["name"] = tx.take(card.get("title"), f"{path}/name") or "(untitled)"
        item["icon_only"] = True
    icons = tokens_from(card.get("actions"), book, "action", f"{where}.actions")
    if icons is not None:
        item["icons"] = icons
    return item


def hero_to(
    item: dict[str, Any],
    index: int,
    hero: dict[str, Any],
    tx: Texts,
    book: Letters,
    marks: dict[str, str],
) -> dict[str, Any]:
    path = f"cards/{index}"
    card: dict[str, Any] = {"cardType": "hero"}
    if item.get("icon_only"):
        card["title"] = tx.give(item.get("name"), f"{path}/name")
    else:
        card["title"] = tx.give(hero.get("name"), "name")
        card["specialEffect"] = _special(item, tx, path)
    if (actions := letters_from(item.get("icons"), book, marks)) is not None:
        card["actions"] = actions
    return card


def sheet_from(card: dict[str, Any], index: int, tx: Texts) -> dict[str, Any]:
    path = f"cards/{index}"
    item: dict[str, Any] = {"name": tx.take(card.get("title"), f"{path}/name") or "(untitled)"}
    if text := tx.take(card.get("description"), f"{path}/text"):
        item["text"] = text
    return item


def sheet_to(item: dict[str, Any], index: int, tx: Texts, card_type: str) -> dict[str, Any]:
    path = f"cards/{index}"
    card: dict[str, Any] = {"cardType": card_type}
    if title := tx.give(item.get("name"), f"{path}/name"):
        card["title"] = title
    if description := tx.give(paragraph(item.get("text")), f"{path}/text"):
        card["description"] = description
    return card
