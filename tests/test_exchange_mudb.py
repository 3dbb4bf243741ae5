"""Marvel United JSON Database both ways, on a hand-written box (tests/data/mudb)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from cardkit.files import yamlio
from cardkit.games.marvel_united import mudb_box, mudb_files
from tests.conftest import ROOT, run_cli

BOX = ROOT / "tests/data/mudb/handmade-box.json"


@pytest.fixture
def imported(tmp_path: Path) -> Path:
    result = run_cli(["import", "mu-db", str(BOX), "--out", str(tmp_path / "cards")])
    assert result.returncode == 0, result.stderr  # three letters declared: said, nothing lost
    return tmp_path / "cards" / "ck-handmade"


def _doc(folder: Path, name: str) -> dict[str, Any]:
    return yamlio.load_text((folder / f"{name}.yaml").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_round_trip_gives_the_file_back_byte_for_byte(imported: Path, tmp_path: Path) -> None:
    result = run_cli(["export", "mu-db", str(imported), "--out", str(tmp_path / "json")])
    assert result.returncode == 0, result.stderr
    assert "17 cards in 1 boxes" in result.stdout
    out = tmp_path / "json" / "handmade-box.json"
    assert json.loads(out.read_text(encoding="utf-8")) == json.loads(BOX.read_text("utf-8"))
    assert out.read_bytes() == BOX.read_bytes()


def test_every_document_is_valid_and_of_the_expected_kind(imported: Path) -> None:
    kinds = {p.stem: _doc(imported, p.stem)["kind"].split("/")[1] for p in imported.glob("*.yaml")}
    assert kinds == {
        "box": "box",
        "tin-harbour": "location",
        "glass-dome": "location",
        "drill-challenge": "mode",
        "calm-challenge": "mode",
        "gravelord": "villain",
        "tin-lark": "hero",
        "tin-lark-equipment": "equipment",
        "brass-wing": "villain",
        "brass-wing-hero": "hero",
        "brass-wing-equipment": "equipment",
        "pebble": "villain",
    }
    result = run_cli(["validate", str(imported)])
    assert "0 error(s)" in result.stdout, result.stdout


def test_villain_fields_come_from_the_database_fields(imported: Path) -> None:
    doc = _doc(imported, "gravelord")
    board = doc["dashboard"]
    assert board["special_rules"] == "Gravelord can't be damaged while a Threat is in play."
    assert board["villainous_plot"] == {"text": "The Heroes lose if the Grave track reaches 10."}
    assert board["player_count"] == {"heroes": {"2": 7, "3": 9, "4": 11}}
    assert board["back"]["starting_tokens"]["icons"] == ["wild", "attack", "heroic", "move"]
    assert board["back"]["text"] == "Add 1 extra Threat."
    assert "special_setup" not in board["back"]  # an empty text is no field; the patch keeps it
    plans = doc["masterplan"]["cards"]
    assert [c["n"] for c in plans] == [1, 2, 3, 4]  # plan cards in file order, threats apart
    assert plans[0] == {
        "n": 1,
        "move": 2,
        "bam": True,
        "place": {"left": {"civilian": 2}, "villain": {"thug": 1}},
    }
    assert plans[1]["effects"] == [{"name": "Rockslide", "text": "Deal 1 damage to each Hero."}]
    assert plans[1]["place"] == {
        "left": {"thug": 2, "civilian": 1},
        "villain": {"d_token": 1},
        "right": {"x_token": 1},
    }
    assert plans[2]["move"] == 0 and plans[2]["movement"].startswith("Move to the Location")
    assert plans[2]["place"] == "none"  # three empty slots
    assert "move" not in plans[3]  # -2 (counter-clockwise) is no cardkit Move; kept as it is
    threats = doc["threats"]["cards"]
    assert [t["name"] for t in threats] == ["Pebble Swarm", "Boulder Wall", "Dust Cloud"]
    assert threats[0]["icons"] == ["attack", "heroic"]
    assert threats[2]["health"] == 4 and "health" not in threats[1]  # 3/4/5 is no one number
    assert doc["intro"] == ["A made-up tyrant of loose stones."]


def test_translations_sit_beside_the_english_under_its_field_path(imported: Path) -> None:
    doc = _doc(imported, "gravelord")
    assert doc["name"] == "Gravelord"
    assert doc["translations"]["name"] == "Señor de la Grava"
    assert doc["translations"]["masterplan/cards/1/effects/0/name"] == "Alud"
    assert doc["translations"]["threats/cards/0/name"] == "Enjambre de Guijarros"
    assert "threats/cards/2/name" not in doc["translations"]  # same as the English
    box = _doc(imported, "box")
    assert box["sections"][0]["sections"][0]["title"].startswith("Does Rockslide")
    assert box["translations"]["sections/0/sections/0/body/0"] == "Sí, a todos los Héroes."


def test_images_and_base_url_are_provenance(imported: Path) -> None:
    doc = _doc(imported, "gravelord")
    images = doc["provenance"]["images"]
    assert images["."] == "villains/gravelord.jpg"
    assert images["cards/1"] == "villains/Gravelord-MP2.jpg"
    assert images["dashboard/back"] == "villains/Gravelord-B.jpg"
    box = _doc(imported, "box")
    assert box["provenance"]["base_url"] == "https://example.invalid/united/"


def test_heroes_locations_and_challenges(imported: Path) -> None:
    hero = _doc(imported, "tin-lark")
    assert hero["cards"][0] == {
        "name": "RING OUT",
        "text": "Defeat 1 [THUG] in an adjacent Location.",
        "icons": ["heroic"],
    }
    assert hero["cards"][1] == {"name": "Tin Lark", "icon_only": True, "icons": ["attack", "move"]}
    assert hero["cards"][2]["icons"] == ["wild"]
    sheet = _doc(imported, "tin-lark-equipment")
    assert [c["name"] for c in sheet["cards"]] == ["Tuning Fork", "Echo Gem"]
    assert sheet["hero_ref"] == "tin-lark"
    anti = _doc(imported, "brass-wing-hero")
    assert anti["cards"] == [{"name": "Brass Wing", "icon_only": True, "icons": ["attack"]}]
    dome = _doc(imported, "glass-dome")
    assert dome["slots"] == ["d_token", "empty", "civilian", "thug"]
    assert (dome["text"], dome["mandatory"]) == ("Take 1 damage.", True)
    assert _doc(imported, "tin-harbour")["slots"] == ["civilian", "thug", "empty"]
    drill = _doc(imported, "drill-challenge")
    assert drill["intro"] == ["SETUP: Shuffle the drill cards."]


def test_unknown_letters_become_tokens_of_the_box_with_a_warning(tmp_path: Path) -> None:
    result = run_cli(["import", "mu-db", str(BOX), "--out", str(tmp_path)])
    assert result.returncode == 0  # lossless: the letter is the token's mark, exported back
    warnings = [line for line in result.stdout.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 3  # D, X and Z, each once however often it appears
    assert "characters[0].cards[1].add.right[0]: letter 'X'" in result.stdout
    assert "characters[0].cards[5].actions[2]: letter 'Z'" in result.stdout
    box = _doc(tmp_path / "ck-handmade", "box")
    tokens = {t["name"]: (t["role"], t["mark"]) for t in box["tokens"]}
    assert tokens == {
        "d_token": ("placement", "D"),
        "x_token": ("placement", "X"),
        "z_action": ("action", "Z"),
    }


def test_a_field_corrected_in_cardkit_is_exported_not_the_old_value(imported: Path) -> None:
    path = imported / "gravelord.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("{n: 1, move: 2,", "{n: 1, move: 5,")
    text = text.replace("name: Pebble Swarm", "name: Pebble Storm")
    path.write_text(text, encoding="utf-8")
    documents = [yamlio.load_text(p.read_text("utf-8")) for p in sorted(imported.glob("*.yaml"))]
    built = mudb_files.build([(d, "") for d in documents])
    villain = built.boxes["handmade-box.json"]["characters"][0]
    assert villain["cards"][0]["M"] == 5  # under the key the database used
    assert villain["cards"][2]["title"] == {
        "text": "Pebble Storm",
        "locText": "Enjambre de Guijarros",
    }
    assert villain["cards"][2]["locationEffect"] is False  # kept fields stay
    assert villain["realName"] == {"text": "Ozmund Pike", "locText": "Ozmund Pike"}


def test_documents_added_in_cardkit_are_exported_after_the_known_ones(imported: Path) -> None:
    (imported / "new-place.yaml").write_text(
        "kind: marvel-united/location\nid: new-place\nname: New Place\nbox: ck-handmade\n"
        "text: Draw 1 card.\nslots: [civilian, empty]\n",
        encoding="utf-8",
    )
    documents = [yamlio.load_text(p.read_text("utf-8")) for p in sorted(imported.glob("*.yaml"))]
    locations = mudb_files.build([(d, "") for d in documents]).boxes["handmade-box.json"][
        "locations"
    ]
    assert [loc["title"]["text"] for loc in locations] == ["Tin Harbour", "Glass Dome", "New Place"]
    assert locations[2]["slots"] == ["C", "empty"]
    assert locations[2]["endOfTurn"] == {
        "effect": {"text": "Draw 1 card.", "locText": "Draw 1 card."}
    }


def test_dry_run_writes_nothing_and_an_existing_file_needs_force(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run_cli(["import", "mu-db", str(BOX), "--out", str(out), "--dry-run"])
    assert result.returncode == 0 and not out.exists()
    assert "ck-handmade/gravelord.yaml" in result.stdout
    run_cli(["import", "mu-db", str(BOX), "--out", str(out)])
    again = run_cli(["import", "mu-db", str(BOX), "--out", str(out)])
    assert again.returncode == 2 and "already exist" in again.stderr
    assert "Traceback" not in again.stderr
    forced = run_cli(["import", "mu-db", str(BOX), "--out", str(out), "--force"])
    assert forced.returncode == 0 and "17 cards" in forced.stdout


def test_box_option_names_the_box_of_every_document(tmp_path: Path) -> None:
    run_cli(["import", "mu-db", str(BOX), "--out", str(tmp_path), "--box", "my-box"])
    assert _doc(tmp_path / "my-box", "gravelord")["box"] == "my-box"
    bad = run_cli(["import", "mu-db", str(BOX), "--out", str(tmp_path), "--box", "My Box"])
    assert bad.returncode == 2 and "not an id" in bad.stderr


def test_import_tells_a_database_box_by_its_content(tmp_path: Path) -> None:
    plain = tmp_path / "some-name.json"
    shutil.copy(BOX, plain)
    result = run_cli(["import", str(plain), "--out", str(tmp_path / "out")])
    assert result.returncode == 0 and "mu-db: 17 cards" in result.stdout
    assert (tmp_path / "out" / "ck-handmade" / "gravelord.yaml").is_file()
    # the command: a system named for a data file changes nothing
    named = ["import", str(plain), "--out", str(tmp_path / "o2"), "--system", "marvel-united"]
    again = run_cli(named)
    assert again.returncode == 0 and "12 documents" in again.stdout
    assert not (tmp_path / "o2" / "box.yaml").exists()  # no rulebook-style leftover file


def test_import_tells_a_marvelsdb_pack_from_a_database_box(tmp_path: Path) -> None:
    pack = ROOT / "tests/data/marvelsdb/pack/core_encounter.json"
    result = run_cli(["import", str(pack), "--out", str(tmp_path)])
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("marvelsdb: ")


def test_a_rulebook_named_like_a_format_is_still_a_rulebook(tmp_path: Path) -> None:
    rulebook = tmp_path / "mu-db"
    shutil.copy(ROOT / "tests/data/new-villain-rulebook.txt", rulebook)
    result = run_cli(["import", "mu-db", "--out", str(tmp_path / "out")], cwd=tmp_path)
    assert "documents in" not in result.stdout  # not read as a database box
    assert "marvel-united / mu-db:" in result.stdout, result.stdout + result.stderr
    assert "unrepresented lines" in result.stdout  # the rulebook reader's summary


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"boxId": "X", ', "not JSON"),
        ('[{"code": "01001"}]', "not a Marvel United JSON Database box"),
        ('{"name": "no id"}', "not a Marvel United JSON Database box"),
    ],
)
def test_bad_files_get_one_line_with_their_position(
    tmp_path: Path, content: str, message: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    result = run_cli(["import", "mu-db", str(bad), "--out", str(tmp_path / "out")])
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert result.stderr.startswith(f"cardkit: {bad}:1:")
    assert not (tmp_path / "out").exists()


def _through_yaml(data: dict[str, Any]) -> dict[str, Any]:
    found = mudb_box.documents_from(data, box=None, where="x.json")
    documents = [yamlio.load_text(yamlio.dump_document(d)) for d in found.documents]
    return mudb_box.box_to(documents[0], documents[1:], "ck-handmade")[0]


def test_hostile_shapes_are_kept_not_crashed_on() -> None:
    data = json.loads(BOX.read_text("utf-8"))
    data["characters"].append("not an object")
    data["characters"][0]["cards"].append(7)
    data["characters"][1]["cards"] = "not a list"
    data["characters"][2]["dashboard"] = 5
    data["locations"][0]["slots"].append(3)
    data["locations"][1]["slots"] = "CT"
    data["faq"] = {"question": "not a list"}
    assert _through_yaml(data) == data
    data["characters"] = "no characters here"
    data["locations"] = None
    assert _through_yaml(data) == data


def test_export_of_nothing_marvel_united_is_refused(tmp_path: Path) -> None:
    villainous = ROOT / "cards/villainous"  # valid card files, of another game
    result = run_cli(["export", "mu-db", str(villainous), "--out", str(tmp_path)])
    assert result.returncode == 2 and "no Marvel United documents" in result.stderr
    assert not list(tmp_path.iterdir())


def test_an_imported_villain_proofs_with_its_moves_and_declared_tokens(
    imported: Path, tmp_path: Path
) -> None:
    pypdf = pytest.importorskip("pypdf")
    pdf = tmp_path / "proof.pdf"
    files = [str(imported / "gravelord.yaml"), str(imported / "box.yaml")]
    result = run_cli(["proof", *files, "-o", str(pdf)])
    assert result.returncode == 0, result.stderr
    text = "\n".join(page.extract_text() for page in pypdf.PdfReader(pdf).pages)
    for expected in ("Gravelord 1", "Move 2", "Gravelord 3", "Move 0", "No tokens placed."):
        assert expected in text
    assert "D Token" in text and "X Token" in text  # the box's own tokens, in the legend
    assert "Rockslide: Deal 1 damage to each" in text


def test_a_loss_beside_a_declared_letter_still_exits_1(tmp_path: Path) -> None:
    """Exit 1 means imported with losses (docs/cli.md): an item that is not an object is
    kept as it is, not as cardkit's data, so the import says so and exits 1."""
    data = json.loads(BOX.read_text("utf-8"))
    data["characters"].append("not an object")
    source = tmp_path / "box.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    result = run_cli(["import", "mu-db", str(source), "--out", str(tmp_path / "out")])
    assert result.returncode == 1, result.stdout
    assert "not an object; kept as it is" in result.stdout
    assert "letter 'X' has no cardkit token" in result.stdout
