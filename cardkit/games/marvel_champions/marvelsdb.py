"""marvelsdb JSON <-> Marvel Champions card documents, as pure functions over dicts.

marvelsdb (the public marvelsdb-json-data repository) keeps one list of cards per pack
file: `pack/<pack_code>.json` for player cards and `pack/<pack_code>_encounter.json`
for encounter cards. cardkit's `marvel-champions/card` kind is one card per document
with marvelsdb's own field names and values, text markup included (`[[Trait]]`, `<b>`,
`[boost]`), so the mapping adds cardkit's header (`kind`, and `id` = the code) on the
way in and drops cardkit's own fields on the way out: import then export gives back the
same fields and values. Files are grouped by card set, one folder per `set_code`.
The rules are written out in docs/exchange.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardkit.games.marvel_champions.marvelsdb_json import DEFAULT_INDENT, PackLayout
from cardkit.rulebook.words import slug

KIND = "marvel-champions/card"
DECKLIST_KIND = "marvel-champions/decklist"
ENCOUNTER_FACTIONS = frozenset({"encounter", "campaign"})  # these go to <pack>_encounter.json
# cardkit's header and bookkeeping: never part of a marvelsdb card.
CARDKIT_ONLY = frozenset(
    {
        "kind",
        "id",
        "system",
        "box",
        "source",
        "unconfirmed",
        "confirmations",
        "gaps",
        "notes",
        "kept_text",
        "provenance",
        "face",
        "villain_ref",
        "marvelsdb",
    }
)
ORIGIN = "marvelsdb"  # where in marvelsdb a card came from and how it was written
LEADING = ("code", "name", "subname", "type_code", "faction_code", "pack_code", "set_code")
NOT_IN_DECK = frozenset({"nemesis", "obligation"})  # encounter cards: not deck slots


def known_fields() -> frozenset[str]:
    """The marvelsdb fields cardkit's card schema names (its own header left out)."""
    from cardkit.schemas import registry

    return frozenset(registry.property_names(KIND, ())) - CARDKIT_ONLY


