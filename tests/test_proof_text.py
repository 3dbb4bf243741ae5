"""Proof text and selection: fit or warn, never cut silently; caps; choosing cards."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardkit.check.validate import load_document
from cardkit.gaps import rows as gaps
from cardkit.model import Document
from cardkit.render import content, pdf, sheet
from cardkit.render.content import ProofCard, Selection
from cardkit.render.proof import ProofOptions, make_proof
from tests.conftest import ROOT, run_cli

MU = "marvel-united"
CARD = sheet.card_size(MU)


def _render(card: ProofCard) -> tuple[str, list[str]]:
    warnings: list[str] = []
    data = pdf.render([card], sheet.layout("a4", CARD, 0), warn=warnings.append)
    return PdfReader(io.BytesIO(data)).pages[0].extract_text(), warnings


def test_a_10000_character_name_stays_on_the_card_and_is_reported() -> None:
    name = "Abcdefghij" * 1000
    text, warnings = _render(ProofCard(system=MU, deck="D", title=name, source="x.yaml n"))
    assert any("x.yaml n: the title is too long" in w for w in warnings)
    assert "…" in text and len(text) < 2000


def test_500_lines_are_never_cut_silently() -> None:
    body = "\n".join(f"Line {i} of the rules." for i in range(500))
    text, warnings = _render(ProofCard(system=MU, deck="D", title="Long", text=body, source="y"))
    assert len(warnings) == 1 and warnings[0].startswith("y: the text does not fit")
    hidden = int(warnings[0].split("; ")[1].split()[0])
    shown = sum(1 for i in range(500) if f"Line {i} of" in text)
    assert shown + hidden == 500 and shown > 30
    assert f"[{hidden} more lines" in text


def test_short_text_fits_with_no_warning() -> None:
    _, warnings = _render(ProofCard(system=MU, deck="D", title="Fine", text="Attack.", source="z"))
    assert warnings == []


@pytest.mark.parametrize(
    "title,codes", [("Venom 😀", "U+1F600"), ("שלום", "U+05E9"), ("毒液", "U+6BD2")]
)
def test_characters_the_font_lacks_are_a_warning_naming_the_card(title: str, codes: str) -> None:
    _, warnings = _render(ProofCard(system=MU, deck="D", title=title, source="cards/v.yaml"))
    assert len(warnings) == 1
    assert (
        warnings[0].startswith("cards/v.yaml: the font has no glyph for") and codes in warnings[0]
    )


def test_copies_are_capped_with_a_warning(tmp_path: Path) -> None:
    card = tmp_path / "cards" / "henchmen.yaml"
    card.parent.mkdir()
    card.write_text(
        "kind: marvel-united/henchmen\nid: many\nname: Many\n"
        "cards:\n  - {name: Mob, copies: 1000000000, text: Hi.}\n",
        encoding="utf-8",
    )
    documents, problems = gaps.load([card])
    assert [p.pointer for p in problems] == ["/cards/0/copies"]  # the schema caps it at 100
    loaded = load_document(card)  # and the renderer caps what reaches it anyway
    assert isinstance(loaded, Document) and not documents
    warnings: list[str] = []
    cards = content.collect([loaded], warnings.append)
    assert len(cards) == content.MAX_COPIES
    assert len(warnings) == 1 and "copies: 1000000000" in warnings[0]


def test_selection_combines() -> None:
    a = ProofCard(system=MU, deck="d", title="a", kind="masterplan", doc_id="klaw", box="b1")
    b = ProofCard(
        system=MU,
        deck="d",
        title="b",
        kind="threat",
        doc_id="klaw",
        box="b1",
        unconfirmed=frozenset({"text"}),
    )
    c = ProofCard(system=MU, deck="d", title="c", kind="masterplan", doc_id="venom", box="b2")
    cards = [a, b, c]
    assert content.select(cards, Selection()) == cards
    assert content.select(cards, Selection(only_unconfirmed=True)) == [b]
    assert content.select(cards, Selection(ids=("klaw",), kinds=("masterplan",))) == [a]
    assert content.select(cards, Selection(boxes=("b2",))) == [c]
    assert content.select(cards, Selection(ids=("venom",), boxes=("b1",))) == []


def test_only_unconfirmed_over_the_cli(tmp_path: Path) -> None:
    klaw = ROOT / "cards/marvel-united/multiverse-ks-promos/klaw.yaml"
    out = tmp_path / "u.pdf"
    result = run_cli(
        ["proof", str(klaw), "--only", "unconfirmed", "--kind", "masterplan", "-o", str(out)]
    )
    assert result.returncode == 0, result.stderr
    text = "".join(page.extract_text() for page in PdfReader(out).pages)
    assert text.count("UNCONFIRMED") == int(result.stdout.split(": ")[1].split()[0]) > 0


def test_png_pages_are_streamed_to_disk_atomically(tmp_path: Path) -> None:
    klaw = ROOT / "cards/marvel-united/multiverse-ks-promos/klaw.yaml"
    documents, _ = gaps.load([klaw])
    options = ProofOptions(png=tmp_path / "png", png_dpi=50, selection=Selection(kinds=("threat",)))
    result = make_proof(documents, tmp_path / "p.pdf", options)
    assert [p.name for p in result.pngs] == ["p-001.png"]
    assert sorted(os.listdir(tmp_path / "png")) == ["p-001.png"]  # no temporary files left
    from PIL import Image

    with Image.open(result.pngs[0]) as image:
        width, height = image.size
    assert abs(width - 210 / 25.4 * 50) <= 1 and abs(height - 297 / 25.4 * 50) <= 1
