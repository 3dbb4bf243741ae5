"""A database villain <-> cardkit's `marvel-united/villain`: Dashboard, Threats, Master Plan.

Dashboard front: specialRules -> special_rules, overflow, bam, plot -> villainous_plot,
lifePoints (per number of Heroes) -> player_count. Back: specialSetup -> special_setup,
superVillain letters -> starting_tokens.icons, superVillainText -> back.text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardkit.games.marvel_united import mudb_cards as cards
from cardkit.games.marvel_united.mudb_letters import Texts, paragraph

if TYPE_CHECKING:
    from cardkit.games.marvel_united.mudb import Context

FRONT = (("specialRules", "special_rules"), ("overflow", "overflow"), ("bam", "bam"))


def _move_keys(plans: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    """Which key holds each card's Move: the reference's `movement`, or `M` as most files do."""
    uses_m = [n for n, (_, card) in enumerate(plans) if "M" in card and "movement" not in card]
    if not uses_m:
        return {}
    if len(uses_m) == len(plans):
        return {"move_key": "M"}
    return {"move_key_m": uses_m}  # cards (by position in the deck) whose Move is under `M`


def villain_from(
    source: dict[str, Any],
    doc_id: str,
    name: str,
    by_part: dict[str, list[tuple[int, dict[str, Any]]]],
    ctx: Context,
    where: str,
) -> dict[str, Any]:
    tx = Texts()
    tx.take(source.get("name"), "name")
    doc: dict[str, Any] = {"kind": "marvel-united/villain", "id": doc_id, "name": name}
    doc["box"] = ctx.box
    dashboard = source.get("dashboard")
    if isinstance(dashboard, dict):
        doc["dashboard"] = _dashboard_from(dashboard, tx, ctx, f"{where}.dashboard")
    if by_part["threat"]:
        doc["threats"] = {
            "cards": [
                cards.threat_from(card, n, tx, ctx.letters, f"{where}.cards[{i}]")
                for n, (i, card) in enumerate(by_part["threat"])
            ]
        }
    if by_part["plan"]:
        doc["masterplan"] = {
            "cards": [
                cards.plan_from(card, n + 1, tx, ctx.letters, f"{where}.cards[{i}]")
                for n, (i, card) in enumerate(by_part["plan"])
            ]
        }
        if keys := _move_keys(by_part["plan"]):
            doc.setdefault("exchange", {}).setdefault("mu-db", {}).update(keys)
    doc["_tx"] = tx
    return doc


def _dashboard_from(
    dashboard: dict[str, Any], tx: Texts, ctx: Context, where: str
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    front: dict[str, Any] = dashboard["front"] if isinstance(dashboard.get("front"), dict) else {}
    back: dict[str, Any] = dashboard["back"] if isinstance(dashboard.get("back"), dict) else {}
    for key, field in FRONT:
        if text := tx.take(front.get(key), f"dashboard/{field}"):
            out[field] = text
    if plot := tx.take(front.get("plot"), "dashboard/villainous_plot/text"):
        out["villainous_plot"] = {"text": plot}
    life = front.get("lifePoints")
    if isinstance(life, dict):
        heroes = {n: life[k] for k, n in cards.PLAYERS.items() if cards._int(life.get(k))}
        if heroes:
            out["player_count"] = {"heroes": heroes}
    side: dict[str, Any] = {}
    if setup := tx.take(back.get("specialSetup"), "dashboard/back/special_setup"):
        side["special_setup"] = setup
    icons = cards.tokens_from(back.get("superVillain"), ctx.letters, "action", f"{where}.back")
    if icons is not None:
        side["starting_tokens"] = {"icons": icons}
    if text := tx.take(back.get("superVillainText"), "dashboard/back/text"):
        side["text"] = text
    if side:
        out["back"] = side
    return out


def dashboard_to(villain: dict[str, Any], ctx: Context) -> dict[str, Any]:
    tx = Texts(dict(villain.get("translations") or {}))
    board = villain["dashboard"]
    front: dict[str, Any] = {}
    for key, field in FRONT:
        if text := tx.give(paragraph(board.get(field)), f"dashboard/{field}"):
            front[key] = text
    plot = board.get("villainous_plot")
    plot_text = paragraph(plot.get("text")) if isinstance(plot, dict) else None
    if text := tx.give(plot_text, "dashboard/villainous_plot/text"):
        front["plot"] = text
    heroes = (board.get("player_count") or {}).get("heroes") or {}
    life = {k: heroes[n] for k, n in cards.PLAYERS.items() if cards._int(heroes.get(n))}
    if life:
        front["lifePoints"] = life
    side: dict[str, Any] = board["back"] if isinstance(board.get("back"), dict) else {}
    back: dict[str, Any] = {}
    if setup := tx.give(side.get("special_setup"), "dashboard/back/special_setup"):
        back["specialSetup"] = setup
    icons = (side.get("starting_tokens") or {}).get("icons")
    if (letters := cards.letters_from(icons, ctx.letters, ctx.marks)) is not None:
        back["superVillain"] = letters
    if text := tx.give(side.get("text"), "dashboard/back/text"):
        back["superVillainText"] = text
    out: dict[str, Any] = {}
    if front:
        out["front"] = front
    if back:
        out["back"] = back
    return out


def villain_cards(villain: dict[str, Any], ctx: Context) -> list[dict[str, Any]]:
    """The villain's Master Plan cards, then its Threats, as database cards."""
    tx = Texts(dict(villain.get("translations") or {}))
    extra = villain.get("exchange", {}).get("mu-db", {})
    uses_m = set(extra.get("move_key_m") or [])
    everywhere = extra.get("move_key", "movement")
    plans = [
        cards.plan_to(
            item, i, villain, tx, ctx.letters, ctx.marks, "M" if i in uses_m else everywhere
        )
        for i, item in enumerate((villain.get("masterplan") or {}).get("cards") or [])
    ]
    threats = [
        cards.threat_to(item, i, tx, ctx.letters, ctx.marks)
        for i, item in enumerate((villain.get("threats") or {}).get("cards") or [])
    ]
    return plans + threats