def document_from_card(
    card: Mapping[str, Any], *, box: str | None = None, origin: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A marvelsdb card as a `marvel-champions/card` document: id = the code, a readable order.

    Fields the schema does not name go, unchanged, to `marvelsdb.extra`; `origin` (the
    pack file, the place in it, the source's layout) goes to `marvelsdb` too, so export
    puts the card back where and as it was.
    """
    known = known_fields()
    doc: dict[str, Any] = {"kind": KIND, "id": slug(str(card.get("code", "")))}
    if box:
        doc["box"] = box
    doc.update((k, card[k]) for k in LEADING if k in card)
    doc.update((k, card[k]) for k in sorted(card) if k not in doc and k in known)
    block: dict[str, Any] = dict(origin or {})
    if list(card) != sorted(card):
        block["keys"] = list(card)
    extra = {k: card[k] for k in card if k not in known}
    if extra:
        block["extra"] = extra
    if block:
        doc[ORIGIN] = block
    return doc


def card_from_document(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The marvelsdb card of a document: cardkit's own fields left out, kept fields put
    back, keys in the source's order (alphabetical when the source's was, or unknown)."""
    block = origin(doc)
    fields = {k: v for k, v in doc.items() if k not in CARDKIT_ONLY}
    extra = block.get("extra")
    if isinstance(extra, Mapping):
        fields.update((str(k), v) for k, v in extra.items() if k not in fields)
    keys = block.get("keys")
    order = [k for k in keys if k in fields] if isinstance(keys, list) else []
    order += sorted(k for k in fields if k not in order)
    return {k: fields[k] for k in order}


def set_folder(card: Mapping[str, Any]) -> str:
    """The folder a card's file goes in: its set, or `<pack>-<faction>` for set-less cards."""
    if card.get("set_code"):
        return slug(str(card["set_code"]))
    return slug(f"{card.get('pack_code', '')}-{card.get('faction_code', '')}")


def _order(card: Mapping[str, Any]) -> tuple[int, str]:
    position = card.get("position")
    return (position if isinstance(position, int) else 1 << 30, str(card.get("code", "")))


def cards_from_documents(documents: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The marvelsdb cards among the documents, in marvelsdb's order (position, code)."""
    found = [card_from_document(d) for d in documents if d.get("kind") == KIND]
    return sorted(found, key=_order)


def pack_file(card: Mapping[str, Any]) -> str:
    """Where marvelsdb keeps a card: `pack/core.json` or `pack/core_encounter.json`."""
    pack = str(card.get("pack_code", "unknown"))
    encounter = card.get("faction_code") in ENCOUNTER_FACTIONS
    return f"pack/{pack}{'_encounter' if encounter else ''}.json"


def pack_files(cards: Iterable[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    files: dict[str, list[Mapping[str, Any]]] = {}
    for card in cards:
        files.setdefault(pack_file(card), []).append(card)
    return dict(sorted(files.items()))


SAFE_FILE = re.compile(r"^pack/[A-Za-z0-9_][A-Za-z0-9_.-]*\.json$")


@dataclass
class PackEntry:
    """A card on its way to a pack file: its fields, its escapes, its place."""

    card: dict[str, Any]
    escaped: str
    place: tuple[int, int, str]  # (0, index) from the source, else (1, position), code


def origin(doc: Mapping[str, Any]) -> Mapping[str, Any]:
    block = doc.get(ORIGIN)
    return block if isinstance(block, Mapping) else {}


def entry_file(doc: Mapping[str, Any], card: Mapping[str, Any]) -> str:
    """The pack file a card goes back to: the one it came from, else marvelsdb's rule."""
    named = origin(doc).get("file")
    return named if isinstance(named, str) and SAFE_FILE.match(named) else pack_file(card)


def pack_entry(doc: Mapping[str, Any]) -> PackEntry:
    card = card_from_document(doc)
    block = origin(doc)
    index = block.get("index")
    escaped = block.get("escaped")
    code = str(card.get("code", ""))
    place = (0, index, code) if isinstance(index, int) else (1, *_order(card))
    return PackEntry(card, escaped if isinstance(escaped, str) else "", place)


def layout_of(docs: Iterable[Mapping[str, Any]]) -> PackLayout:
    """A file's layout as its first card that came from marvelsdb recorded it."""
    for doc in docs:
        block = origin(doc)
        if "index" in block:
            indent = block.get("indent", DEFAULT_INDENT)
            return PackLayout(
                indent if isinstance(indent, str) and not indent.strip() else DEFAULT_INDENT,
                block.get("final_newline", True) is not False,
            )
    return PackLayout()


def catalogue_entries(
    cards: Iterable[Mapping[str, Any]], catalogue: Iterable[Mapping[str, Any]], key: str
) -> list[Mapping[str, Any]]:
    """The entries of a marvelsdb catalogue (sets.json: key `set_code`; packs.json:
    `pack_code`) that the cards use, in the catalogue's order."""
    used = {str(c[key]) for c in cards if c.get(key)}
    return [e for e in catalogue if isinstance(e, Mapping) and str(e.get("code")) in used]


def dump(value: Any) -> str:
    """JSON as marvelsdb-json-data writes it: tab indents, sorted keys, UTF-8 kept."""
    return json.dumps(value, indent="\t", sort_keys=True, ensure_ascii=False) + "\n"


# Decklists ------------------------------------------------------------------------------


@dataclass
class DeckExport:
    """A marvelsdb deck built from a decklist, and what could not be mapped.

    Problems and warnings carry the JSON pointer (as a tuple) of the decklist entry.
    """

    deck: dict[str, Any]
    problems: list[tuple[tuple[str | int, ...], str]] = field(default_factory=list)
    warnings: list[tuple[tuple[str | int, ...], str]] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)


def _candidates(cards: Iterable[Mapping[str, Any]], name: str) -> list[Mapping[str, Any]]:
    """Cards a decklist line can mean: same name, the front face, not a reprint."""
    wanted = name.casefold()
    return [
        c
        for c in cards
        if str(c.get("name", "")).casefold() == wanted
        and not c.get("hidden")
        and not c.get("duplicate_of")
    ]


def _narrow(
    found: list[Mapping[str, Any]], role: str, hero_set: str | None, aspect: str
) -> list[Mapping[str, Any]]:
    """Prefer the card of the group's role: the hero's set, the aspect, or basic."""
    wanted = {"hero": ("set_code", hero_set), "aspect": ("faction_code", aspect)}.get(
        role, ("faction_code", "basic") if role == "basic" else ("", None)
    )
    key, value = wanted
    narrowed = [c for c in found if value and c.get(key) == value]
    return narrowed or found


def deck_from_decklist(
    decklist: Mapping[str, Any], cards: Sequence[Mapping[str, Any]]
) -> DeckExport:
    """A cardkit decklist as a marvelsdb deck: `slots` maps card codes to deck counts.

    A decklist's `count` is copies in this deck; it is never the box `quantity`. A count
    above the card's `deck_limit` is a warning. Nemesis and obligation groups are
    encounter cards that marvelsdb derives from the hero, so they are not slots.
    """
    aspect = str(decklist.get("aspect", "")).strip().lower()
    heroes = [
        c for c in _candidates(cards, str(decklist.get("hero", ""))) if c.get("type_code") == "hero"
    ]
    hero = heroes[0] if len(heroes) == 1 else None
    hero_set = str(hero["set_code"]) if hero and hero.get("set_code") else None
    result = DeckExport(deck={})
    if hero is None:
        result.problems.append(
            (
                ("hero",),
                f"hero '{decklist.get('hero')}' is not one card among the marvelsdb cards given",
            )
        )
    slots: dict[str, int] = {}
    for g, group in enumerate(decklist.get("groups", [])):
        role = str(group.get("role", "other"))
        if role in NOT_IN_DECK:
            result.left_out.append(f"{group.get('name')} ({role}: encounter cards)")
            continue
        for i, entry in enumerate(group.get("cards", [])):
            where: tuple[str | int, ...] = ("groups", g, "cards", i)
            found = _narrow(_candidates(cards, str(entry["name"])), role, hero_set, aspect)
            if not found:
                result.problems.append((where, f"no marvelsdb card is named '{entry['name']}'"))
                continue
            if len({c["code"] for c in found}) > 1:
                codes = ", ".join(sorted(str(c["code"]) for c in found))
                result.problems.append((where, f"'{entry['name']}' could be any of {codes}"))
                continue
            card = found[0]
            code = str(card["code"])
            slots[code] = slots.get(code, 0) + int(entry["count"])
            limit = card.get("deck_limit")
            if isinstance(limit, int) and slots[code] > limit:
                result.warnings.append(
                    (
                        where,
                        f"{slots[code]} copies of {code} '{entry['name']}' exceed "
                        f"its deck_limit {limit}",
                    )
                )
    deck: dict[str, Any] = {"name": decklist.get("name", decklist.get("id", ""))}
    if hero is not None:
        deck["hero_code"] = hero["code"]
        deck["hero_name"] = hero["name"]
    if aspect:
        deck["meta"] = json.dumps({"aspect": aspect})
    intro = decklist.get("intro")
    if isinstance(intro, list):
        deck["description_md"] = "\n\n".join(str(p) for p in intro if isinstance(p, str))
    deck["slots"] = dict(sorted(slots.items()))
    result.deck = deck
    return result
