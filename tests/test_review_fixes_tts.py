"""Review fixes on `export tts`: one deck's files never replace another deck's."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

from PIL import Image

from tests.conftest import run_cli

HERO = """\
kind: marvel-united/hero
id: {ident}
name: {name}
cards:
  - {{name: Move A, copies: 1, text: First card of {name}.}}
  - {{name: Move B, copies: 1, text: Second card of {name}.}}
"""


def _urls(saved: dict) -> set[Path]:  # type: ignore[type-arg]
    (deck,) = saved["ObjectStates"]
    found = set()
    for sheet in deck["CustomDeck"].values():
        found |= {Path(unquote(urlparse(sheet[k]).path)) for k in ("FaceURL", "BackURL")}
    return found


def test_decks_whose_names_differ_by_a_number_keep_their_own_sheets(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    cards.mkdir()
    # "Test Hero" has the sheet test-hero-1.png; "Test Hero 1"'s own files start test-hero-1
    for ident, name in (("a-hero", "Test Hero"), ("b-hero", "Test Hero 1")):  # in this order
        (cards / f"{ident}.yaml").write_text(HERO.format(ident=ident, name=name), "utf-8")
    out = tmp_path / "tts"
    result = run_cli(["export", "tts", str(cards), "--out", str(out)])
    assert result.returncode == 0, result.stderr
    saved = [json.loads(p.read_text("utf-8")) for p in sorted(out.glob("*.json"))]
    assert len(saved) == 2
    first, second = (_urls(s) for s in saved)
    assert not first & second
    thumbnails = {p for p in out.glob("*.png") if Image.open(p).size == (256, 256)}
    for path in first | second:  # each sheet a deck points at is a sheet, not a thumbnail
        assert path.is_file() and path not in thumbnails, path.name
    assert len(thumbnails) == 2  # and each deck has its own thumbnail


def test_deck_stems_that_would_share_a_file_are_told_apart() -> None:
    from cardkit.exchange.tts_files import own_stem

    taken: list[str] = []
    assert own_stem("klaw", taken) == "klaw"
    assert own_stem("klaw", taken) == "klaw-deck2"  # the same stem again
    assert own_stem("klaw-back", taken) == "klaw-back-deck2"  # klaw's back picture
    assert own_stem("klaw-dashboard", taken) == "klaw-dashboard"  # no file of klaw's
    assert own_stem("klaw-back-3", taken) == "klaw-back-3-deck2"
