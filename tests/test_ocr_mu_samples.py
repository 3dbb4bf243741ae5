"""End to end with the real tesseract: Marvel United samples (clean, and skewed on a scanner
bed or photographed on a table) to validating drafts whose fields equal the truth written
from the YAML the cards were drawn from."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.ocr_samples import drafts_of_samples

CHOSEN = [
    "mu-crossbones-mp01-clean.png",  # BAM!, 3 Thugs left, Civilian in the Villain's slot, effect
    "mu-lizard-mp01-150dpi.png",  # the Sewer anchor, mixed tokens, 150 dpi
    "mu-baron-zemo-mp03-clean.png",  # Move *, movement sentence, effect, no diagram
    "mu-knull-threat-venom-t-rex-clean.png",  # Health on a bar
    "mu-crossbones-dashboard-clean.png",  # two columns, villainous plot, player-count table
    # degraded: the outline found on a scanner bed / a table and squared up, no regions off
    "mu-crossbones-mp01-skew2.jpg",  # 2 degrees on a bed, JPEG: BAM! cut by its own word
    "mu-baron-zemo-mp03-phone.jpg",  # phone photo: Move *, movement sentence, effect
    "mu-crossbones-dashboard-phone.jpg",  # a landscape card in perspective: both shapes tried
]

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract")


def test_samples_become_validating_drafts_with_the_printed_values(cli, tmp_path):
    found = drafts_of_samples(cli, tmp_path, "marvel-united", CHOSEN)
    assert [stem for stem, _, _ in found] == [Path(name).stem for name in CHOSEN]
    for _, truth, draft in found:
        card = draft.get("card", {})
        if truth["card"] == "masterplan":
            assert draft["kind"] == "marvel-united/masterplan-card"
            assert (card["n"], card["move"], card.get("bam", False)) == (
                truth["n"],
                truth["move"],
                truth["bam"],
            )
            want = truth["place"]
            if isinstance(want, dict):
                want = {slot: counts for slot, counts in want.items() if counts}
            assert card.get("place") == want
            assert [e.get("name") for e in card.get("effects", [])] == [
                e.get("name") for e in truth["effects"]
            ]
            assert card.get("movement") == truth["movement"]
            assert f"Villain as printed on the card: {truth['name']} " in draft["notes"][0]
        elif truth["card"] == "threat":
            assert draft["kind"] == "marvel-united/threat-card"
            assert (card["name"], card["health"]) == (truth["name"], truth["health"])
            assert card["text"] == truth["text"]
        else:
            board = draft["dashboard"]
            assert draft["kind"] == "marvel-united/dashboard"
            heroes = {int(k): v for k, v in board["player_count"]["heroes"].items()}
            assert heroes == truth["player_count"]
            plot = next(s for s in truth["sections"] if s["heading"].startswith("Villainous"))
            assert board["villainous_plot"]["name"] == plot["heading"].partition(" - ")[2]
            assert board["special_rules"] == truth["sections"][0]["text"]


def test_a_scan_without_colour_leaves_tokens_and_marks_to_a_person(cli, tmp_path):
    from PIL import Image

    from tests.conftest import ROOT

    scans = tmp_path / "scans"
    scans.mkdir()
    sample = ROOT / "scans/samples/marvel-united/mu-crossbones-mp01-clean.png"
    Image.open(sample).convert("L").save(scans / "grey.png")  # a greyscale scan of BAM! + Thugs
    out = tmp_path / "drafts"
    assert cli(["ocr", str(scans), "--out", str(out), "--system", "marvel-united"]).returncode == 0
    assert cli(["validate", str(out)]).returncode == 0
    import yaml

    draft = yaml.safe_load((out / "grey.yaml").read_text())
    # nothing told by colour is guessed (it said BAM! absent, surely): each is a gap instead
    assert "bam" not in draft["card"] and "place" not in draft["card"]
    gaps = {tuple(g["fields"]): g["note"] for g in draft["gaps"]}
    assert "no colour" in gaps[("card/bam",)] and "no colour" in gaps[("card/place",)]
    assert draft["card"]["n"] == 1  # what is read as text is read as before
