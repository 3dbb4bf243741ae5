"""marvelsdb JSON both ways, on a real excerpt of marvelsdb-json-data (tests/data/marvelsdb)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardkit.files import yamlio
from cardkit.games.marvel_champions import marvelsdb, marvelsdb_files
from tests.conftest import ROOT, run_cli

DATA = ROOT / "tests/data/marvelsdb"
PACKS = ("pack/core.json", "pack/core_encounter.json")


@pytest.fixture
def data(tmp_path: Path) -> Path:
    copy = tmp_path / "marvelsdb"
    shutil.copytree(DATA, copy)
    return copy


def _originals(folder: Path) -> dict[str, dict[str, object]]:
    return {c["code"]: c for name in PACKS for c in json.loads((folder / name).read_text())}


def test_import_writes_one_card_file_per_card_in_a_folder_per_set(data: Path) -> None:
    plan = marvelsdb_files.plan_import([data / p for p in PACKS], data / "cards")
    names = {p.relative_to(data / "cards").as_posix() for p in plan.files}
    assert len(names) == 50
    assert "rhino/01097a.yaml" in names and "rhino/01097b.yaml" in names
    assert "spider-man/01001a.yaml" in names  # hero set, player file
    assert "spider-man/01165.yaml" in names  # same set, from the encounter file
    assert "core-justice/01060.yaml" in names  # no set_code: pack and faction
    text = plan.files[data / "cards/rhino/01095.yaml"]
    doc = yamlio.load_text(text)
    assert text.startswith("# yaml-language-server: $schema=")
    assert doc["kind"] == "marvel-champions/card" and doc["id"] == "01095"
    assert doc["text"].startswith("<b>When Revealed</b>: Search the encounter deck")
    assert (doc["stage"], doc["set_code"], doc["pack_code"]) == ("II", "rhino", "core")


def test_round_trip_reproduces_every_field_of_the_real_pack_files(data: Path) -> None:
    plan = marvelsdb_files.plan_import([data / p for p in PACKS], data / "cards")
    documents = [yamlio.load_text(text) for text in plan.files.values()]
    cards = marvelsdb.cards_from_documents(documents)
    files = marvelsdb.pack_files(cards)
    assert sorted(files) == list(PACKS)
    for name in PACKS:
        original = json.loads((data / name).read_text())
        exported = json.loads(marvelsdb.dump(files[name]))
        assert sorted(exported, key=lambda c: c["code"]) == sorted(
            original, key=lambda c: c["code"]
        )


def test_cardkit_fields_never_reach_marvelsdb() -> None:
    doc = {
        "kind": "marvel-champions/card",
        "id": "01003",
        "code": "01003",
        "name": "Backflip",
        "quantity": 2,
        "deck_limit": 2,
        "unconfirmed": ["quantity"],
        "provenance": {"scan": "scans/x.png"},
        "box": "core",
    }
    assert marvelsdb.card_from_document(doc) == {
        "code": "01003",
        "deck_limit": 2,
        "name": "Backflip",
        "quantity": 2,
    }


def test_pack_file_follows_marvelsdb_layout() -> None:
    assert marvelsdb.pack_file({"pack_code": "fne", "faction_code": "justice"}) == "pack/fne.json"
    assert (
        marvelsdb.pack_file({"pack_code": "fne", "faction_code": "encounter"})
        == "pack/fne_encounter.json"
    )


DECKLIST = """\
kind: marvel-champions/decklist
id: spider-man-justice
name: Spider-Man / Justice
hero: Spider-Man
aspect: Justice
intro: [A practice deck written for this test.]
groups:
  - name: Spider-Man cards
    role: hero
    cards:
      - {name: Backflip, count: 2}
      - {name: Black Cat, count: 1}
      - {name: Web-Shooter, count: 2}
  - name: Justice cards
    role: aspect
    cards:
      - {name: For Justice!, count: 3}
      - {name: Daredevil, count: 1}
  - name: Basic cards
    role: basic
    cards:
      - {name: Energy, count: 2}
      - {name: Helicarrier, count: 1}
  - name: Nemesis set
    role: nemesis
    cards:
      - {name: Vulture, count: 1}
