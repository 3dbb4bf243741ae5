"""Every kind gets a painter and a size; the campaign log is a fillable form."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from cardkit.gaps import rows as gaps
from cardkit.render import content, face, pdf, sheet
from cardkit.render.proof import ProofOptions, make_proof
from tests.conftest import ROOT, run_cli

MM = 72 / 25.4


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A copy of the documented examples and a few real files of every system."""
    folder = tmp_path / "cards"
    shutil.copytree(ROOT / "docs" / "examples", folder)
    for name in (
        "marvel-united/multiverse-ks-promos/lizard.yaml",
        "marvel-united/multiverse-ks-promos/shocker-achievements.yaml",
        "marvel-united/ks-promos/war-machine.yaml",
        "marvel-united/ks-promos/venom-weak-spot-cards.yaml",
        "marvel-united/ks-promos/war-machine-deflector-shields.yaml",
        "marvel-united/maximum-carnage/statue-of-liberty-location.yaml",
        "marvel-champions/fear-no-evil/daredevil-justice.yaml",
        "marvel-champions/fear-no-evil/campaign-log.yaml",
        "villainous/user-manual/captain-hook.yaml",
    ):
        shutil.copy(ROOT / "cards" / name, folder / Path(name).name)
    return folder


def _cards(folder: Path) -> list[content.ProofCard]:
    documents, problems = gaps.load([folder])
    assert not problems
    return content.collect(documents)


def test_every_kind_is_collected_and_backs_or_portraits_are_not(corpus: Path) -> None:
    kinds = {(c.system, c.kind) for c in _cards(corpus)}
    for expected in (
        ("marvel-united", "dashboard"),
        ("marvel-united", "dashboard-back"),
        ("marvel-united", "masterplan"),
        ("marvel-united", "threat"),
        ("marvel-united", "hero"),
        ("marvel-united", "weak-spot"),
        ("marvel-united", "equipment"),
        ("marvel-united", "location"),
        ("marvel-united", "achievements"),
        ("marvel-champions", "side-scheme"),
        ("marvel-champions", "decklist"),
        ("villainous", "location"),
        ("villainous", "objective"),
        ("villainous", "villain-card"),
    ):
        assert expected in kinds, expected
    titles = [c.title for c in _cards(corpus)]
    assert "example-fate-back" not in titles and "example-mu-villain-portrait" not in titles


def test_each_kind_prints_at_its_size_and_layouts_never_overlap(corpus: Path) -> None:
    cards = _cards(corpus)
    sizes = {sheet.card_size(c.system, c.kind) for c in cards}
    # formats.yaml's sizes, written here by hand: a dashboard 150 x 100 mm, a board
    # location 95 x 70 mm; the corpus holds both.
    assert any(size == pytest.approx((150 * MM, 100 * MM)) for size in sizes)
    assert any(size == pytest.approx((95 * MM, 70 * MM)) for size in sizes)
    assert sheet.card_size("") == pytest.approx((63.5 * MM, 88.9 * MM))  # no cards: poker
    with pytest.raises(LookupError):
        sheet.card_size("no-such-system", "thing")
    for size in sizes:
        layout = sheet.layout("a4", size, 0)
        for trim in layout.trims:
            assert (trim.w, trim.h) == pytest.approx(size, abs=0.05 * MM)
    for card in cards:  # the face's regions sit inside the card and never overlap
        trim = sheet.Box(0, 0, *sheet.card_size(card.system, card.kind))
        boxes = face.regions(card, trim).boxes()
        for index, box in enumerate(boxes):
            assert box.h >= 0 and box.inside(trim), (card.kind, box)
            for other in boxes[index + 1 :]:
                overlap = min(box.y + box.h, other.y + other.h) - max(box.y, other.y)
                assert overlap <= 1e-6, (card.kind, card.title, box, other)


def test_villainous_location_draws_its_action_symbols(corpus: Path) -> None:
    lighthouse = next(
        c for c in _cards(corpus) if c.title == "The Lighthouse" and c.icon_rows[0] != ("lock",)
    )
    assert lighthouse.icon_rows == (
        ("vanquish", "play_card", "lock"),
        ("gain_power:2", "move_item_or_ally", "discard_cards", "activate"),
    )
    data = pdf.render([lighthouse], lambda size: sheet.layout("a4", size, 0))
    text = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    for label in ("Vanquish", "Play a Card", "Lock", "Gain Power", "Activate", "The Lighthouse"):
        assert label in text  # the legend names every symbol drawn


def test_whole_corpus_copy_prints_with_fonts_embedded(corpus: Path, tmp_path: Path) -> None:
    documents, _ = gaps.load([corpus])
    out = tmp_path / "out" / "proofs.pdf"
    result = make_proof(documents, out, ProofOptions(backs=True, paper="letter"))
    cards = _cards(corpus)
    fronts = {card.source for card in cards}
    other_sides = [card for card in cards if card.back_of in fronts]
    assert other_sides  # dashboards with a back side: printed behind their front, not counted
    assert result.cards == len(cards) - len(other_sides)
    # the corpus holds no marvelsdb card files: each decklist line is one warning, no more
    lines = [
        entry
        for doc in documents
        if doc.kind == "marvel-champions/decklist"
        for group in doc.data.get("groups", [])
        for entry in group.get("cards", [])
    ]
    assert lines and len(result.warnings) == len(lines)
    assert all("no card file in this tree" in warning for warning in result.warnings)
    reader = PdfReader(out)
    sizes = {
        (round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in reader.pages
    }
    assert sizes == {(612, 792), (792, 612)}  # Letter, and turned for the Villainous boards
    for page in reader.pages:
        for font in page["/Resources"].get("/Font", {}).values():
            font = font.get_object()
            described = (
                font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            )
            assert "/FontFile2" in described["/FontDescriptor"].get_object(), font
    assert (
        make_proof(documents, out, ProofOptions(backs=True, paper="letter")).cards == result.cards
    )
    first = out.read_bytes()
    make_proof(documents, out, ProofOptions(backs=True, paper="letter"))
    assert out.read_bytes() == first  # deterministic: same input, same bytes


def test_campaign_log_is_a_fillable_form(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "p.pdf"
    result = run_cli(["proof", str(corpus / "campaign-log.yaml"), "-o", str(out)])
    assert result.returncode == 0, result.stderr
    form = tmp_path / "p-campaign-log.pdf"
    assert result.stdout.strip() == f"wrote {form}: a fillable form"
    fields = PdfReader(form).get_fields()
    assert fields is not None
    kinds = {name: str(f.get("/FT")) for name, f in fields.items()}
    assert kinds == {
        "player_information": "/Tx",
        "scenario_table": "/Tx",
        "list_of_villains": "/Tx",
        "trust_established": "/Btn",
        "mary_defeated": "/Btn",
        "allies_and_persona_supports_removed_from_the_campaign": "/Tx",
        "notes": "/Tx",
    }
    writer = PdfWriter(clone_from=form)
    writer.update_page_form_field_values(writer.pages[0], {"list_of_villains": "Electro"})
    filled = io.BytesIO()
    writer.write(filled)
    again = PdfReader(filled).get_fields()
    assert again is not None and again["list_of_villains"].get("/V") == "Electro"
