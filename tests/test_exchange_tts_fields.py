"""TTS, field by field: the saved objects hold what TTS reads (a JSON schema written from
TTS's own documentation and saved objects TTS wrote), landscape cards lie sideways, a
two-sided card is one card, CustomDeck keys never clash, thumbnails, encoded URLs."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import jsonschema
import pytest
from PIL import Image, ImageChops

from cardkit.exchange import tts, tts_files
from cardkit.gaps import rows as gaps
from cardkit.render import content
from tests.conftest import ROOT

KLAW = ROOT / "cards/marvel-united/multiverse-ks-promos/klaw.yaml"
SCHEMA = json.loads((ROOT / "tests/data/tts/saved-object.schema.json").read_text())


def _export(tmp_path: Path, base_url: str | None = None) -> list[dict[str, object]]:
    documents, problems = gaps.load([KLAW])
    assert not problems
    out = tmp_path / "tts out"  # a space in the folder: file:// URLs must encode it
    written = tts_files.export(content.collect(documents), out, base_url=base_url)
    saved = []
    for deck in written:
        data = json.loads(deck.json_path.read_text())
        jsonschema.validate(data, SCHEMA)
        saved.append(data)
    return saved


def _cards(state: dict) -> list[dict]:  # type: ignore[type-arg]
    return state["ContainedObjects"] if state["Name"] == "DeckCustom" else [state]


def test_every_saved_object_holds_the_fields_tts_reads(tmp_path: Path) -> None:
    saved = _export(tmp_path)
    states = [data["ObjectStates"][0] for data in saved]  # type: ignore[index]
    names = [card["Nickname"] for state in states for card in _cards(state)]
    # the dashboard and its back are one card (the back is no card of its own)
    assert "Klaw" in names and "Klaw · Super Villain" not in names
    assert len(states) == 3  # the dashboard, the master plan deck, the threat deck
    assert len(names) == 1 + 12 + 6


def test_customdeck_keys_are_unique_in_an_object_and_across_the_export(tmp_path: Path) -> None:
    seen: dict[str, str] = {}
    for data in _export(tmp_path):
        (state,) = data["ObjectStates"]  # type: ignore[misc]
        for key in state["CustomDeck"]:
            assert key not in seen, f"key {key} of {state['Nickname']} is {seen[key]}'s too"
            seen[key] = state["Nickname"]
        for card in _cards(state):
            key = str(card["CardID"] // 100)
            assert list(card["CustomDeck"]) == [key]  # each card names its own sheet
            assert card["CustomDeck"][key] == state["CustomDeck"][key]
    assert len(seen) == 3


def test_landscape_cards_lie_sideways_and_the_dashboard_has_its_own_back(tmp_path: Path) -> None:
    saved = _export(tmp_path)
    states = [data["ObjectStates"][0] for data in saved]  # type: ignore[index]
    dashboard = next(s for s in states if s["Nickname"] == "Klaw")
    assert dashboard["Name"] == "Card" and dashboard["SidewaysCard"] is True
    (entry,) = dashboard["CustomDeck"].values()
    assert entry["UniqueBack"] is True
    face, back = (Path(unquote(urlparse(entry[k]).path)) for k in ("FaceURL", "BackURL"))
    assert face.exists() and back.exists() and face != back
    # the back sheet's cell holds the dashboard's back as the proof painter draws it
    documents, _ = gaps.load([KLAW])
    cards = content.collect(documents)
    other = next(c for c in cards if c.kind == "dashboard-back")
    size = tts.card_pixels(*tts_files.size_of(other))
    assert size[0] > size[1]  # 150 x 100 mm: landscape
    expected = tts_files.pictures([other], size)[0]
    cell = Image.open(back).convert("RGB").crop((0, 0, *size))
    assert ImageChops.difference(cell, expected).getbbox() is None
    for state in states:
        if state is dashboard:
            continue
        assert state["SidewaysCard"] is False  # portrait decks stand up
        assert all(card["SidewaysCard"] is False for card in _cards(state))


def test_each_saved_object_has_its_thumbnail(tmp_path: Path) -> None:
    _export(tmp_path)
    out = tmp_path / "tts out"
    for json_path in out.glob("*.json"):
        tile = json_path.with_suffix(".png")
        assert tile.exists(), f"no thumbnail for {json_path.name}"
        with Image.open(tile) as image:
            assert image.size == (256, 256)
            assert image.convert("L").getextrema()[0] < 200  # a card is drawn on it


@pytest.mark.parametrize(
    "base,expected",
    [
        ("https://example.org/my decks/", "https://example.org/my%20decks/"),
        ("https://example.org/a%20b", "https://example.org/a%20b/"),  # not encoded twice
        ("https://example.org/d#x", "https://example.org/d/"),
    ],
)
def test_urls_are_percent_encoded(tmp_path: Path, base: str, expected: str) -> None:
    for data in _export(tmp_path, base_url=base):
        (state,) = data["ObjectStates"]  # type: ignore[misc]
        for entry in state["CustomDeck"].values():
            for url in (entry["FaceURL"], entry["BackURL"]):
                assert url.startswith(expected) and " " not in url
    local = _export(tmp_path)
    entry = next(iter(local[0]["ObjectStates"][0]["CustomDeck"].values()))  # type: ignore[index]
    assert "/tts%20out/" in entry["FaceURL"]


def test_the_schema_refuses_what_tts_cannot_read() -> None:
    entry = {
        "FaceURL": "https://x.org/a b.png",
        "BackURL": "https://x.org/b.png",
        "NumWidth": 2,
        "NumHeight": 2,
        "BackIsHidden": True,
        "UniqueBack": False,
    }
    card = {
        "Name": "Card",
        "Transform": dict(tts.TRANSFORM),
        "CardID": 100,
        "CustomDeck": {"1": entry},
        "GUID": "abc123",
    }
    with pytest.raises(jsonschema.ValidationError):  # a space in a URL
        jsonschema.validate(
            {"SaveName": "", "Date": "", "VersionNumber": "", "ObjectStates": [card]}, SCHEMA
        )
    entry["FaceURL"] = "https://x.org/a%20b.png"
    jsonschema.validate(
        {"SaveName": "", "Date": "", "VersionNumber": "", "ObjectStates": [card]}, SCHEMA
    )
