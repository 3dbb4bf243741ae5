"""Findings about a database box, each at its line in the file (on the hand-written box)."""

from __future__ import annotations

import json

from cardkit.games.marvel_united import mudb_findings
from cardkit.games.marvel_united.mudb_positions import Positions
from tests.conftest import ROOT

BOX = ROOT / "tests/data/mudb/handmade-box.json"


def _line_of(text: str, needle: str, after: int = 0) -> int:
    """The 1-based line of the first `needle` at or after line `after`."""
    lines = text.splitlines()
    return next(i + 1 for i in range(after, len(lines)) if needle in lines[i])


def test_positions_are_the_lines_where_the_values_start() -> None:
    text = BOX.read_text(encoding="utf-8")
    at = Positions(text)
    assert at.at("boxId") == (2, 12)  # `  "boxId": "CK-Handmade",`
    gravelord = _line_of(text, '"loyalty": "villain"') - 2  # its `{` opens two lines above
    assert at.at("characters[0]")[0] == gravelord
    mp2 = _line_of(text, "Gravelord-MP2.jpg") - 2
    assert at.at("characters[0].cards[1]")[0] == mp2
    assert at.at("characters[0].cards[1].add.right[0]")[0] == _line_of(text, '"X"')
    assert at.at("characters[0].cards[1].no.such.key") == at.at("characters[0].cards[1]")


def test_findings_are_true_of_the_file_and_none_is_the_imports_fault() -> None:
    text = BOX.read_text(encoding="utf-8")
    report = mudb_findings.BoxReport("handmade-box.json")
    mudb_findings.source_findings(json.loads(text), report)
    mudb_findings.cardkit_findings(BOX, report)
    rows = {f.who: f.problems for f in report.findings}
    assert rows == {
        "Gravelord": ["master plan deck 4, not 12", "threat deck 3, not 6"],
        "Brass Wing": [
            "master plan deck 1, not 12",
            "threat deck 0, not 6",
            "Dashboard front lacks plot, overflow",
        ],
    }
    unnamed = {key for _, key in report.unnamed}
    assert unnamed == {
        "M", "hazardous", "reusable", "back", "trigger", "effect",
        "cardType: equipment", "letter D", "letter X", "actions letter Z",
    }  # fmt: skip
    assert report.unexplained == []
    codes = {f.who: f.codes for f in report.findings}
    assert codes["Brass Wing"] == {"MU101", "MU108", "MU109"}
    rendered = mudb_findings.render(report, Positions(text))
    line = _line_of(text, '"loyalty": "villain"') - 2
    assert f"| Gravelord | `characters[0]` l.{line}, " in rendered
