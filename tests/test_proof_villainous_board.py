"""Villainous: the board proxy at its size (four locations, their symbols, the lock only
where the data says so, the objective) and Villain / Fate card proxies."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from pypdf import PdfReader

from cardkit.gaps import rows as gaps
from cardkit.render import content, pdf, sheet
from cardkit.render.proof import ProofOptions, layouts, make_proof
from cardkit.render.text_fit import plain
from tests.conftest import ROOT

MM = 72 / 25.4
HOOK = ROOT / "cards/villainous/user-manual/captain-hook.yaml"
EXAMPLE = ROOT / "docs/examples/villainous-villain.yaml"
CARD = ROOT / "docs/examples/villainous-card.yaml"
FATE = """\
kind: villainous/card
id: test-fate
villain_ref: example-villain
deck: fate
title: Sudden Storm
type: Effect
ability: Move the Villain to any location. Discard two cards.
copies: 1
"""


def _collect(*paths: Path) -> list[content.ProofCard]:
    documents, problems = gaps.load(list(paths))
    assert not problems
    return content.collect(documents)


def test_a_villain_s_board_is_one_proxy_with_four_locations_and_its_objective() -> None:
    (board, objective) = _collect(HOOK)
    assert board.kind == "board" and objective.kind == "objective"
    assert [p.title for p in board.panels] == [
        "Jolly Roger",
        "Skull Rock",
        "Mermaid Lagoon",
        "Hangman's Tree",
    ]
    # the data says `locked: false` for each (unconfirmed): no lock symbol anywhere
    assert all("lock" not in row for p in board.panels for row in p.icon_rows)
    assert all(p.unconfirmed == {"locked"} for p in board.panels)
    assert "locked" in board.unconfirmed  # the board is picked by --only unconfirmed
    assert plain(board.text) == "Objective: Defeat Peter Pan at the Jolly Roger."
    example = _collect(EXAMPLE)[0]
    locks = [p.title for p in example.panels if any("lock" in row for row in p.icon_rows)]
    assert locks == ["The Lighthouse"]  # `locked: true` only there
    # 250 x 90 mm (formats.yaml, written here by hand)
    assert sheet.card_size("villainous", "board") == pytest.approx((250 * MM, 90 * MM))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_board_prints_whole_on_a_landscape_page(paper: str, tmp_path: Path) -> None:
    documents, _ = gaps.load([HOOK, EXAMPLE])
    out = tmp_path / "board.pdf"
    options = ProofOptions(paper=paper, bleed="3mm")
    make_proof(documents, out, options)
    layout = layouts(options)(sheet.card_size("villainous", "board"))
    assert layout.paper.w > layout.paper.h  # turned: 250 mm is wider than either upright
    # Letter turned, inside 0.25 in: 266.7 x 203.2 mm; across 250 + 6 + 5 = 261, down two
    # boards 180 + 6 + 5 (marks) + 5 (ruler) = 196: two a page (A4 is larger each way)
    assert layout.per_page == 2
    data = out.read_bytes()
    reader = PdfReader(io.BytesIO(data))
    first = reader.pages[0]
    assert float(first.mediabox.width) > float(first.mediabox.height)
    text = first.extract_text()
    for needle in ("Captain Hook's Realm", "Jolly Roger", "Hangman's Tree", "Objective:"):
        assert needle in text
    assert text.count("Locked") == 1  # the Lighthouse's tag; Captain Hook's board has none
    assert "Lock" in text.replace("Locked", "")  # the legend names the lock symbol
    image = np.asarray(pdf.to_png(data, 72, pages=1)[0].convert("L"))
    band = round(layout.margin) - 1
    inside = np.zeros(image.shape, dtype=bool)
    inside[band:-band, band:-band] = True
    assert np.count_nonzero(image[~inside] < 250) == 0  # nothing in the printable margin


def test_villain_and_fate_cards_carry_cost_strength_type_and_ability(tmp_path: Path) -> None:
    fate = tmp_path / "fate.yaml"
    fate.write_text(FATE, encoding="utf-8")
    villain, keeper_two, storm = _collect(CARD, fate)[0], _collect(CARD)[1], _collect(fate)[0]
    assert villain.kind == "villain-card" and villain.title == "Lantern Keeper"
    assert villain.stats == (("Cost", "2"), ("Strength", "3")) and villain.tags == ("Ally",)
    assert villain.text.startswith("When Lantern Keeper is played")
    assert villain.corner == "1/2" and keeper_two.corner == "2/2"
    assert villain.unconfirmed == {"ability"}
    assert storm.kind == "fate-card" and storm.deck == "example-villain · Fate deck"
    assert storm.stats == () and storm.tags == ("Effect",)
    data = pdf.render([villain, storm], lambda size: sheet.layout("a4", size, 0))
    text = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    for needle in ("Lantern Keeper", "Cost", "Strength", "Ally", "Sudden Storm", "Effect"):
        assert needle in text
