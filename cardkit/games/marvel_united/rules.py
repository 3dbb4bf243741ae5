"""Marvel United rules: what a schema cannot see, from deck sizes to what gap notes claim.

Each finding here is also an inferred gap for `cardkit gaps`. Things that are
consistent stay quiet: a sheet that declares extra cards, henchmen beside threats,
a challenge printed on another villain's sheet.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from cardkit import systems
from cardkit.check.rules import DocumentRef, Finding, document_rule, ref, stream_rule
from cardkit.games.marvel_united import (
    gapnotes,
    placement,
    slips,  # noqa: F401  (registers MU131)
)
from cardkit.games.marvel_united.note_rules import all_gaps
from cardkit.model import Document, Pointer, Severity
from cardkit.rulebook.words import number

SYSTEM = "marvel-united"
VILLAIN = [f"{SYSTEM}/villain"]
DEFAULT_DECK = {"masterplan": 12, "threats": 6}
MAX_SLOT = 5  # no printed diagram shows more tokens of one kind in one slot
Result = Iterator[tuple[Pointer, str]]


def _numbers(text: str) -> set[int]:
    words = re.findall(r"\b(\w+)\b", text.lower())
    return {value for w in words if (value := number(w)) is not None}


def _intro_text(part: dict[str, Any]) -> str:
    return " ".join(item for item in part.get("intro", []) if isinstance(item, str))


def deck_sizes(document: Document) -> dict[str, int]:
    """A box's deck sizes from its components ("60 Master Plan Cards (12 for each Villain)")."""
    sizes: dict[str, int] = {}
    for component in document.data.get("components", []):
        name, each = str(component.get("name", "")).lower(), component.get("each")
        if each is None or component.get("per", "").lower() != "villain":
            continue
        if "master plan" in name:
            sizes["masterplan"] = int(each)
        elif "threat" in name:
            sizes["threats"] = int(each)
    return sizes


def threat_total(cards: list[dict[str, Any]]) -> int:
    return sum(int(c.get("copies", 1)) for c in cards if c.get("type") != "challenge")


@stream_rule(
    "MU101",
    Severity.WARNING,
    "A deck has not the number of cards its box says (12 master plan, 6 threat).",
    system=SYSTEM,
    restates=("MU102",),
)
class DeckSize:
    """Compares each villain's decks with its box's sizes: at once when the box's manifest
    was seen already (or it names none), otherwise once the whole tree is seen."""

    def __init__(self) -> None:
        self.sizes: dict[str, dict[str, int]] = {}
        self.waiting: list[tuple[DocumentRef, str, int, int | None, frozenset[int]]] = []

    def see(self, doc: Document) -> Iterator[Finding]:
        if doc.kind == f"{SYSTEM}/box" and doc.id is not None:
            self.sizes[doc.id] = deck_sizes(doc)
        elif doc.kind == f"{SYSTEM}/villain":
            threats = doc.data.get("threats", {})
            box = doc.data.get("box")
            counts = (
                len(doc.data.get("masterplan", {}).get("cards", [])),
                threat_total(threats["cards"]) if threats.get("cards") else None,
                frozenset(_numbers(_intro_text(threats))),
            )
            if box is None or str(box) in self.sizes:
                yield from self._compare(doc, str(box), *counts)
            else:
                self.waiting.append((ref(doc), str(box), *counts))

    def finish(self, outside_ids: dict[tuple[str, str], str]) -> Iterator[Finding]:
        for waiting in self.waiting:
            yield from self._compare(*waiting)

    def _compare(
        self,
        doc: Document | DocumentRef,
        box: str,
        masterplan: int,
        total: int | None,
        said: frozenset[int],
    ) -> Iterator[Finding]:
        expected = {**DEFAULT_DECK, **self.sizes.get(box, {})}
        if masterplan and masterplan != expected["masterplan"]:
            yield Finding(
                doc,
                ("masterplan", "cards"),
                f"the master plan deck lists {masterplan} of {expected['masterplan']} cards",
            )
        explained = {total, expected["threats"]} <= said
        if total is not None and total != expected["threats"] and not explained:
            yield Finding(
                doc,
                ("threats", "cards"),
                f"the threat deck holds {total} cards, not {expected['threats']}",
            )


@document_rule(
    "MU102",
    Severity.WARNING,
    "A threat deck's declared count disagrees with the cards listed.",
    system=SYSTEM,
    kinds=VILLAIN,
)
def declared_count(doc: Document) -> Result:
    threats = doc.data.get("threats", {})
    declared = threats.get("declared", {}).get("count")
    cards = threats.get("cards", [])
    total = threat_total(cards)
    explained = total in _numbers(_intro_text(threats))
    if declared is not None and cards and total != declared and not explained:
        yield (
            ("threats", "declared", "count"),
            f"the deck is declared as {declared} cards but lists {total}",
        )


