"""Property tests on sheet geometry and card faces: never overlapping, always inside."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cardkit.errors import UsageError
from cardkit.render import face, sheet
from cardkit.render.content import ProofCard

MM = 72 / 25.4


def _overlap(a: sheet.Box, b: sheet.Box) -> bool:
    return (
        a.x < b.x + b.w - 1e-6
        and b.x < a.x + a.w - 1e-6
        and a.y < b.y + b.h - 1e-6
        and b.y < a.y + a.h - 1e-6
    )


def _crosses(segment: tuple[float, float, float, float], box: sheet.Box) -> bool:
    x1, y1, x2, y2 = segment
    return not (
        max(x1, x2) <= box.x
        or min(x1, x2) >= box.x + box.w
        or max(y1, y2) <= box.y
        or min(y1, y2) >= box.y + box.h
    )


@settings(max_examples=150, deadline=None)
@given(
    paper=st.tuples(st.floats(120, 500), st.floats(120, 500)),
    card=st.tuples(st.floats(30, 160), st.floats(30, 160)),
    bleed=st.floats(0, 5),
    gutter=st.one_of(st.none(), st.floats(0, 8)),
)
# a gutter of a fraction of a point once put float-rounded marks over the trims
@example(paper=(120.0, 369.0), card=(30.0, 30.0), bleed=0.0, gutter=1.192092896e-07)
def test_any_layout_keeps_cards_marks_and_ruler_apart_and_printable(
    paper: tuple[float, float], card: tuple[float, float], bleed: float, gutter: float | None
) -> None:
    name = f"{paper[0]:.2f}mmx{paper[1]:.2f}mm"
    try:
        layout = sheet.layout(
            name, (card[0] * MM, card[1] * MM), bleed * MM, None if gutter is None else gutter * MM
        )
    except UsageError as err:
        assert "does not fit" in str(err)
        return
    printable = layout.paper.grown(-layout.margin)
    assert layout.per_page >= 1
    for trim, painted in zip(layout.trims, layout.bleeds, strict=True):
        assert trim.inside(printable) and trim.inside(painted)
        assert painted.inside(printable, tolerance=0.01)
    for a, b in pairwise(layout.bleeds):
        assert not _overlap(a, b)
    for index, a in enumerate(layout.bleeds):
        for b in layout.bleeds[index + 1 :]:
            assert not _overlap(a, b)
    for mark in layout.crop_marks:
        assert not any(_crosses(mark, b.grown(-0.01)) for b in layout.bleeds), mark
        box = sheet.Box(min(mark[0], mark[2]), min(mark[1], mark[3]), 0, 0)
        assert box.inside(printable, tolerance=0.01)
    x1, y1, x2, y2 = layout.ruler
    ruler = sheet.Box(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))
    assert ruler.inside(printable, tolerance=0.01)
    legend = layout.legend  # every sheet has a band for its legend, clear of the cards
    assert legend is not None and legend.inside(printable, tolerance=0.01)
    assert not any(_overlap(legend.grown(-0.01), b) for b in layout.bleeds)
    for mark in layout.crop_marks:
        assert not _crosses(mark, legend.grown(-0.01)), (mark, legend)
    assert not any(_overlap(ruler.grown(0.1), t) for t in layout.trims)


@settings(max_examples=150, deadline=None)
@given(
    size=st.tuples(st.floats(40, 160), st.floats(55, 160)),
    tags=st.booleans(),
    stats=st.integers(0, 4),
    rows=st.integers(0, 2),
    placement=st.booleans(),
    doubtful=st.booleans(),
)
def test_a_face_s_regions_never_overlap_and_stay_on_the_card(
    size: tuple[float, float], tags: bool, stats: int, rows: int, placement: bool, doubtful: bool
) -> None:
    card = ProofCard(
        system="x",
        deck="d",
        title="t",
        tags=("BAM!",) if tags else (),
        stats=tuple(("S", str(i)) for i in range(stats)),
        icon_rows=(("a", "b"),) * rows,
        placement={"left": {"thug": 1}} if placement else None,
        unconfirmed=frozenset({"place"} if doubtful else ()),
    )
    trim = sheet.Box(10, 20, size[0] * MM, size[1] * MM)
    regions = face.regions(card, trim)
    boxes = regions.boxes()
    for box in boxes:
        assert box.w >= 0 and box.h >= 0 and box.inside(trim), box
    for index, a in enumerate(boxes):
        for b in boxes[index + 1 :]:
            assert not _overlap(a, b), (a, b)


def test_the_smallest_card_with_everything_still_fits() -> None:
    card = ProofCard(
        system="x",
        deck="d",
        title="t",
        tags=("BAM!",),
        stats=(("S", "1"),),
        icon_rows=(("a",), ("b",)),
        placement={"left": {"thug": 1}},
        unconfirmed=frozenset({"place"}),
    )
    small = face.regions(card, sheet.Box(0, 0, 40 * MM, 55 * MM))
    poker = face.regions(card, sheet.Box(0, 0, 63.5 * MM, 88.9 * MM))
    assert small.diagram is not None and poker.diagram is not None
    assert poker.diagram.h == pytest.approx(16 * MM)  # a poker card keeps the full diagram
    assert small.diagram.h < poker.diagram.h  # a small card shrinks it to fit
    assert all(box.inside(sheet.Box(0, 0, 40 * MM, 55 * MM)) for box in small.boxes())


def test_backs_are_mirrored_in_pixels() -> None:
    from cardkit.render import pdf

    cards = [ProofCard(system="x", deck=f"Deck {i}", title=f"Card {i}") for i in range(2)]
    size = (63.5 * MM, 88.9 * MM)
    layout = sheet.layout("a4", size, 0)
    scale = 50 / 72
    for flip in ("long", "short"):
        pages = pdf.to_png(pdf.render(cards, layout, backs=flip), 50)
        back = pages[1].convert("RGB")

        def pixel(
            box: sheet.Box, image: object = back, scale: float = scale
        ) -> tuple[int, int, int]:
            x, y = box.x + box.w / 2, box.y + box.h * 0.25
            return image.getpixel((round(x * scale), round((layout.paper.h - y) * scale)))  # type: ignore[attr-defined]

        mirrored = layout.backs(flip)
        for index in range(2):  # each back is behind its front: dark navy there
            assert pixel(mirrored[index]) == pytest.approx((41, 46, 71), abs=20)
        assert pixel(mirrored[2]) == (255, 255, 255)  # no third card, no third back
        assert pixel(layout.trims[0]) == (255, 255, 255)  # the unmirrored place stays empty
