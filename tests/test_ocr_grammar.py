"""Grammar-first reading, the kind decision and the kept lines, on small hand-made cases
(lines written by hand, cards drawn here with PIL); expectations written by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from cardkit.check.validate import check
from cardkit.files import yamlio
from cardkit.ocr import decide, draft, grammar, page, page_text
from cardkit.ocr.engine import Reading, Word


def line(text: str, top: int, confidence: float = 0.95, left: int = 40) -> page.Line:
    return page.Line(text, confidence, (left, top, 20 * len(text), 30), 30.0)


def kind(system: str, name: str) -> grammar.Kind:
    return next(k for k in grammar.grammars()[system] if k.name == name)


def test_location_grammar_takes_the_title_and_the_rules_keeps_the_heading() -> None:
    lines = [
        line("STARK TOWER", 20),
        line("END OF TURN", 600),
        line("Each Hero here may draw", 650),
        line("1 card.", 690, 0.80),
    ]
    read = grammar.read(kind("marvel-united", "location"), lines, 1000)
    assert read.values == {"name": "STARK TOWER", "text": "Each Hero here may draw 1 card."}
    assert read.confidences["text"] == 0.80  # the least sure line it holds
    assert read.kept == ["END OF TURN"]  # the heading is not rules text, and not lost
    assert read.unread == []


def test_a_title_below_the_top_share_is_not_taken_and_is_reported_unread() -> None:
    lines = [line("END OF TURN", 600), line("Move the Villain.", 650)]
    read = grammar.read(kind("marvel-united", "location"), lines, 1000)
    assert "name" not in read.values
    assert read.unread == ["name"]


def test_villain_grammar_reads_two_digit_hit_points_traits_flavour_and_drops_the_footer() -> None:
    lines = [
        line("+ KLAW _", 30),
        line("VILLAIN", 110),
        line("MASTER OF SOUND.", 600),
        line("Klaw gets +1 ATK.", 650),
        line("“Listen to this”", 700),
        line("KLAW (1/12) / HIT POINTS 14", 900),
        line("Illus. Someone © MARVEL", 950),
    ]
    read = grammar.read(kind("marvel-champions", "villain"), lines, 1000)
    assert read.values["name"] == "KLAW"
    assert read.values["health"] == 14
    assert read.values["traits"] == "MASTER OF SOUND."
    assert read.values["flavor"] == "Listen to this"
    assert read.values["text"] == "Klaw gets +1 ATK."
    assert "KLAW (1/12) /" in read.kept and "Illus. Someone © MARVEL" in read.kept
    assert set(read.unread) == {"stage", "scheme", "attack", "health_per_hero"}


def test_evidence_needs_the_printed_headings() -> None:
    location = kind("marvel-united", "location")
    assert grammar.evidence(location, [line("END 0F TURN", 600)]) == ["END OF TURN"]
    assert grammar.evidence(location, [line("at the end of the turn", 600)]) == []
    assert grammar.evidence(location, [line("Villains move", 600)]) == []


def test_decision_is_unsure_when_the_runner_up_is_close_and_names_it() -> None:
    a = decide.Candidate("mu/location", "marvel-united/location", 1.0, "read END OF TURN")
    b = decide.Candidate("mc/villain", "marvel-champions/card", 0.9, "read VILLAIN")
    c = decide.Candidate("mc/scheme-b", "marvel-champions/card", 0.2, "no keyword")
    close = decide.decide([b, a, c])
    assert close is not None and close.best == a and close.runner_up == b and not close.sure
    assert "marvel-champions/card" in close.note() and "read VILLAIN" in close.note()
    far = decide.decide([a, c])
    assert far is not None and far.sure
    # two candidates of one kind (a scheme's two sides) do not make the kind unsure
    same = decide.decide([b, decide.Candidate("mc/x", "marvel-champions/card", 0.85, "")])
    assert same is not None and same.runner_up is None and same.sure


def test_unclaimed_lines_are_kept_in_reading_order() -> None:
    lines = [line("SILVER KEY", 10), line("Unlock a location.", 50), line("Gain 2 Power.", 90)]
    assert page_text.unclaimed(lines, ["Silver Key", "Unlock a location"]) == ["Gain 2 Power."]
    assert page_text.unclaimed(lines, []) == ["SILVER KEY", "Unlock a location.", "Gain 2 Power."]


def test_proxy_marks_are_dropped_from_a_reading() -> None:
    words = (
        Word("UNCONFIRMED:", 0.9, (0, 0, 50, 10), 0),
        Word("move,", 0.9, (60, 0, 30, 10), 0),
        Word("place", 0.9, (95, 0, 30, 10), 0),
        Word("Klaw", 0.9, (0, 20, 30, 10), 1),
        Word("attacks.", 0.9, (35, 20, 40, 10), 1),
    )
    assert page_text.drop_proxy_marks(Reading(words)).text == "Klaw attacks."
    assert page_text.is_proxy_mark("?") and not page_text.is_proxy_mark(
        "Unconfirmed rumours spread."
    )


def test_a_masterplan_draft_without_its_move_lists_move_as_not_read(tmp_path: Path) -> None:
    document = {
        "kind": "marvel-united/masterplan-card",
        "id": "mp",
        "card": {
            "n": 3,
            "effects": [{"name": "Sonic Blast", "text": "Each Hero takes 1 damage."}],
            "bam": False,
        },
    }
    draft._not_read(document, "marvel-united")
    assert document["unconfirmed"] == ["card/move", "card/place"]
    assert document["gaps"][0]["note"] == "card/move, card/place: not read from the scan"
    path = tmp_path / "mp.yaml"
    path.write_text(yamlio.dump_document(document, ""))
    report, _ = check([path])
    assert report.errors == 0, [d.message for d in report.diagnostics]  # with the gap open


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for name in ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    pytest.skip("no TrueType font to draw the card with")


@pytest.mark.skipif(__import__("shutil").which("tesseract") is None, reason="needs tesseract")
def test_a_drawn_location_with_white_text_on_a_dark_box_reads_by_its_grammar(
    tmp_path: Path,
) -> None:
    """A square card no template describes: name banner on light blue, END OF TURN and its
    effect in white on a dark box. The real engine reads it; the grammar files it."""
    card = Image.new("RGB", (1200, 1200), (120, 150, 190))
    pen = ImageDraw.Draw(card)
    pen.rectangle((40, 40, 900, 150), fill=(200, 225, 245))
    pen.text((70, 60), "STARK TOWER", font=_font(70), fill=(20, 20, 30))
    pen.rectangle((100, 800, 1100, 1150), fill=(25, 25, 35))
    pen.text((400, 830), "END OF TURN", font=_font(50), fill=(255, 255, 255))
    pen.text((150, 920), "Each Hero here may draw", font=_font(50), fill=(255, 255, 255))
    pen.text((150, 990), "a card from the deck.", font=_font(50), fill=(255, 255, 255))
    scans = tmp_path / "scans"
    scans.mkdir()
    card.save(scans / "tower.png")
    from cardkit.ocr import batch
    from cardkit.ocr.pipeline import Options

    out = tmp_path / "out"
    settings = batch.Settings(out, options=Options(("marvel-united",), 0.9))
    [result] = batch.run([scans / "tower.png"], settings, jobs=1)
    assert result.ok, result.message
    document = yamlio.load_text((out / "tower.yaml").read_text())
    assert document["kind"] == "marvel-united/location"
    assert document["name"] == "STARK TOWER"
    assert "Each Hero here may draw a card from the deck." in document["text"]
    assert "END OF TURN" in document.get("kept_text", [])
    report, _ = check([out / "tower.yaml"])
    assert report.errors == 0, [d.message for d in report.diagnostics]


def test_a_lone_bar_in_rules_text_is_the_digit_one_and_the_change_is_recorded() -> None:
    lines = [line("ASIA", 20), line("END OF TURN", 600), line("You MUST discard | card.", 650)]
    read = grammar.read(kind("marvel-united", "location"), lines, 1000)
    assert read.values["text"] == "You MUST discard 1 card."
    assert read.corrections == [
        {
            "field": "text",
            "read": "You MUST discard | card.",
            "corrected": "You MUST discard 1 card.",
            "why": "digit",
        }
    ]


def test_check_reports_a_field_the_scan_did_not_yield(tmp_path: Path) -> None:
    from cardkit.ocr import compare

    card = tmp_path / "asia.yaml"
    card.write_text("kind: marvel-united/location\nid: asia\nname: ASIA\ntext: Gain 1 token.\n")
    _, [document] = check([card])
    read = {
        "kind": "marvel-united/location",
        "id": "asia",
        "text": "Gain 1 token.",
        "gaps": [{"note": "name: not read from the scan", "fields": ["name"], "status": "open"}],
    }
    assert compare.not_read(read, "scans/asia.png", document, "") == [
        f'{card}: name: not read: scan asia.png did not yield it, file has "ASIA" (unchecked)'
    ]


def test_a_number_cut_to_its_box_is_doubted_not_written_sure() -> None:
    from cardkit.games.marvel_champions.ocr import _cut
    from cardkit.ocr import layout

    box = layout.Region(field="threat", box=(0, 0, 1, 1), parse="int", options={"digits": 1})
    assert _cut("10", box)  # threat 10, or 1 and the per-hero mark: the digits do not say
    assert not _cut("2", box)
    stage = layout.Region(field="stage", box=(0, 0, 1, 1), parse="code", options={"digits": 1})
    assert not _cut("1B", stage)


def _fill(name: str) -> tuple[int, int, int]:
    import colorsys

    from cardkit.ocr import tokens

    colour = next(c for c in tokens.load_palette("marvel-united").colours if c.name == name)
    r, g, b = colorsys.hsv_to_rgb(colour.hue / 360, colour.saturation, colour.value)
    return round(r * 255), round(g * 255), round(b * 255)


def _diagram(marked: int, icons: list[list[tuple[str, tuple[int, int, int]]]]) -> Image.Image:
    """A cream card with a row of framed slots, a star-like mark above slot `marked`."""
    card = Image.new("RGB", (750, 1050), (240, 230, 205))
    pen = ImageDraw.Draw(card)
    for n, slot in enumerate(icons):
        left = 40 + n * 230
        pen.rectangle(
            (left, 300, left + 200, 480), fill=(225, 212, 180), outline=(90, 70, 40), width=4
        )
        if n == marked:
            pen.polygon([(left + 100, 240), (left + 115, 285), (left + 85, 285)], fill=(20, 90, 90))
        for i, (shape, rgb) in enumerate(slot):
            x = left + 30 + i * 80
            if shape == "circle":
                pen.ellipse((x, 360, x + 55, 415), fill=rgb)
            else:
                pen.rectangle((x, 360, x + 55, 415), fill=rgb)
    return card


def test_slot_finder_counts_icons_per_slot_names_them_and_finds_the_marked_slot() -> None:
    from cardkit.ocr import palette as palettes
    from cardkit.ocr import slots

    palette = palettes.builtin(
        "marvel-united"
    )  # the proxies' icons: a round civilian, a square thug
    civilian, thug = _fill("civilian"), _fill("thug")
    card = _diagram(1, [[("circle", civilian)], [("square", thug), ("square", thug)], []])
    found = slots.read_placement(card, palette)
    assert found is not None and found.villain_known and found.sure
    assert [s.name for s in found.slots] == ["left", "villain", "right"]
    assert found.place() == {"left": {"civilian": 1}, "villain": {"thug": 2}}


def test_an_icon_matching_no_token_is_counted_as_unknown_and_the_placement_is_unsure() -> None:
    from cardkit.ocr import palette as palettes
    from cardkit.ocr import slots

    palette = palettes.builtin("marvel-united")
    green = (40, 160, 60)  # no token of the palette is green
    card = _diagram(0, [[("square", green)], [("circle", _fill("civilian"))]])
    found = slots.read_placement(card, palette)
    assert found is not None
    assert [s.name for s in found.slots] == ["villain", "right"]
    assert found.slots[0].icons == ["unknown"] and not found.sure


def test_no_row_of_slots_is_no_placement() -> None:
    from cardkit.ocr import slots

    card = Image.new("RGB", (750, 1050), (240, 230, 205))
    ImageDraw.Draw(card).rectangle((40, 300, 240, 480), outline=(90, 70, 40), width=4)  # one box
    assert slots.find_slots(card) == []


def test_an_unsure_kind_is_unconfirmed_with_the_runner_up_named(tmp_path: Path) -> None:
    from types import SimpleNamespace

    best = decide.Candidate(
        "grammar marvel-united/location", "marvel-united/location", 1.0, "read END OF TURN"
    )
    other = decide.Candidate(
        "marvel-united/masterplan", "marvel-united/masterplan-card", 0.9, "a keyword read"
    )
    document = {"kind": "marvel-united/location", "id": "asia", "name": "ASIA"}
    draft._doubt(document, SimpleNamespace(decision=decide.Decision(best, other)))  # type: ignore[arg-type]
    assert document["unconfirmed"] == ["kind"]
    [gap] = document["gaps"]
    assert gap["fields"] == ["kind"] and "marvel-united/masterplan-card" in gap["note"]
    assert "a keyword read" in gap["note"] and "read END OF TURN" in gap["note"]
    path = tmp_path / "asia.yaml"
    path.write_text(yamlio.dump_document(document, ""))
    report, _ = check([path])
    assert report.errors == 0, [d.message for d in report.diagnostics]
    sure = {"kind": "marvel-united/location", "id": "asia"}
    far = decide.Candidate("x", "marvel-champions/card", 0.2, "none of its headings read")
    draft._doubt(sure, SimpleNamespace(decision=decide.Decision(best, far)))  # type: ignore[arg-type]
    assert "unconfirmed" not in sure


def test_a_kept_line_that_starts_like_yaml_survives_the_draft_file() -> None:
    document = {"kind": "villainous/card", "kept_text": [": Pay 1 Power", "- a dash", "ok"]}
    assert yamlio.load_text(yamlio.dump_document(document, "")) == document


DESIGN_B = Path(__file__).resolve().parent.parent / "scans" / "samples" / "marvel-united-design-b"


def _drafted(scan: Path, out: Path) -> dict[str, Any]:
    """The draft `cardkit ocr --system marvel-united` writes for one scan (the real engine)."""
    from cardkit.ocr import batch
    from cardkit.ocr.pipeline import Options

    settings = batch.Settings(out, options=Options(("marvel-united",), 0.9))
    [result] = batch.run([scan], settings, jobs=1)
    assert result.ok, result.message
    document: dict[str, Any] = yamlio.load_text((out / f"{scan.stem}.yaml").read_text())
    return document


@pytest.mark.skipif(__import__("shutil").which("tesseract") is None, reason="needs tesseract")
def test_a_master_plan_of_another_design_reads_by_grammar_and_says_what_it_doubts(
    tmp_path: Path,
) -> None:
    """Blastaar 1 as design-b paints it (not cardkit's proxy): title bar, Move 0 in an orange
    disc over MOVE, a BAM! starburst, three slots (a civilian each side, a thug and a
    civilian in the Villain's, starred), one effect. Read by the real engine."""
    scan = DESIGN_B / "design-b-blastaar-mp01-clean.png"
    out = tmp_path / "out"
    document = _drafted(scan, out)
    assert document["kind"] == "marvel-united/masterplan-card"
    card = document["card"]
    assert card["n"] == 1
    assert card["effects"][0]["name"] == "Negative Zone Patrols"
    assert card["move"] == 0  # the lone glyph in the disc over MOVE, read alone at every level
    assert "card/move" not in document["unconfirmed"]  # read one way every time: sure
    assert card["bam"] is True  # the starburst (its word, or its eleven points)
    notes = [g["note"] for g in document["gaps"]]
    assert any(n.startswith("card/place: 3 slots counted") for n in notes), notes
    report, _ = check([out / f"{scan.stem}.yaml"])
    assert report.errors == 0, [d.message for d in report.diagnostics]


DESIGN_J = DESIGN_B.parent / "marvel-united-design-j"


@pytest.mark.skipif(__import__("shutil").which("tesseract") is None, reason="needs tesseract")
def test_a_threat_printing_no_heading_with_its_name_at_the_foot_reads_by_grammar(
    tmp_path: Path,
) -> None:
    """Venom T-Rex as design-j paints it: the rules text in a panel, the name on a dark band
    at the card's foot with `Health 5` on a pill beside it; no heading a threat prints on
    every card. Its kind comes from the threat template's probe, never skipped."""
    document = _drafted(DESIGN_J / "design-j-knull-threat-venom-t-rex-clean.png", tmp_path)
    assert document["kind"] == "marvel-united/threat-card"
    assert document["card"]["name"] == "Venom T-Rex"
    assert document["card"]["health"] == 5
    assert "Deal 2 damage to each Hero in this" in document["card"]["text"]
