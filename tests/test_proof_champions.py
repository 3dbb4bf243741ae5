"""Marvel Champions proxies print every number a scheme carries, each under its own
label, and mark the per-hero ones with the per-hero icon (named in the sheet's legend)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image
from pypdf import PdfReader

from cardkit.gaps import rows as gaps
from cardkit.render import pdf, sheet
from cardkit.render.icons import lookup
from cardkit.render.proof import ProofOptions, make_proof

MM = 72 / 25.4
# A main scheme written for this test: starting threat 2 (fixed), escalation 1 per hero,
# target threat 9 per hero.
SCHEME = """kind: marvel-champions/card
id: test-heist
code: "90001"
name: Test Heist
type_code: main_scheme
base_threat: 2
base_threat_fixed: true
escalation_threat: 1
escalation_threat_fixed: false
threat: 9
threat_fixed: false
text: Test text.
"""
SIDE = """kind: marvel-champions/card
id: test-side
code: "90002"
name: Test Side
type_code: side_scheme
base_threat: 4
base_threat_fixed: true
"""


def _proof(tmp_path: Path, text: str) -> tuple[str, Image.Image]:
    (tmp_path / "cards").mkdir(exist_ok=True)
    card = tmp_path / "cards" / "scheme.yaml"
    card.write_text(text, encoding="utf-8")
    documents, problems = gaps.load([card])
    assert not problems
    out = tmp_path / "out.pdf"
    make_proof(documents, out, ProofOptions())
    data = out.read_bytes()
    words = " ".join(page.extract_text() for page in PdfReader(out).pages)
    return words, pdf.to_png(data, 150)[0].convert("RGB")


def test_a_main_scheme_prints_starting_escalation_and_target_threat(tmp_path: Path) -> None:
    words, _ = _proof(tmp_path, SCHEME)
    for label in ("Starting threat", "Escalation", "Target threat"):
        assert label in words
    tokens = words.split()
    assert "9" in tokens and "2" in tokens and "1" in tokens
    assert "Per hero" in words  # the legend names the per-hero mark


def test_per_hero_icons_sit_beside_exactly_the_per_hero_numbers(tmp_path: Path) -> None:
    _, image = _proof(tmp_path, SCHEME)
    blue = lookup("marvel-champions", "per_hero").rgb255
    layout = sheet.layout("a4", sheet.card_size("marvel-champions", "main-scheme"), 0, None)
    trim = layout.trims[0]
    scale = 150 / 72
    # the stats band sits under the title: look for the icon's blue in each third of it
    top = round((layout.paper.h - trim.y - trim.h) * scale)
    band = image.crop(
        (round(trim.x * scale), top, round((trim.x + trim.w) * scale), top + round(30 * MM * scale))
    )
    thirds = [
        band.crop((i * band.width // 3, 0, (i + 1) * band.width // 3, band.height))
        for i in range(3)
    ]

    def has_blue(part: Image.Image) -> bool:
        distance = np.abs(np.asarray(part, dtype=int) - np.array(blue)).sum(axis=2)
        return int((distance < 40).sum()) > 10

    assert [has_blue(part) for part in thirds] == [False, True, True]


def test_a_fixed_threat_has_no_per_hero_mark(tmp_path: Path) -> None:
    words, _ = _proof(tmp_path, SIDE)
    assert "Starting threat" in words and "4" in words.split()
    assert "Per hero" not in words
