"""Each sheet's legend names the icons of that sheet's cards: its fronts and, with
--backs, the other sides printed behind them; never a neighbouring sheet's."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from cardkit.render import content, pdf, sheet

MM = 72 / 25.4
MU = "marvel-united"


def _card(title: str, tokens: dict[str, int], source: str, back_of: str = "") -> content.ProofCard:
    return content.ProofCard(
        system=MU,
        deck="Test",
        title=title,
        placement={"left": tokens},
        source=source,
        back_of=back_of,
    )


def _legend_words(page_text: str) -> set[str]:
    return {label for label in ("Thug", "Crisis", "Civilian", "Infection") if label in page_text}


def test_each_sheet_legend_lists_its_own_cards_front_and_back() -> None:
    layout = sheet.layout("a4", sheet.card_size(MU), 3 * MM, None, 4 * MM)
    assert layout.per_page == 9
    first = [_card(f"One {n}", {"thug": 1}, f"one-{n}") for n in range(9)]
    behind = _card("Behind", {"crisis": 1}, "behind", back_of="one-0")
    second = [_card(f"Two {n}", {"civilian": 1}, f"two-{n}") for n in range(9)]
    data = pdf.render([*first, behind, *second], layout, backs="short")
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]
    assert len(pages) == 4  # sheet 1 front, back; sheet 2 front, back
    assert "Behind" in pages[1] and "Behind" not in pages[0]
    assert _legend_words(pages[0]) == {"Thug", "Crisis"}  # its back's crisis too
    assert _legend_words(pages[2]) == {"Civilian"}  # nothing carried over from sheet 1


def test_a_crowded_legend_shrinks_and_counts_what_it_leaves_out() -> None:
    layout = sheet.layout("a4", sheet.card_size(MU), 3 * MM, None)
    names = ["civilian", "thug", "crisis", "infection", "ko", "stunned", "action", "heroic-action"]
    card = content.ProofCard(
        system=MU, deck="Test", title="Many", text=" ".join(f"{{{n}}}" for n in names)
    )
    data = pdf.render([card], layout)
    text = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    labels = ["Civilian", "Thug", "Crisis", "Infection", "KO", "Stunned", "Action", "Heroic Action"]
    shown = [label for label in labels if re.search(rf"\b{label}\b", text)]
    left_out = re.search(r"\+(\d+)", text)
    missing = len(labels) - len(shown)
    assert missing == (int(left_out[1]) if left_out else 0)
    assert len(shown) >= 4  # shrinking fits more than the 3 the band held at full size