"""


def test_decklist_maps_to_marvelsdb_deck_slots_with_deck_counts() -> None:
    cards = list(_originals(DATA).values())
    result = marvelsdb.deck_from_decklist(yamlio.load_text(DECKLIST), cards)
    assert result.problems == []
    assert result.deck["hero_code"] == "01001a"
    assert json.loads(result.deck["meta"]) == {"aspect": "justice"}
    # Deck counts, not box quantities: Energy has quantity 4 in the box, deck_limit 1.
    assert result.deck["slots"] == {
        "01002": 1,
        "01003": 2,
        "01008": 2,
        "01058": 1,
        "01060": 3,
        "01088": 2,
        "01092": 1,
    }
    assert result.warnings == [
        (("groups", 2, "cards", 0), "2 copies of 01088 'Energy' exceed its deck_limit 1")
    ]
    assert result.left_out == ["Nemesis set (nemesis: encounter cards)"]


def test_decklist_names_no_card_matches_are_findings_with_positions(tmp_path: Path) -> None:
    cards = list(_originals(DATA).values())
    data = yamlio.load_text(DECKLIST.replace("Helicarrier", "Helicarier"))
    result = marvelsdb.deck_from_decklist(data, cards)
    assert result.problems == [
        (("groups", 2, "cards", 1), "no marvelsdb card is named 'Helicarier'")
    ]
    assert "01092" not in result.deck["slots"]


def test_cli_import_dry_run_force_and_bad_json(data: Path) -> None:
    out = data / "cards"
    files = [str(data / p) for p in PACKS]
    dry = run_cli(["import", "marvelsdb", *files, "--out", str(out), "--dry-run"])
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout.count("would write") == 50 and not out.exists()
    first = run_cli(["import", "marvelsdb", *files, "--out", str(out)])
    assert first.returncode == 0, first.stderr
    assert "50 cards in 5 sets from 2 files" in first.stdout
    (out / "rhino/01094.yaml").write_text("# a human's edit\n", encoding="utf-8")
    again = run_cli(["import", "marvelsdb", *files, "--out", str(out)])
    assert again.returncode == 2 and "already exist" in again.stderr
    assert (out / "rhino/01094.yaml").read_text() == "# a human's edit\n"
    broken = data / "broken.json"
    broken.write_text('[\n  {"code": "01001a",\n  "name": }\n]\n', encoding="utf-8")
    bad = run_cli(["import", "marvelsdb", str(broken), "--out", str(out)])
    assert bad.returncode == 2
    assert bad.stderr.strip().startswith(f"cardkit: {broken}:3:11: not JSON")
    assert "Traceback" not in bad.stderr


def test_cli_round_trip_through_validated_card_files(data: Path) -> None:
    cards = data / "cards"
    imported = run_cli(
        ["import", "marvelsdb", *(str(data / p) for p in PACKS), "--out", str(cards)]
    )
    assert imported.returncode == 0, imported.stderr
    assert run_cli(["validate", str(cards)]).stdout.strip() == "50 files checked: no problems"
    out = data / "out"
    exported = run_cli(
        ["export", "marvelsdb", str(cards), "--out", str(out), "--catalogues", str(data)]
    )
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout.strip() == f"wrote 4 files to {out}: 50 cards, 0 decks"
    for name in (*PACKS, "sets.json", "packs.json"):
        original = json.loads((data / name).read_text())
        again = json.loads((out / name).read_text())
        assert sorted(again, key=lambda c: c["code"]) == sorted(original, key=lambda c: c["code"])


def test_cli_exports_a_decklist_and_points_at_unknown_cards(data: Path) -> None:
    decks = data / "decks"
    decks.mkdir()
    (decks / "spider-man-justice.yaml").write_text(
        DECKLIST.replace("Helicarrier", "Helicarier"), encoding="utf-8"
    )
    out = data / "out"
    args = ["export", "marvelsdb", str(decks), "--out", str(out)]
    result = run_cli([*args, "--cards", str(data / "pack/core.json")])
    assert result.returncode == 1
    where = decks / "spider-man-justice.yaml"
    assert f"{where}:23:9: no marvelsdb card is named 'Helicarier'" in result.stderr.splitlines()
    assert (
        f"warning: {where}:22:9: 2 copies of 01088 'Energy' exceed its deck_limit 1"
        in result.stderr
    )
    deck = json.loads((out / "decks/spider-man-justice.json").read_text())
    assert deck["hero_code"] == "01001a" and deck["slots"]["01060"] == 3
