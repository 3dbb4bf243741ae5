"""Champions decklist proxies carry their cards: joined to the tree's marvelsdb card files
by code, else by name and set; text markup printed bold, italic and as icons."""

from __future__ import annotations

import io
from pathlib import Path

from pypdf import PdfReader

from cardkit.gaps import rows as gaps
from cardkit.render import content, pdf, sheet
from cardkit.render.text_fit import BOLD_OFF, BOLD_ON, ITALIC_OFF, ITALIC_ON
from tests.conftest import ROOT, run_cli

CORE = ROOT / "tests/data/marvelsdb/pack/core.json"
DECK = """\
kind: marvel-champions/decklist
id: spidey-justice
name: Spider-Man / Justice
hero: Spider-Man
aspect: Justice
groups:
  - name: Spider-Man cards
    role: hero
    cards:
      - {name: Backflip, count: 2}
      - {name: Web Shooter (by its code), count: 1, code: "01008"}
  - name: Justice cards
    role: aspect
    cards:
      - {name: For Justice!, count: 1}
      - {name: Not A Real Card, count: 2}
"""
# a second "Backflip" in another set: the hero group's line must take Spider-Man's
OTHER_BACKFLIP = """\
kind: marvel-champions/card
id: other-backflip
code: "99001"
name: Backflip
type_code: event
faction_code: justice
pack_code: other
cost: 5
text: Not the Spider-Man card.
"""


def _tree(tmp_path: Path) -> Path:
    cards = tmp_path / "cards"
    imported = run_cli(["import", "marvelsdb", str(CORE), "--out", str(cards / "core")])
    assert imported.returncode == 0, imported.stderr
    (cards / "deck.yaml").write_text(DECK, encoding="utf-8")
    (cards / "other-backflip.yaml").write_text(OTHER_BACKFLIP, encoding="utf-8")
    return cards


def _deck_cards(tmp_path: Path) -> tuple[list[content.ProofCard], list[str]]:
    documents, problems = gaps.load([_tree(tmp_path)])
    assert not problems, problems
    warnings: list[str] = []
    cards = [c for c in content.collect(documents, warnings.append) if c.doc_id == "spidey-justice"]
    return cards, warnings


def test_decklist_lines_print_their_cards(tmp_path: Path) -> None:
    cards, warnings = _deck_cards(tmp_path)
    assert [c.title for c in cards] == [
        "Backflip",
        "Backflip",
        "Web-Shooter",  # joined by code: the card file's name
        "For Justice!",
        "Not A Real Card",
        "Not A Real Card",
    ]
    backflip = cards[0]
    # marvelsdb 01003: cost 0, event, traits "Defense. Skill.", one physical resource
    assert backflip.kind == "event" and backflip.stats == (("Cost", "0"),)
    assert backflip.tags == ("Event", "Defense. Skill.")
    assert backflip.icon_rows == (("physical",),)
    assert [c.corner for c in cards[:2]] == ["1/2", "2/2"]  # the deck's count, not quantity
    # "<b>Interrupt</b> <i>(defense)</i>: When you would take any amount of damage..."
    assert backflip.text.startswith(
        f"{BOLD_ON}Interrupt{BOLD_OFF} {ITALIC_ON}(defense){ITALIC_OFF}"
    )
    assert "Not the Spider-Man card" not in backflip.text  # name + set: Spider-Man's Backflip
    assert cards[3].stats == (("Cost", "2"),) and cards[3].icon_rows == (("energy",),)
    assert "{mental}" in cards[3].text  # [mental] in marvelsdb text: the inline icon
    assert {c.deck for c in cards} == {"Spider-Man / Justice"}
    # the line with no card file: one warning (for two copies), nothing written on the face
    missing = [w for w in warnings if "Not A Real Card" in w]
    assert len(missing) == 1 and "no card file in this tree" in missing[0]
    assert cards[4].text == "" and cards[4].tags == ("Justice cards", "Justice")


def test_the_pdf_prints_markup_in_bold_and_italic(tmp_path: Path) -> None:
    cards, _ = _deck_cards(tmp_path)
    layout = sheet.layout("a4", sheet.card_size("marvel-champions", "event"), 0)
    data = pdf.render(cards, lambda size: layout)
    drawn: list[tuple[str, str]] = []

    def visit(text: str, cm: object, tm: object, font: dict | None, size: float) -> None:  # type: ignore[type-arg]
        if text.strip() and font:
            drawn.append((text.strip(), str(font.get("/BaseFont"))))

    PdfReader(io.BytesIO(data)).pages[0].extract_text(visitor_text=visit)
    fonts = {}
    for text, font in drawn:
        fonts.setdefault(text, font)
    assert fonts["Interrupt"].endswith("-Bold")
    assert fonts["(defense)"].endswith("-Oblique")
    assert fonts["Hero Action"].endswith("-Bold")  # For Justice!
    assert fonts[": When you"].endswith("-Roman")  # back to regular after the span
    # italic carried over a line break: Web-Shooter's "(Enters play with 3 counters...)"
    assert any(f.endswith("-Oblique") and t.startswith("play with 3 counters") for t, f in drawn)
    text = " ".join(t for t, _ in drawn)
    assert "not transcribed" not in text
