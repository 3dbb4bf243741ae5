"""Redraw the reference proxy of each kind shown in docs/proofs.md.

`python docs/proof-kinds/regenerate.py` takes a card of each kind from cards/, then
docs/examples/ (the one showing the most: a diagram, a doubt, stats), prints it alone
through the real renderer and keeps the card's trim as a small palette PNG.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cardkit.gaps import rows as gaps  # noqa: E402
from cardkit.render import content, pdf, sheet  # noqa: E402

DPI = 113  # a poker card comes out 283 px wide: legible, and small in the repository
WANTED = {
    ("marvel-united", "masterplan"),
    ("marvel-united", "threat"),
    ("marvel-united", "henchman"),
    ("marvel-united", "hero"),
    ("marvel-united", "weak-spot"),
    ("marvel-united", "equipment"),
    ("marvel-united", "location"),
    ("marvel-united", "achievements"),
    ("marvel-united", "dashboard"),
    ("marvel-united", "dashboard-back"),
    ("marvel-champions", "side-scheme"),
    ("marvel-champions", "decklist"),
    ("villainous", "villain-card"),
    ("villainous", "objective"),
    ("villainous", "location"),
    ("villainous", "board"),
    ("marvel-champions", "event"),  # a decklist line printed from its marvelsdb card file
}
# Marvel Champions player cards come from marvelsdb (`cardkit import marvelsdb`); the
# tests' ISC excerpt of the Core Set stands in for them, with a decklist naming some.
MARVELSDB = ROOT / "tests" / "data" / "marvelsdb" / "pack" / "core.json"
DECK = """\
kind: marvel-champions/decklist
id: reference-deck
name: Spider-Man / Justice
hero: Spider-Man
aspect: Justice
groups:
  - {name: Justice cards, role: aspect, cards: [{name: For Justice!, count: 1}]}
"""


def _shows(card: content.ProofCard) -> tuple[bool, bool, bool, bool]:
    """What a reference card should show, most wanted first: a diagram, a doubt, stats."""
    return (card.placement is not None, bool(card.unconfirmed), bool(card.stats), bool(card.text))


def first_of_each() -> dict[tuple[str, str], content.ProofCard]:
    """The card of each kind that shows the most (the first such, in file order)."""
    import tempfile

    from cardkit.games.marvel_champions import marvelsdb_files

    found: dict[tuple[str, str], content.ProofCard] = {}
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        marvelsdb_files.write_import(marvelsdb_files.plan_import([MARVELSDB], scratch), force=True)
        (scratch / "deck.yaml").write_text(DECK, encoding="utf-8")
        loaded = [gaps.load([s])[0] for s in (ROOT / "cards", ROOT / "docs" / "examples", scratch)]
    for source, documents in zip(("cards", "examples", "scratch"), loaded, strict=True):
        for card in content.collect(documents):
            if source == "scratch" and card.doc_id != "reference-deck":
                continue  # from the scratch tree, only the decklist's joined card
            key = (card.system, card.kind)
            if key in WANTED and (key not in found or _shows(card) > _shows(found[key])):
                found[key] = card
    return found


def draw(card: content.ProofCard) -> bytes:
    size = sheet.card_size(card.system, card.kind)
    layout = sheet.layout("a4", size, 0)
    (page,) = pdf.to_png(pdf.render([card], layout), DPI, pages=1)
    trim = layout.trims[0]
    scale = DPI / 72
    top = layout.paper.h - trim.y - trim.h
    box = (trim.x * scale, top * scale, (trim.x + trim.w) * scale, (top + trim.h) * scale)
    image = page.crop(tuple(round(v) for v in box)).convert("RGB").quantize(64)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def main() -> None:
    here = Path(__file__).resolve().parent
    found = first_of_each()
    missing = sorted(WANTED - set(found))
    if missing:
        raise SystemExit(f"no card of kind {missing} in cards or docs/examples")
    for (system, kind), card in sorted(found.items()):
        target = here / f"{system}-{kind}.png"
        target.write_bytes(draw(card))
        print(f"wrote {target.relative_to(ROOT)} from {card.source}")


if __name__ == "__main__":
    main()