@document_rule(
    "MU103",
    Severity.ERROR,
    "Two master plan cards carry the same number.",
    system=SYSTEM,
    kinds=VILLAIN,
)
def duplicate_numbers(doc: Document) -> Result:
    seen: set[int] = set()
    for index, card in enumerate(doc.data.get("masterplan", {}).get("cards", [])):
        if card["n"] in seen:
            yield (
                ("masterplan", "cards", index, "n"),
                f"master plan card {card['n']} is listed twice",
            )
        seen.add(card["n"])


@document_rule(
    "MU104",
    Severity.WARNING,
    "Master plan card numbers skip a number.",
    system=SYSTEM,
    kinds=VILLAIN,
)
def numbering_gaps(doc: Document) -> Result:
    numbers = [c["n"] for c in doc.data.get("masterplan", {}).get("cards", [])]
    if numbers:
        missing = sorted(set(range(1, max(numbers) + 1)) - set(numbers))
        if missing:
            yield (
                ("masterplan", "cards"),
                f"master plan cards {', '.join(map(str, missing))} are missing from the numbering",
            )


def _dashboard(doc: Document) -> dict[str, Any] | None:
    """The Dashboard's fields, or None when there is none or it was kept verbatim."""
    dashboard = doc.data.get("dashboard")
    return dashboard if isinstance(dashboard, dict) and "body" not in dashboard else None


_NEVER_DAMAGED = re.compile(r"\bcan(?:not|'t| never) be damaged\b")
# The Overflow case (a token that cannot be placed) may be written into the Villainous Plot.
_OVERFLOW_CASE = re.compile(r"\bcan(?:not|'t) be added to a Location\b")


@document_rule(
    "MU107",
    Severity.WARNING,
    "A player-count table is missing, incomplete or shrinks as Heroes are added.",
    system=SYSTEM,
    kinds=VILLAIN,
)
def player_count(doc: Document) -> Result:
    dashboard = _dashboard(doc)
    if dashboard is None:
        return
    table = dashboard.get("player_count")
    if table is None and _NEVER_DAMAGED.search(str(dashboard.get("special_rules", ""))):
        return  # no Health to scale with the Heroes: the Dashboard needs no table
    explained = any("player_count" in gapnotes.mentions(g["note"]) for _, g in all_gaps(doc))
    if table is None:
        if not explained:
            yield ("dashboard",), "the Dashboard has no player-count table"
        return
    heroes = table["heroes"]
    absent = [n for n in ("2", "3", "4") if n not in heroes]
    if absent:
        yield ("dashboard", "player_count", "heroes"), f"no entry for {', '.join(absent)} Heroes"
    blank = [n for n, v in heroes.items() if v is None]
    if blank:
        yield (
            ("dashboard", "player_count", "heroes"),
            f"the {', '.join(blank)} Heroes entries have no number",
        )
    values = [
        (int(n), v) for n, v in sorted(heroes.items(), key=lambda kv: int(kv[0])) if v is not None
    ]
    for (n1, v1), (n2, v2) in itertools.pairwise(values):
        if v2 < v1:
            yield (
                ("dashboard", "player_count", "heroes", str(n2)),
                f"the value drops from {v1} ({n1} Heroes) to {v2} ({n2} Heroes)",
            )


@document_rule(
    "MU108",
    Severity.WARNING,
    "A Dashboard lacks BAM!, Overflow or a Villainous Plot / Heroic Goal.",
    system=SYSTEM,
    kinds=VILLAIN,
)
def dashboard_sections(doc: Document) -> Result:
    dashboard = _dashboard(doc)
    if dashboard is None:
        return
    intro = " ".join(i for i in dashboard.get("intro", []) if isinstance(i, str))
    noted = " ".join(g["note"] for _, g in all_gaps(doc)) + " " + intro  # "... is on its flipside"
    wanted = {"bam": "BAM!", "overflow": "Overflow"}
    plot = json.dumps(dashboard.get("villainous_plot", ""))
    for key, label in wanted.items():
        if key == "overflow" and _OVERFLOW_CASE.search(plot):
            continue
        if key not in dashboard and label not in noted:
            yield ("dashboard",), f"the Dashboard has no {label} effect"
    if not {"villainous_plot", "heroic_goal"} & set(dashboard) and "Villainous Plot" not in noted:
        yield ("dashboard",), "the Dashboard has no Villainous Plot or Heroic Goal"


@document_rule(
    "MU109",
    Severity.WARNING,
    "A villain with a Dashboard has no threat or no master plan cards.",
    system=SYSTEM,
    kinds=VILLAIN,
)
def missing_decks(doc: Document) -> Result:
    if "dashboard" not in doc.data:
        return
    for part, label in (("threats", "threat"), ("masterplan", "master plan")):
        if not doc.data.get(part, {}).get("cards") and "body" not in doc.data.get(part, {}):
            yield (part,), f"no {label} cards are transcribed"


