"""Write Tabletop Simulator decks: card pictures from the proof renderer, sheets, JSON.

Each deck (the proof cards sharing a deck label: a villain's master plan, a threat
deck, a decklist) becomes `<deck>.json` (the saved object), `<deck>-1.png`... (deck
sheets) and `<deck>-back.png` in the output folder.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from cardkit.exchange import tts
from cardkit.files import yamlio
from cardkit.model import Document
from cardkit.render import fonts, pdf, sheet
from cardkit.render.content import ProofCard
from cardkit.render.icons import Forms
from cardkit.rulebook.words import slug


@dataclass
class TtsDeck:
    name: str
    json_path: Path
    sheets: list[Path] = field(default_factory=list)
    back: Path | None = None
    cards: int = 0
    thumbnail: Path | None = None  # `<deck>.png` beside the JSON: the Saved Objects browser's
    keys: int = 0  # CustomDeck keys this deck takes


def pictures(
    cards: Sequence[ProofCard], size: tuple[int, int], *, backs: bool = False
) -> list[Any]:
    """Each card painted by the proof renderer on a card-sized page, rasterised to `size`.

    Identical cards are painted once.
    """
    from reportlab.pdfgen.canvas import Canvas

    fonts.register()
    unique: dict[str, int] = {}
    order = [unique.setdefault(repr(card), len(unique)) for card in cards]
    firsts = {index: card for card in cards for index in [unique[repr(card)]]}
    w, h = size_of(cards[0]) if cards else (1.0, 1.0)
    stream = io.BytesIO()
    canvas = Canvas(stream, pagesize=(w, h), invariant=1, initialFontName=fonts.REGULAR)
    forms = Forms(canvas)
    for index in range(len(unique)):
        if backs:
            pdf.back(canvas, firsts[index], sheet.Box(0, 0, w, h), 0.0)
        else:
            pdf.front(canvas, firsts[index], sheet.Box(0, 0, w, h), 0.0, forms)
        canvas.showPage()
    canvas.save()
    rendered = pdf.to_png(stream.getvalue(), dpi=round(size[0] / w * 72))
    images = [image.convert("RGB").resize(size) for image in rendered]
    return [images[i] for i in order]


def compose(images: Sequence[Any], grid: tts.Sheet, size: tuple[int, int]) -> Any:
    """One deck sheet: the images in their cells, row by row; empty cells stay white."""
    from PIL import Image

    board = Image.new("RGB", (grid.cols * size[0], grid.rows * size[1]), "white")
    for offset, image in enumerate(images):
        left, top, _, _ = tts.cell(grid, offset, size)
        board.paste(image, (left, top))
    return board


def _png(image: Any) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def _url(path: Path, base_url: str | None) -> str:
    """The image's URL: under `base_url`, else a file:// URL; percent-encoded either way
    (a space or `#` in a folder or deck name would cut a URL TTS fetches)."""
    if not base_url:
        return path.resolve().as_uri()
    parts = urlsplit(base_url.strip())
    folder = quote(unquote(parts.path.rstrip("/")), safe="/@:+,;=!$&'()*~")
    return urlunsplit((parts.scheme, parts.netloc, f"{folder}/{quote(path.name)}", "", ""))


def size_of(card: ProofCard) -> tuple[float, float]:
    """The card's printed size in points (render/formats.yaml, per system and kind)."""
    return sheet.card_size(card.system, card.kind)


def decks(cards: Sequence[ProofCard]) -> dict[str, list[ProofCard]]:
    """Proof cards grouped into decks by their deck label, in first-seen order.

    A TTS deck holds cards of one size: a label whose cards differ in size is split,
    each part named with its kind (`Klaw · Dashboard (dashboard)`).
    """
    grouped: dict[tuple[str, tuple[float, float]], list[ProofCard]] = {}
    for card in cards:
        grouped.setdefault((card.deck, size_of(card)), []).append(card)
    labels = [deck for deck, _ in grouped]
    return {
        (deck if labels.count(deck) == 1 else f"{deck} ({members[0].kind})"): members
        for (deck, _), members in grouped.items()
    }


def back_links(documents: Sequence[Document]) -> dict[str, str]:
    """Document id -> the id of the document printed on its back (a `back_link` field)."""
    return {
        str(doc.id): slug(str(doc.data["back_link"]))
        for doc in documents
        if doc.id and isinstance(doc.data.get("back_link"), str)
    }


def pair_faces(
    cards: Sequence[ProofCard], links: Mapping[str, str]
) -> tuple[list[ProofCard], list[ProofCard | None]]:
    """The deck's cards, each with its own back (the card its `back_link` names) or None.

    A card that is another card's back in this deck is not a card of its own; copies pair
    in order. A back whose front is not in the deck stays a card.
    """
    present = {card.doc_id for card in cards}
    wanted = {links[c.doc_id] for c in cards if c.doc_id in links and links[c.doc_id] in present}
    pool: dict[str, list[ProofCard]] = {}
    for card in cards:
        if card.doc_id in wanted:
            pool.setdefault(card.doc_id, []).append(card)
    fronts: list[ProofCard] = []
    backs: list[ProofCard | None] = []
    for card in cards:
        if card.doc_id in wanted:
            continue
        own = pool.get(links.get(card.doc_id, ""), [])
        fronts.append(card)
        backs.append(own.pop(0) if own else None)
    fronts += [card for left in pool.values() for card in left]
    backs += [None] * (len(fronts) - len(backs))
    return fronts, backs


