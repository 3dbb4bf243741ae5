"""Proof sheets: geometry tested apart from drawing; PDFs parsed back and rasterised."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardkit.errors import UsageError
from cardkit.gaps import rows as gaps
from cardkit.render import content, face, pdf, sheet
from cardkit.render.text_fit import fit
from cardkit.render.units import pair, points
from tests.conftest import ROOT, run_cli

MM = 72 / 25.4
KLAW = ROOT / "cards/marvel-united/multiverse-ks-promos/klaw.yaml"
CARD = sheet.card_size("marvel-united")


def test_units() -> None:
    assert points("3mm") == pytest.approx(3 * MM)
    assert points("0.125in") == pytest.approx(9.0)
    assert points("9pt") == 9.0 and points(" 1 cm ") == pytest.approx(10 * MM)
    assert pair("0.5mm,-1mm") == pytest.approx((0.5 * MM, -MM))
    with pytest.raises(UsageError):
        points("3 furlongs")


# Worked by hand: a 0.25 in margin leaves A4 197.3 x 284.3 mm and Letter 203.2 x 266.7 mm.
# Three poker cards across take 190.5 mm, three down 266.7 mm; each side needs the bleed,
# a 0.5 mm gap and a 2 mm mark, and below the grid a 5 mm band for the ruler.
@pytest.mark.parametrize(
    "paper,bleed,gutter,per_page",
    [
        ("a4", "0mm", None, 9),  # 190.5 + 2 x 2.5 = 195.5 <= 197.3 across
        ("A4", "0mm", "0mm", 9),
        ("210mmx297mm", "0mm", "2mm", 6),  # 194.5 + 5 > 197.3: two columns
        ("a4", "2mm", None, 6),  # 190.5 + 4 + 5 > 197.3
        ("a4", "3mm", "0mm", 6),
        ("letter", "0mm", None, 6),  # three rows fill all 266.7 mm: no room for marks
        ("LETTER", "3mm", None, 6),
        ("8.5inx11in", "3mm", "2mm", 4),  # 190.5 + 4 + 6 + 5 > 203.2: two columns
    ],
)
def test_poker_cards_per_sheet_inside_a_quarter_inch_margin(
    paper: str, bleed: str, gutter: str | None, per_page: int
) -> None:
    layout = sheet.layout(paper, CARD, points(bleed), None if gutter is None else points(gutter))
    assert layout.per_page == per_page
    assert layout.margin == pytest.approx(0.25 * 72)
    assert all(b.inside(layout.paper.grown(-layout.margin)) for b in layout.bleeds)
    assert bool(layout.shortfall) == (per_page < 9)
    if gutter is not None and layout.per_page > 1:
        assert layout.trims[1].x - (layout.trims[0].x + CARD[0]) == pytest.approx(points(gutter))


@pytest.mark.parametrize(
    "paper,bleed,margin",
    [("a4", "3mm", "4mm"), ("a4", "0.75mm", None), ("letter", "0mm", "3.75mm")],
)
def test_nine_fit_where_the_margin_or_bleed_allows(
    paper: str, bleed: str, margin: str | None
) -> None:
    width = None if margin is None else points(margin)
    layout = sheet.layout(paper, CARD, points(bleed), None, width)
    assert layout.per_page == 9 and not layout.shortfall


def test_the_shortfall_says_why_and_what_to_change() -> None:
    note = sheet.layout("a4", CARD, points("3mm")).shortfall
    assert note.startswith("a4: 6 63.5 x 88.9 mm cards per sheet, not 9")
    assert "3mm bleed" in note and "--bleed 0.75mm" in note and "--margin 4mm" in note
    letter = sheet.layout("letter", CARD, points("3mm")).shortfall
    assert "--bleed 0mm --margin 3.75mm" in letter  # no bleed alone keeps 9 on Letter


def test_a_gutter_wider_than_the_room_fits_fewer_and_bad_lengths_are_refused() -> None:
    # two columns (127 + 6 + 6 + 5 mm), two rows: three need 266.7 + 12 + 6 + 5 + 12.7 > 297
    assert sheet.layout("a4", CARD, points("3mm"), points("6mm")).per_page == 4
    with pytest.raises(UsageError, match="negative"):
        sheet.layout("a4", CARD, -points("5mm"))
    with pytest.raises(UsageError, match="unknown paper"):
        sheet.layout("1mmx1mm", CARD, 0)


def _crosses(segment: tuple[float, float, float, float], box: sheet.Box) -> bool:
    x1, y1, x2, y2 = segment
    return not (
        max(x1, x2) < box.x
        or min(x1, x2) > box.x + box.w
        or max(y1, y2) < box.y
        or min(y1, y2) > box.y + box.h
    )


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed,gutter", [("0mm", None), ("3mm", None), ("3mm", "2mm")])
def test_cards_crop_marks_and_ruler_stay_in_their_place(
    paper: str, bleed: str, gutter: str | None
) -> None:
    layout = sheet.layout(paper, CARD, points(bleed), None if gutter is None else points(gutter))
    printable = layout.paper.grown(-layout.margin)
    bleeds = list(layout.bleeds)
    for index, box in enumerate(bleeds):
        trim = layout.trims[index]
        assert trim.inside(box) and trim.inside(printable)
        for other in bleeds[index + 1 :]:
            assert not (
                box.x < other.x + other.w - 1e-6
                and other.x < box.x + box.w - 1e-6
                and box.y < other.y + other.h - 1e-6
                and other.y < box.y + box.h - 1e-6
            )
    assert layout.crop_width >= 0.5
    for mark in layout.crop_marks:  # outside every card's bleed, not only its trim
        assert not any(_crosses(mark, b.grown(-0.01)) for b in bleeds), mark
        x1, y1, x2, y2 = mark
        assert printable.grown(0.01).x <= min(x1, x2) and max(x1, x2) <= printable.x + printable.w
        assert printable.y <= min(y1, y2) and max(y1, y2) <= printable.y + printable.h + 0.01
    x1, y1, x2, y2 = layout.ruler
    assert max(x2 - x1, y2 - y1) == pytest.approx(100 * MM)
    ruler = sheet.Box(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))
    assert not any(_crosses(layout.ruler, b) for b in bleeds) and ruler.inside(printable)
    vertical = x1 == x2
    length = max(x2 - x1, y2 - y1)
    ticks = [  # the ruler's line and its eleven ticks, 2.5 mm long
        sheet.Box(x1, y1, x2 - x1, y2 - y1),
        *(
            sheet.Box(x1, y1 + i * length / 10, 2.5 * MM, 0)
            if vertical
            else sheet.Box(x1 + i * length / 10, y1, 0, 2.5 * MM)
            for i in range(11)
        ),
    ]
    assert not any(_crosses(m, tick.grown(0.3)) for m in layout.crop_marks for tick in ticks)
    # every cut line has a mark at each end of the grid
    edges_x = {round(t.x, 6) for t in layout.trims} | {round(t.x + t.w, 6) for t in layout.trims}
    edges_y = {round(t.y, 6) for t in layout.trims} | {round(t.y + t.h, 6) for t in layout.trims}
    marked_x = {round(m[0], 6) for m in layout.crop_marks if m[0] == m[2]}
    marked_y = {round(m[1], 6) for m in layout.crop_marks if m[1] == m[3]}
    assert marked_x == edges_x and marked_y == edges_y


@pytest.mark.parametrize("used", [1, 2, 4, 8])
def test_a_part_filled_sheet_marks_only_the_lines_its_cards_have(used: int) -> None:
    layout = sheet.layout("a4", CARD, points("3mm"), None)
    cards = layout.trims[:used]
    marks = layout.marks_for(used)
    lines_x = {round(v, 6) for t in cards for v in (t.x, t.x + t.w)}
    lines_y = {round(v, 6) for t in cards for v in (t.y, t.y + t.h)}
    assert {round(m[0], 6) for m in marks if m[0] == m[2]} == lines_x
    assert {round(m[1], 6) for m in marks if m[1] == m[3]} == lines_y
    lift = min(t.y for t in cards) - min(t.y for t in layout.trims)
    bottom = min(t.y for t in layout.trims)
    # marks under the grid move up under the last row used; the rest are the sheet's own
    moved = {
        (x1, y1 - lift, x2, y2 - lift) if x1 == x2 and y2 < bottom + lift else (x1, y1, x2, y2)
        for x1, y1, x2, y2 in marks
    }
    assert {tuple(round(v, 4) for v in m) for m in moved} <= {
        tuple(round(v, 4) for v in m) for m in layout.crop_marks
    }
    lowest = min(t.y for t in cards) - layout.bleed
    assert all(max(y1, y2) <= lowest for x1, y1, x2, y2 in marks if x1 == x2 and y1 < lowest)
    assert layout.marks_for(layout.per_page) == layout.crop_marks


def test_duplex_backs_land_behind_their_fronts() -> None:
    layout = sheet.layout("a4", CARD, points("2mm"))
    long_backs = layout.backs("long")
    for front, back in zip(layout.trims, long_backs, strict=True):
        assert back.x + front.x + front.w == pytest.approx(layout.paper.w)
        assert back.y == pytest.approx(front.y)
    for front, back in zip(layout.trims, layout.backs("short"), strict=True):
        assert back.y + front.y + front.h == pytest.approx(layout.paper.h)
        assert back.x == pytest.approx(front.x)
    shifted = layout.backs("long", (MM, -MM))
    assert shifted[0].x == pytest.approx(long_backs[0].x + MM) and shifted[0].y == pytest.approx(
        long_backs[0].y - MM
    )
    with pytest.raises(UsageError):
        layout.backs("diagonal")


def test_a_card_too_big_for_the_paper_is_a_clear_error() -> None:
    with pytest.raises(UsageError, match="does not fit"):
        sheet.layout("a4", (300 * MM, 400 * MM), 0)
    with pytest.raises(UsageError, match="unknown paper"):
        sheet.layout("a9", CARD, 0)


def test_text_shrinks_to_fit_width_and_height() -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    short = fit("Attack.", "Helvetica", 150, 40)
    long_text = "Deal 1 damage to each Hero in this Location and both adjacent ones. " * 6
    fitted = fit(long_text, "Helvetica", 150, 80)
    assert short.size == 9.0 and fitted.size < short.size and fitted.cut == 0
    assert len(fitted.lines) * fitted.size * 1.18 <= 80
    assert all(stringWidth(line, "Helvetica", fitted.size) <= 150 for line in fitted.lines)
    assert " ".join(fitted.lines).split() == long_text.split()  # nothing dropped
    huge = fit("x" * 10_000, "Helvetica", 150, 80)  # one word wider than the box: broken up
    assert all(stringWidth(line, "Helvetica", huge.size) <= 150 for line in huge.lines)
    assert huge.size == 4.5 and huge.cut > 0 and "".join(huge.lines) == "x" * 10_000


def _klaw_cards(everything: bool = False) -> list[content.ProofCard]:
    documents, problems = gaps.load([KLAW])
    assert not problems
    cards = content.collect(documents)
    return cards if everything else [c for c in cards if c.kind in ("masterplan", "threat")]


def test_klaw_cards_carry_placements_and_their_doubts() -> None:
    every = _klaw_cards(everything=True)
    assert [c.kind for c in every[:2]] == ["dashboard", "dashboard-back"]
    assert "Health by Heroes: 2 Heroes: 5" in every[0].text
    assert every[1].icon_rows == (("action", "heroic-action"),)
    cards = _klaw_cards()
    assert len(cards) == 12 + 6  # twelve master plans, six copies of Solid Sound Body
    assert {c.doc_id for c in cards} == {"klaw"} and {c.box for c in cards} == {
        "multiverse-ks-promos"
    }
    first = cards[0]
    assert first.title == "Klaw 1" and first.corner == "Move 0" and first.tags == ("BAM!",)
    assert first.placement == {"left": {"civilian": 1}, "right": {"civilian": 1}}
    assert first.unconfirmed == {"place"}
    assert cards[12].title == "Solid Sound Body" and cards[12].corner == "1/6"


def test_pdf_parses_back_with_the_cards_on_it() -> None:
    cards = _klaw_cards()
    layout = sheet.layout("a4", CARD, 0)
    data = pdf.render(cards, layout, backs="long")
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 2 * 2  # 18 cards, 9 per sheet, fronts and backs
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx((210 * MM, 297 * MM))
    text = reader.pages[0].extract_text()
    for needle in ("Klaw 1", "Move 0", "UNCONFIRMED: place", "Sonic Wave Blast", "100 mm"):
        assert needle in text
    assert "Klaw · Master Plan" in reader.pages[1].extract_text()
    assert "backs (long-edge flip)" in reader.pages[1].extract_text()
    assert pdf.render(cards, layout, backs="long") == data  # reproducible, byte for byte


def test_rasterised_page_shows_marks_cards_and_warnings() -> None:
    cards = _klaw_cards()
    layout = sheet.layout("a4", CARD, 0)
    dpi = 100
    image = pdf.to_png(pdf.render(cards[:9], layout), dpi)[0].convert("RGB")
    scale = dpi / 72

    def pixel(x: float, y: float) -> tuple[int, int, int]:
        return image.getpixel((round(x * scale), round((layout.paper.h - y) * scale)))

    x1, y1, x2, y2 = layout.crop_marks[0]
    assert max(pixel((x1 + x2) / 2, (y1 + y2) / 2)) < 90  # a crop mark is dark
    trim = layout.trims[0]
    assert pixel(trim.x + trim.w / 2, trim.y + trim.h * 0.4) == pytest.approx(
        (247, 242, 230), abs=12
    )  # card face
    band = face.regions(cards[0], trim).banner
    assert band is not None
    banner = pixel(band.x + 2, band.y + band.h / 2)  # left of the white lettering
    assert banner[0] > 170 and banner[1] < 80  # the red UNCONFIRMED band
    assert pixel(3, 3) == (255, 255, 255)  # nothing is drawn at the paper's edge


def test_cli_proof_writes_pdf_and_png(tmp_path: Path) -> None:
    out = tmp_path / "proof.pdf"
    result = run_cli(
        [
            "proof",
            str(KLAW),
            "--out",
            str(out),
            "--backs",
            "--flip",
            "short",
            "--png",
            str(tmp_path / "png"),
            "--kind",
            "masterplan",
            "--kind",
            "threat",
        ]
    )
    assert result.returncode == 0, result.stderr
    assert (
        result.stdout.strip()
        == f"wrote {out}: 18 cards, 9 per sheet, 4 PNG pages in {tmp_path / 'png'}"
    )
    assert len(PdfReader(out).pages) == 4
    assert sorted(p.name for p in (tmp_path / "png").iterdir()) == [
        f"proof-00{i}.png" for i in range(1, 5)
    ]
    aligned = run_cli(
        [
            "proof",
            str(KLAW),
            "--out",
            str(tmp_path / "a.pdf"),
            "--alignment",
            "--back-offset",
            "1mm,0mm",
        ]
    )
    assert aligned.returncode == 0 and len(PdfReader(tmp_path / "a.pdf").pages) == 2


def test_cli_proof_errors_are_one_line(tmp_path: Path) -> None:
    bad = run_cli(["proof", str(KLAW), "--out", str(tmp_path / "x.pdf"), "--bleed", "lots"])
    assert bad.returncode == 2 and bad.stderr.startswith("cardkit: 'lots' is not a length")
    empty = run_cli(
        [
            "proof",
            str(KLAW),
            "--id",
            "nobody",
            "--out",
            str(tmp_path / "y.pdf"),
        ]
    )
    assert empty.returncode == 2
    assert empty.stderr == "cardkit: --id 'nobody' matches nothing here; known: klaw\n"
    assert not (tmp_path / "y.pdf").exists()
    for option, value, message in (
        ("--bleed", "-5mm", "cannot be negative"),
        ("--gutter", "-1mm", "cannot be negative"),
        ("--paper", "12x", "unknown paper"),
        ("--png-dpi", "5", "--png-dpi takes"),
    ):
        args = ["proof", str(KLAW), "--out", str(tmp_path / "z.pdf"), option, value]
        if option == "--png-dpi":
            args += ["--png", str(tmp_path / "png")]
        refused = run_cli(args)
        assert refused.returncode == 2, (option, refused.stderr)
        assert refused.stderr.count("\n") == 1 and message in refused.stderr, refused.stderr


def test_a_selection_typo_is_refused_with_the_names_there_are(tmp_path: Path) -> None:
    out = tmp_path / "typo.pdf"
    typo = run_cli(["proof", str(KLAW), "--out", str(out), "--kind", "masterplam"])
    assert typo.returncode == 2
    assert (
        typo.stderr
        == "cardkit: --kind 'masterplam' matches nothing here; did you mean 'masterplan'?\n"
    )
    several = run_cli(["proof", str(KLAW), "--out", str(out), "--id", "klw", "--box", "nowhere"])
    assert (
        several.returncode == 2
        and "--id 'klw' matches nothing here; did you mean 'klaw'?" in several.stderr
    )
    assert "--box 'nowhere' matches nothing here; known: multiverse-ks-promos" in several.stderr
    assert not out.exists()
    right = run_cli(["proof", str(KLAW), "--out", str(out), "--kind", "masterplan", "--id", "klaw"])
    assert right.returncode == 0 and out.exists(), right.stderr


def test_an_alignment_sheet_writes_no_forms(tmp_path: Path) -> None:
    """--alignment prints the test sheet only, even among documents that make fillable forms."""
    cards = ROOT / "cards" / "marvel-champions" / "fear-no-evil"
    proofs = run_cli(["proof", str(cards), "--out", str(tmp_path / "p" / "proofs.pdf")])
    assert proofs.returncode == 0, proofs.stderr
    assert any("fillable form" in line for line in proofs.stdout.splitlines())
    aligned = run_cli(["proof", str(cards), "--alignment", "--out", str(tmp_path / "a" / "al.pdf")])
    assert aligned.returncode == 0, aligned.stderr
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["al.pdf"]


def test_with_backs_a_two_sided_dashboard_prints_its_other_side_behind_it(tmp_path: Path) -> None:
    out = tmp_path / "dash.pdf"
    kinds = ["--kind", "dashboard", "--kind", "dashboard-back"]
    plain = run_cli(["proof", str(KLAW), *kinds, "--out", str(out)])
    assert plain.returncode == 0 and "2 cards" in plain.stdout, plain.stderr
    assert "Super Villain" in PdfReader(out).pages[0].extract_text()
    duplex = run_cli(["proof", str(KLAW), *kinds, "--backs", "--out", str(out)])
    assert duplex.returncode == 0 and "1 card," in duplex.stdout, duplex.stderr
    front, back = (page.extract_text() for page in PdfReader(out).pages)
    assert "Super Villain" not in front and "Klaw" in front
    assert "Super Villain" in back and "Starting tokens" in back
    alone = run_cli(["proof", str(KLAW), "--kind", "dashboard-back", "--backs", "--out", str(out)])
    assert alone.returncode == 0 and "1 card," in alone.stdout
    assert "Super Villain" in PdfReader(out).pages[0].extract_text()