@document_rule(
    "MU110",
    Severity.WARNING,
    "A placement's counts are implausible or disagree with its kept wording.",
    system=SYSTEM,
    kinds=VILLAIN,
)
def placement_sanity(doc: Document) -> Result:
    for index, card in enumerate(doc.data.get("masterplan", {}).get("cards", [])):
        place = card.get("place")
        if not isinstance(place, dict):
            continue
        where: Pointer = ("masterplan", "cards", index, "place")
        for slot, tokens in placement.counts(place).items():
            for token, count in tokens.items():
                if count > MAX_SLOT:
                    yield (
                        (*where, slot, token),
                        f"card {card['n']} places {count} {token} tokens in one slot",
                    )
                if count == 0:
                    yield (
                        (*where, slot, token),
                        f"card {card['n']} lists 0 {token} tokens; leave the token out instead",
                    )
        kept = place.get("text")
        if isinstance(kept, str) and placement.parse(kept) != placement.counts(place):
            yield (
                (*where, "text"),
                f"card {card['n']}'s kept wording no longer matches its counts; "
                "export prints the counts",
            )
        if not placement.counts(place):
            yield (
                where,
                f"card {card['n']} has a placement with no tokens; "
                "write 'none' for 'No tokens placed'",
            )


def _placements(doc: Document) -> Iterator[tuple[Pointer, str, dict[str, Any]]]:
    """Each placement of a villain or a lone Master Plan card: where, which card, the value."""
    if doc.kind == f"{SYSTEM}/masterplan-card":
        card = doc.data.get("card", {})
        if isinstance(card.get("place"), dict):
            yield ("card", "place"), f"card {card.get('n', '?')}", card["place"]
        return
    for index, card in enumerate(doc.data.get("masterplan", {}).get("cards", [])):
        if isinstance(card.get("place"), dict):
            yield ("masterplan", "cards", index, "place"), f"card {card['n']}", card["place"]


def _unknown(vocabulary: systems.Vocabulary, role: str, name: str) -> str | None:
    token = vocabulary.get(name)
    if token is not None and token.role == role:
        return None  # declared with that role (what the lookup below finds, without building it)
    allowed = systems.Vocabulary(f"{SYSTEM} {role}", vocabulary.with_role(role))
    try:
        allowed.get_token(name)
    except systems.UnknownName as err:
        return str(err)
    return None


@stream_rule(
    "MU130",
    Severity.ERROR,
    "A placement names a token or anchor that the token vocabulary (or the box) does not declare.",
    system=SYSTEM,
)
class DeclaredTokens:
    """Checks placements against the system's tokens plus the box's: at once when the box's
    manifest was seen already (or none is named), otherwise once the whole tree is seen."""

    def __init__(self) -> None:
        self.base = systems.get(SYSTEM).tokens
        self.boxes: dict[str, systems.Vocabulary | None] = {}
        self.waiting: list[tuple[DocumentRef, str, list[tuple[Pointer, str, Any]]]] = []

    def see(self, doc: Document) -> Iterator[Finding]:
        if doc.kind == f"{SYSTEM}/box" and doc.id is not None:
            tokens = doc.data.get("tokens")
            self.boxes[str(doc.id)] = self.base.extended(tokens) if tokens else None
        elif doc.kind in (f"{SYSTEM}/villain", f"{SYSTEM}/masterplan-card"):
            box = doc.data.get("box")
            if box is None or str(box) in self.boxes:
                yield from self._check(doc, str(box), _placements(doc))
            else:
                self.waiting.append((ref(doc), str(box), list(_placements(doc))))

    def finish(self, outside_ids: dict[tuple[str, str], str]) -> Iterator[Finding]:
        for doc, box, placements in self.waiting:
            yield from self._check(doc, box, placements)

    def _check(
        self,
        doc: Document | DocumentRef,
        box: str,
        placements: Iterable[tuple[Pointer, str, Any]],
    ) -> Iterator[Finding]:
        declared = self.boxes.get(box)
        vocabulary = self.base if declared is None else declared
        for where, card, place in placements:
            anchor = place.get("anchor", placement.DEFAULT_ANCHOR)
            problem = _unknown(vocabulary, "anchor", str(anchor))
            if problem:
                yield Finding(doc, (*where, "anchor"), f"{card}: {problem}")
            for slot, tokens in placement.counts(place).items():
                for token in tokens:
                    problem = _unknown(vocabulary, "placement", token)
                    if problem:
                        yield Finding(doc, (*where, slot, token), f"{card}: {problem}")