def _write_sheets(images: Sequence[Any], size: tuple[int, int], stem: str, out: Path) -> list[Path]:
    paths = []
    for grid in tts.sheets(len(images)):
        path = out / f"{stem}-{grid.key}.png"
        chunk = images[grid.first : grid.first + grid.count]
        yamlio.atomic_write(path, _png(compose(chunk, grid, size)))
        paths.append(path)
    return paths


THUMBNAIL = 256  # px a side: the Saved Objects browser's tile


def thumbnail(picture: Any) -> Any:
    """The deck's first card, fitted into a square tile on white."""
    from PIL import Image

    tile = Image.new("RGB", (THUMBNAIL, THUMBNAIL), "white")
    card = picture.copy()
    card.thumbnail((THUMBNAIL - 8, THUMBNAIL - 8))
    tile.paste(card, ((THUMBNAIL - card.width) // 2, (THUMBNAIL - card.height) // 2))
    return tile


_OWN_FILES = re.compile(r"(\d+|back|back-\d+)")  # what a deck adds to its stem: -1, -back-1


def _clash(stem: str, other: str) -> bool:
    """True when one deck's files could be named as the other's (`x-1.png`: deck x's first
    sheet, and deck x-1's thumbnail)."""
    if stem == other:
        return True
    short, long = sorted((stem, other), key=len)
    return long.startswith(short + "-") and bool(_OWN_FILES.fullmatch(long[len(short) + 1 :]))


def own_stem(stem: str, taken: list[str]) -> str:
    """`stem`, or `stem-deck2`... when a deck already written would share a file with it."""
    found, n = stem, 1
    while any(_clash(found, other) for other in taken):
        n += 1
        found = f"{stem}-deck{n}"
    taken.append(found)
    return found


def write_deck(
    name: str,
    cards: Sequence[ProofCard],
    out: Path,
    *,
    base_url: str | None = None,
    links: Mapping[str, str] | None = None,
    other_side: Mapping[str, ProofCard] | None = None,
    first_key: int = 1,
    stem: str | None = None,
) -> TtsDeck:
    """Sheets, back(s), saved object and thumbnail for one deck; written atomically.

    With `links` (see back_links) or `other_side` (a card's printed other side by its
    `source`, as proofs pair a dashboard and its back), a double-sided card becomes one
    card whose back shows its other side: the backs are then sheets of the same grid
    (`<deck>-back-1.png`...). `first_key` is the deck's first CustomDeck key.
    """
    out.mkdir(parents=True, exist_ok=True)
    stem = stem or slug(name)
    size = tts.card_pixels(*size_of(cards[0]))
    fronts, own = pair_faces(cards, links or {})
    sides = other_side or {}
    own = [back or sides.get(card.source) for card, back in zip(fronts, own, strict=True)]
    result = TtsDeck(name, out / f"{stem}.json", cards=len(fronts))
    faces = pictures(fronts, size)
    result.sheets = _write_sheets(faces, size, stem, out)
    result.thumbnail = out / f"{stem}.png"
    yamlio.atomic_write(result.thumbnail, _png(thumbnail(faces[0])))
    common = pictures(fronts[:1], size, backs=True)[0]
    result.back = out / f"{stem}-back.png"
    yamlio.atomic_write(result.back, _png(common))
    back_urls: str | list[str] = _url(result.back, base_url)
    if any(own):
        paired = [card for card in own if card is not None]
        painted = iter(pictures(paired, size))
        images = [common if card is None else next(painted) for card in own]
        back_urls = [_url(p, base_url) for p in _write_sheets(images, size, f"{stem}-back", out)]
    saved = tts.saved_object(
        name,
        [tts.DeckCard(card.title, card.text) for card in fronts],
        [_url(path, base_url) for path in result.sheets],
        back_urls,
        first_key=first_key,
        sideways=size[0] > size[1],
    )
    result.keys = len(result.sheets)
    yamlio.atomic_write(result.json_path, json.dumps(saved, indent=2, ensure_ascii=False) + "\n")
    return result


def export(
    cards: Sequence[ProofCard],
    out: Path,
    *,
    base_url: str | None = None,
    links: Mapping[str, str] | None = None,
) -> list[TtsDeck]:
    """Every deck of `cards`, each with its own CustomDeck keys. A card that is another's
    printed other side (`back_of`) is that card's back, not a card of its own."""
    fronts, other_side = pdf.two_sided(cards, "long")
    written: list[TtsDeck] = []
    key = 1
    stems: list[str] = []
    for name, members in decks(fronts).items():
        deck = write_deck(
            name,
            members,
            out,
            base_url=base_url,
            links=links,
            other_side=other_side,
            first_key=key,
            stem=own_stem(slug(name), stems),
        )
        key += deck.keys
        written.append(deck)
    return written
