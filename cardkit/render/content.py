"""What a proxy card shows: plain values collected from the documents.

A card knows which of its values are unconfirmed, so the painter can mark them.
Each system turns its documents into cards in its own `proof` module
(`cardkit/systems/<system>/proof.py`, a `collect(doc, warn)` function). A system
without one declares `PROOF_KINDS` (kind -> `single` or `sheet`) and the
generic collectors here print it. This module never names a system.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from cardkit import suggest
from cardkit.model import Document

MAX_COPIES = 100  # a card asking for more prints this many, with a warning
Warn = Callable[[str], None]


class Figure(Protocol):
    """What a game draws on a card between its stats and its text (Marvel United: the
    placement diagram). `doubtful` is the card's unconfirmed fields."""

    def draw(self, c: Any, forms: Any, box: Any, doubtful: frozenset[str]) -> None: ...


@dataclass(frozen=True)
class ProofCard:
    system: str
    deck: str  # shown on the back and in the footer: "Klaw · Master Plan"
    title: str
    corner: str = ""  # a number or value in the top right: the Move, a count
    tags: tuple[str, ...] = ()  # BAM!, Ritual, Henchman
    text: str = ""
    figure: Figure | None = None  # a game's drawing between stats and text (a placement)
    unconfirmed: frozenset[str] = field(default_factory=frozenset)
    source: str = ""  # file and card, for the proof's fine print and warnings
    kind: str = "card"  # what it is printed as: masterplan, threat, hero, location...
    doc_id: str = ""
    box: str = ""
    stats: tuple[tuple[str, str], ...] = ()  # (label, value): Health 5, Cost 2
    icon_rows: tuple[tuple[str, ...], ...] = ()  # icon names, `name:value` adds a number
    back_title: str = ""  # the back's big line (defaults to the deck)
    scan: str = ""  # print from this image (resolved, inside the repository) instead
    scan_region: tuple[int, int, int, int] | None = None
    scan_turn: int = 0  # degrees counter-clockwise the squared scan turns to stand upright
    back_of: str = ""  # this is the other side of the card whose `source` this names
    pointer: tuple[str | int, ...] = ()  # where in its document the card is (for links)
    panels: tuple[ProofCard, ...] = ()  # a board: its parts side by side (text below them)


def text_of(value: Any) -> str:
    """Plain text from a text field: a string, a list, or bullets/steps."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return " ".join(text_of(v) for v in value)
    if isinstance(value, dict):
        for key in ("bullets", "steps"):
            if key in value:
                return " ".join(text_of(v) for v in value[key])
        if "text" in value:
            return text_of(value["text"])
    return ""


def marks(card: dict[str, Any]) -> frozenset[str]:
    """Unconfirmed fields, and those an open note inside the card names."""
    found = {str(m).split("/")[0] for m in card.get("unconfirmed", [])}
    note = card.get("gap")
    if isinstance(note, dict) and note.get("status") == "open":
        found.update(str(f).split("/")[0] for f in note.get("fields", []))
    return frozenset(found)


def copies_of(value: Any, source: str, warn: Warn) -> int:
    """How many copies to print: at least 1, at most MAX_COPIES (with a warning)."""
    try:
        copies = int(value)
    except (TypeError, ValueError):
        return 1
    if copies > MAX_COPIES:
        warn(f"{source}: copies: {copies} is more than {MAX_COPIES}; printing {MAX_COPIES}")
        return MAX_COPIES
    return max(1, copies)


def hook(system: str, name: str) -> Any:
    """A function from the system's `proof` module (`collect`, `form`), if it has one."""
    from cardkit import systems

    try:
        proof = systems.get(system).hook("proof")
    except LookupError:
        return None
    return getattr(proof, name, None) if proof is not None else None


def from_scan(doc: Document, cards: list[ProofCard], warn: Warn) -> list[ProofCard]:
    """A one-card document naming its scan (`provenance.scan`) prints from that image."""
    from cardkit.render import scan_image as scan

    provenance = doc.data.get("provenance")
    if not isinstance(provenance, dict) or not provenance.get("scan") or len(cards) != 1:
        return cards
    try:
        settings = provenance.get("settings")
        turn = settings.get("rotation", 0) if isinstance(settings, dict) else 0
        ref = scan.resolve(
            doc.path,
            str(provenance["scan"]),
            provenance.get("region"),
            turn,
            provenance.get("sha256"),
        )
    except scan.ScanRefused as err:
        warn(f"{doc.display_path}: {err}; printed as a drawn proxy")
        return cards
    return [replace(cards[0], scan=str(ref.path), scan_region=ref.region, scan_turn=ref.rotation)]


