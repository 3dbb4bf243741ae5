"""marvelsdb, every card both ways: whole real pack files and a hand-written fan pack come
back from cardkit's YAML into the file they came from, in order, byte for byte."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardkit.files import yamlio
from cardkit.games.marvel_champions import marvelsdb_json
from tests.conftest import ROOT, run_cli

WHOLE = ROOT / "tests/data/marvelsdb/whole/pack"  # real files, unchanged
FAN = ROOT / "tests/data/marvelsdb/fan/pack/comet_girl_fan_pack.json"  # written by hand


def cardkit(args: list[str]) -> tuple[int, str, str]:
    """The CLI (in this process, through the same `main`): exit code, stdout, stderr."""
    done = run_cli(args)
    return done.returncode, done.stdout, done.stderr


def _round_trip(files: list[Path], tmp_path: Path) -> tuple[Path, Path]:
    cards, back = tmp_path / "cards", tmp_path / "back"
    code, _, err = cardkit(["import", "marvelsdb", *map(str, files), "--out", str(cards)])
    assert code == 0, err
    code, _, err = cardkit(["export", "marvelsdb", str(cards), "--out", str(back)])
    assert code == 0, err
    return cards, back


def test_whole_real_pack_files_come_back_byte_for_byte(tmp_path: Path) -> None:
    files = sorted(WHOLE.glob("*.json"))
    total = sum(len(json.loads(f.read_text(encoding="utf-8"))) for f in files)
    _, back = _round_trip(files, tmp_path)
    assert sorted(p.name for p in (back / "pack").iterdir()) == [f.name for f in files]
    for source in files:
        # tab and four-space files, with and without a final newline, `\u2022` escapes
        # beside raw `—`, a card whose keys are not alphabetical (storm_encounter)
        assert (back / "pack" / source.name).read_bytes() == source.read_bytes(), source.name
    assert total == 23 + 10 + 5 + 9 + 5  # nova, nova_encounter, scw, storm, wonder_man


def test_reprints_and_unknown_fields_are_cards_that_validate(tmp_path: Path) -> None:
    cards, _ = _round_trip(sorted(WHOLE.glob("*.json")), tmp_path)
    # nova.json: 28011 reprints 01052 with no name of its own
    reprint = yamlio.load_text(next(cards.rglob("28011.yaml")).read_text(encoding="utf-8"))
    assert reprint["duplicate_of"] == "01052" and "name" not in reprint
    # nova_encounter.json: 28022 carries "scheme text", which no schema names
    odd = yamlio.load_text((cards / "nova-nemesis/28022.yaml").read_text("utf-8"))
    assert odd["marvelsdb"]["extra"]["scheme text"].startswith("<b>When Revealed</b>")
    code, out, err = cardkit(["validate", str(cards)])
    assert (code, out.strip()) == (0, "52 files checked: no problems"), out + err


def test_import_warns_once_per_field_it_keeps(tmp_path: Path) -> None:
    args = ["import", "marvelsdb", str(WHOLE / "scw_encounter.json"), "--out", str(tmp_path)]
    code, _, err = cardkit(args)
    assert code == 0
    # scw_encounter.json: 15024 to 15027 have `spoiler`
    assert err.splitlines() == [
        "warning: 4 card(s) carry 'spoiler', a field cardkit's schema does not name "
        "(e.g. 15024): kept under marvelsdb.extra and written back by export"
    ]


def test_a_fan_pack_round_trips_with_its_long_code_and_own_fields(tmp_path: Path) -> None:
    cards, back = _round_trip([FAN], tmp_path)
    assert (back / "pack" / FAN.name).read_bytes() == FAN.read_bytes()
    hero = yamlio.load_text((cards / "comet-girl/99001a.yaml").read_text(encoding="utf-8"))
    assert hero["pack_code"] == "comet_girl_fan_pack"  # 19 characters
    assert hero["marvelsdb"]["extra"] == {
        "designer": "A. Fan",
        "fan_status": {"playtested": False, "version": 3},
    }
    assert hero["meta"] is None and hero["marvelsdb"]["escaped"] == "—🚀"
    code, out, err = cardkit(["validate", str(cards)])
    assert (code, out.strip()) == (0, "4 files checked: no problems"), out + err


def test_a_card_that_cannot_be_written_fails_after_the_rest_are_written(tmp_path: Path) -> None:
    cards, back = tmp_path / "cards", tmp_path / "back"
    source = tmp_path / "pack" / FAN.name
    source.parent.mkdir()
    shutil.copy(FAN, source)
    assert cardkit(["import", "marvelsdb", str(source), "--out", str(cards)])[0] == 0
    relay = cards / "comet-girl-fan-pack-basic/99002.yaml"  # set-less: pack and faction
    text = relay.read_text(encoding="utf-8")
    # meta is free-form, so the schema lets .inf through; JSON has no infinity
    relay.write_text(text.replace("quantity: 2", "quantity: 2\nmeta: {offset: .inf}"), "utf-8")
    code, out, err = cardkit(["export", "marvelsdb", str(cards), "--out", str(back)])
    assert code == 1
    assert f"{relay}:2:1: card '99002' not written: a value is not JSON" in err
    assert "3 cards (1 of 4 not written)" in out
    written = json.loads((back / "pack" / FAN.name).read_text(encoding="utf-8"))
    assert [c["code"] for c in written] == ["99001a", "99001b", "99003"]
    # a card the schema refuses is skipped by the loader: named, and the exit says so
    relay.write_text(text.replace("quantity: 2", "quantity: two"), "utf-8")
    code, out, err = cardkit(["export", "marvelsdb", str(cards), "--out", str(back)])
    assert code == 1 and f"{relay}:" in err and "(skipped)" in err
    assert "3 cards, 0 decks; 1 file(s) skipped" in out


def test_cards_written_by_hand_join_the_file_marvelsdb_would_use(tmp_path: Path) -> None:
    from cardkit.games.marvel_champions import marvelsdb_files
    from cardkit.gaps import rows

    made = tmp_path / "01999.yaml"
    made.write_text(
        "kind: marvel-champions/card\nid: '01999'\ncode: '01999'\nname: New Card\n"
        "type_code: minion\nfaction_code: encounter\npack_code: core\nposition: 999\n"
        "quantity: 1\n",
        encoding="utf-8",
    )
    documents, skipped = rows.load([made])
    texts, result = marvelsdb_files.pack_texts(documents)
    assert not skipped and list(texts) == ["pack/core_encounter.json"] and result.cards == 1
    assert json.loads(texts["pack/core_encounter.json"])[0]["name"] == "New Card"


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        ('[\n\t{"code": "1", "code": "2"}\n]\n', "not JSON: the key 'code' appears twice", 2, 2),
        ('[\n\t{"code": "1"}\n\t{"code": "2"}\n]\n', "not JSON: expected ',' or ']'", 3, 2),
        ('{"code": "1"}', "not a marvelsdb pack file (a JSON list of cards)", 1, 1),
        ('[\n\t"01001"\n]', "not a marvelsdb pack file: a card is not a JSON object", 2, 2),
        ("[]\n]", "not JSON: text after the list of cards", 1, 3),
    ],
)
def test_a_broken_pack_file_is_one_line_with_its_position(
    text: str, message: str, line: int, column: int
) -> None:
    with pytest.raises(marvelsdb_json.PackSyntaxError) as caught:
        marvelsdb_json.parse(text)
    assert str(caught.value).startswith(message)
    assert (caught.value.line, caught.value.column) == (line, column)


def test_formatting_no_writer_reproduces_still_comes_back_json_equal() -> None:
    # pack/gob_encounter.json writes `"illustrator":"…"` once without the space
    text = '[\n\t{\n\t\t"code": "1",\n\t\t"illustrator":"A"\n\t}\n]\n'
    pack = marvelsdb_json.parse(text)
    again = marvelsdb_json.dump([(c.card, c.escaped) for c in pack.cards], pack.layout)
    assert again != text and json.loads(again) == json.loads(text)
