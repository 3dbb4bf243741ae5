"""Review fixes on `cardkit review`'s server: a malformed change is a 400, not a dropped
connection with a traceback in the terminal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.review_helpers import Client, make_repo, running

KLAW = "cards/marvel-united/test-box/klaw.yaml"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


def _gap(client: Client, address: str) -> tuple[dict[str, Any], dict[str, Any]]:
    for card in client.cards().values():
        if card["path"].endswith("klaw.yaml"):
            for gap in card["gaps"]:
                if gap["address"] == address:
                    return card, gap
    raise AssertionError(address)


@pytest.mark.parametrize(
    "address,control",
    [
        ("dashboard/player_count", {"type": "numbers", "leaves": [[[], 1]]}),
        ("masterplan/cards/1/place", {"type": "counts", "counts": ["left"]}),
        ("masterplan/cards/1/place", {"type": "counts", "counts": {"left": {"thug": 1e400}}}),
    ],
    ids=["empty-leaf-path", "counts-not-a-mapping", "count-too-big"],
)
def test_a_malformed_control_is_a_400_and_changes_nothing(
    repo: Path, address: str, control: dict[str, Any]
) -> None:
    before = (repo / KLAW).read_bytes()
    with running(repo) as review:
        client = Client(review)
        card, gap = _gap(client, address)
        body = {
            "card": card["id"],
            "address": address,
            "by": "ana",
            "evidence": "the card in hand",
            "seen": {"etag": card["etag"], "value": gap["value"], "marked": gap["marked"]},
            "control": control,
        }
        status, _, raw = client.request("POST", "/api/confirm", body)
        assert status == 400, raw
        assert "incomplete" in json.loads(raw)["error"]
        assert client.json("GET", "/api/state")[0] == 200  # still serving
    assert (repo / KLAW).read_bytes() == before