def collect(
    documents: Iterable[Document], warn: Warn | None = None, scans: bool = False
) -> list[ProofCard]:
    """Every printable card, in document order (from their scans, when `scans` and named)."""
    found: list[ProofCard] = []
    say: Warn = warn or (lambda message: None)
    documents = list(documents)
    # a system's `prepare(documents)` reads the whole tree once (Champions: the card files
    # a decklist's lines join to); its `collect` then gets what it made
    contexts: dict[str, Any] = {}
    for system in dict.fromkeys(doc.system for doc in documents):
        prepare = hook(system, "prepare")
        if prepare is not None:
            contexts[system] = prepare(documents)
    for doc in documents:
        if scans:
            found += from_scan(doc, collect([doc], say), say)
            continue
        if doc.data.get("face", "front") != "front":
            continue  # a scan of a back or a portrait side: nothing to print as a front
        paint = hook(doc.system, "collect")
        if paint is not None:
            found += (
                paint(doc, say, contexts[doc.system]) if doc.system in contexts else paint(doc, say)
            )
            continue
        how = _declared_kinds(doc.system).get(doc.kind.split("/", 1)[-1])
        if how in GENERIC:
            found += GENERIC[how](doc, say)
    return found


def _declared_kinds(system: str) -> dict[str, str]:
    from cardkit import systems

    try:
        return systems.get(system).proof_kinds
    except LookupError:
        return {}


def _base(doc: Document) -> dict[str, Any]:
    return {"system": doc.system, "doc_id": doc.id or "", "box": str(doc.data.get("box", ""))}


def _single(doc: Document, warn: Warn) -> list[ProofCard]:
    """One card document of any system: its name or title, cost, type and rules text."""
    data = doc.data
    name = str(data.get("title") or data.get("name") or doc.id)
    cost = data.get("cost")
    return [
        ProofCard(
            **_base(doc),
            kind=doc.kind.split("/", 1)[-1],
            deck=str(data.get("deck") or data.get("type_code") or doc.kind),
            title=name,
            corner="" if cost is None else f"Cost {cost}",
            tags=tuple(str(data[key]) for key in ("type",) if data.get(key)),
            text=text_of(data.get("ability") or data.get("text") or ""),
            unconfirmed=marks(data),
            source=doc.display_path,
        )
    ]


def _sheet(doc: Document, warn: Warn) -> list[ProofCard]:
    """A file of `cards` (name, text, copies): one proxy per copy."""
    found = []
    deck = str(doc.data.get("name", doc.id))
    for at, card in enumerate(doc.data.get("cards", [])):
        source = f"{doc.display_path} {card.get('name', '')}"
        copies = copies_of(card.get("copies", 1), source, warn)
        found += [
            ProofCard(
                **_base(doc),
                kind=doc.kind.split("/", 1)[-1],
                deck=deck,
                title=str(card.get("name", "")),
                corner=f"{copy}/{copies}" if copies > 1 else "",
                text=text_of(card.get("text", "")),
                unconfirmed=marks(card),
                source=source,
                pointer=("cards", at),
            )
            for copy in range(1, copies + 1)
        ]
    return found


GENERIC: dict[str, Callable[[Document, Warn], list[ProofCard]]] = {
    "single": _single,
    "sheet": _sheet,
}


@dataclass(frozen=True)
class Selection:
    only_unconfirmed: bool = False
    ids: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    boxes: tuple[str, ...] = ()

    def keeps(self, card: ProofCard) -> bool:
        return (
            (not self.only_unconfirmed or bool(card.unconfirmed))
            and (not self.ids or card.doc_id in self.ids)
            and (not self.kinds or card.kind in self.kinds)
            and (not self.boxes or card.box in self.boxes)
        )

    def keeps_document(self, doc_id: str, box: str) -> bool:
        """For what is not a card (a form): only the id and box selections apply."""
        return (
            not self.only_unconfirmed
            and not self.kinds
            and (not self.ids or doc_id in self.ids)
            and (not self.boxes or box in self.boxes)
        )


def select(cards: Sequence[ProofCard], selection: Selection) -> list[ProofCard]:
    return [card for card in cards if selection.keeps(card)]


def chosen(
    cards: Sequence[ProofCard], documents: Sequence[Document], selection: Selection
) -> list[ProofCard]:
    """The cards the selection keeps; a --kind/--id/--box name that nothing has is refused
    first, in one line naming each with the close names (`unmatched`)."""
    unknown = unmatched(cards, documents, selection)
    if unknown:
        from cardkit.errors import UsageError

        raise UsageError("; ".join(unknown))
    return select(cards, selection)


def unmatched(
    cards: Sequence[ProofCard], documents: Sequence[Document], selection: Selection
) -> list[str]:
    """Each --kind/--id/--box name that no card (or form's document) has, with close names.

    A typo then says so instead of printing an empty selection.
    """
    ids = {card.doc_id for card in cards} | {doc.id or "" for doc in documents}
    boxes = {card.box for card in cards} | {str(doc.data.get("box", "")) for doc in documents}
    problems = []
    for option, wanted, have in (
        ("--kind", selection.kinds, {card.kind for card in cards}),
        ("--id", selection.ids, ids),
        ("--box", selection.boxes, boxes),
    ):
        for name in wanted:
            if name not in have:
                hint = suggest.hint(name, have)
                problems.append(f"{option} '{name}' matches nothing here; {hint}")
    return problems
