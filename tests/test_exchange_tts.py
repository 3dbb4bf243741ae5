"""Tabletop Simulator export: the saved object opens as a deck whose card ids show their cards."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image, ImageChops

from cardkit.exchange import tts, tts_files
from cardkit.render import content
from tests.conftest import run_cli

HERO = """\
kind: marvel-united/hero
id: test-hero
name: Test Hero
cards:
{cards}
"""


def _hero(folder: Path, count: int) -> Path:
    """A hero whose cards all differ: each title and text names its number."""
    lines = "\n".join(
        f"  - {{name: Move {n}, copies: {1 + n % 2}, text: Card number {n} of this test deck.}}"
        for n in range(1, count + 1)
    )
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "test-hero.yaml"
    path.write_text(HERO.format(cards=lines), encoding="utf-8")
    return path


def _file(url: str) -> Path:
    return Path(unquote(urlparse(url).path))


def test_sheet_geometry_is_what_tts_reads() -> None:
    assert tts.card_pixels(63.5, 88.9) == (409, 573)
    w, h = tts.card_pixels(63.5, 88.9)
    assert w * tts.MAX_COLS <= 4096 and h * tts.MAX_ROWS <= 4096
    split = tts.sheets(75)
    assert [(s.key, s.first, s.count, s.cols, s.rows) for s in split] == [
        (1, 0, 70, 10, 7),
        (2, 70, 5, 5, 2),
    ]
    assert [(s.cols, s.rows) for s in tts.sheets(1)] == [(2, 2)]  # TTS's smallest grid
    assert tts.cell(split[1], 203, (409, 573)) == (3 * 409, 0, 4 * 409, 573)
    assert tts.cell(split[0], 111, (409, 573)) == (409, 573, 2 * 409, 2 * 573)


def test_every_card_id_points_at_a_cell_holding_that_cards_image(tmp_path: Path) -> None:
    source = _hero(tmp_path / "cards", 36)  # 54 cards with copies: one sheet
    result = run_cli(["export", "tts", str(source), "--out", str(tmp_path / "tts")])
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"wrote 1 decks to {tmp_path / 'tts'}: 54 cards on 1 sheets"
    saved = json.loads((tmp_path / "tts/test-hero.json").read_text())
    (deck,) = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "Test Hero"
    assert deck["DeckIDs"] == [c["CardID"] for c in deck["ContainedObjects"]]
    assert len(deck["DeckIDs"]) == 54

    # Expected pictures, painted on their own by the proof renderer.
    from cardkit.gaps import rows as gaps

    documents, _ = gaps.load([source])
    cards = content.collect(documents)
    size = tts.card_pixels(*tts_files.size_of(cards[0]))
    expected = list(zip(cards, tts_files.pictures(cards, size), strict=True))
    assert len({card.title for card, _ in expected}) == 36

    sheets: dict[str, Image.Image] = {}
    for card in deck["ContainedObjects"]:
        key, index = divmod(card["CardID"], 100)
        custom = deck["CustomDeck"][str(key)]
        face = _file(custom["FaceURL"])
        sheet = sheets.setdefault(str(face), Image.open(face).convert("RGB"))
        w, h = sheet.width // custom["NumWidth"], sheet.height // custom["NumHeight"]
        assert (w, h) == size
        col, row = index % custom["NumWidth"], index // custom["NumWidth"]
        crop = sheet.crop((col * w, row * h, (col + 1) * w, (row + 1) * h))
        matches = {
            proof.title
            for proof, image in expected
            if ImageChops.difference(crop, image).getbbox() is None
        }
        assert matches == {card["Nickname"]}, (card["CardID"], matches)
        number = card["Nickname"].split()[-1]
        assert card["Description"] == f"Card number {number} of this test deck."
    back = Image.open(_file(deck["CustomDeck"]["1"]["BackURL"]))
    assert back.size == size


def test_more_than_70_cards_take_a_second_sheet_and_base_url(tmp_path: Path) -> None:
    source = _hero(tmp_path / "cards", 48)  # 72 cards
    out = tmp_path / "tts"
    result = run_cli(
        ["export", "tts", str(source), "--out", str(out), "--base-url", "https://example.org/d/"]
    )
    assert result.returncode == 0, result.stderr
    deck = json.loads((out / "test-hero.json").read_text())["ObjectStates"][0]
    assert deck["CustomDeck"]["1"]["FaceURL"] == "https://example.org/d/test-hero-1.png"
    assert (deck["CustomDeck"]["2"]["NumWidth"], deck["CustomDeck"]["2"]["NumHeight"]) == (2, 2)
    assert deck["DeckIDs"][69:] == [169, 200, 201]
    assert Image.open(out / "test-hero-1.png").size == (4090, 4011)
    assert Image.open(out / "test-hero-2.png").size == (818, 1146)


@pytest.mark.parametrize("args", [["--deck", "nothing-like-this"]])
def test_no_cards_is_a_usage_error(tmp_path: Path, args: list[str]) -> None:
    source = _hero(tmp_path / "cards", 2)
    result = run_cli(["export", "tts", str(source), "--out", str(tmp_path / "o"), *args])
    assert result.returncode == 2
    assert result.stderr.startswith(
        "cardkit: --deck nothing-like-this matches no deck here; decks: "
    )
    assert result.stderr.count("\n") == 1 and not (tmp_path / "o").exists()


def test_an_imported_marvelsdb_villain_set_is_one_deck_with_double_sided_cards(
    tmp_path: Path,
) -> None:
    from cardkit.gaps import rows as gaps
    from tests.conftest import ROOT

    pack = ROOT / "tests/data/marvelsdb/pack/core_encounter.json"
    rhino = [c for c in json.loads(pack.read_text()) if c.get("set_code") == "rhino"]
    cards = tmp_path / "cards"
    assert run_cli(["import", "marvelsdb", str(pack), "--out", str(cards)]).returncode == 0
    result = run_cli(["export", "tts", str(cards / "rhino"), "--out", str(tmp_path / "tts")])
    assert result.returncode == 0, result.stderr
    (deck,) = json.loads((tmp_path / "tts/rhino.json").read_text())["ObjectStates"]
    names = [c["Nickname"] for c in deck["ContainedObjects"]]
    # Every box copy is a card, except the main scheme's B side: it is 01097a's back.
    assert len(names) == sum(c["quantity"] for c in rhino) - 1 == 21
    assert names.count("Stampede") == 3 and names.count("The Break-In!") == 1
    custom = deck["CustomDeck"]["1"]
    assert custom["UniqueBack"] is True
    backs = Image.open(_file(custom["BackURL"])).convert("RGB")
    faces = Image.open(_file(custom["FaceURL"])).convert("RGB")
    assert backs.size == faces.size

    documents, _ = gaps.load([cards / "rhino"])
    proofs = {p.doc_id: p for p in content.collect(documents)}
    size = tts.card_pixels(*tts_files.size_of(proofs["01097b"]))
    side_b, side_a = tts_files.pictures([proofs["01097b"], proofs["01097a"]], size)
    common = Image.open(tmp_path / "tts/rhino-back.png").convert("RGB")
    grid = tts.Sheet(1, 0, 21, custom["NumWidth"], custom["NumHeight"])
    for card in deck["ContainedObjects"]:
        box = tts.cell(grid, card["CardID"], size)
        back = backs.crop(box)
        if card["Nickname"] == "The Break-In!":
            assert ImageChops.difference(faces.crop(box), side_a).getbbox() is None
            assert ImageChops.difference(back, side_b).getbbox() is None
        else:
            assert ImageChops.difference(back, common).getbbox() is None, card["Nickname"]
