"""Exchange and `new` under hostile input (issue 21): imported paths stay inside the
repository, values used in file names are safe names, CSV cells do not run as formulas,
and pipes and endless devices are refused rather than read."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest

from cardkit.exchange import csv_export
from cardkit.files import safe_paths
from tests.hostile import cardkit, one_line

CARD = {
    "code": "01001a",
    "name": "Spider-Man",
    "type_code": "hero",
    "faction_code": "hero",
    "pack_code": "core",
    "set_code": "spider-man",
}


def _pack(tmp_path: Path, **extra: object) -> Path:
    path = tmp_path / "pack.json"
    path.write_text(json.dumps([CARD | extra]), encoding="utf-8")
    return path


@pytest.mark.parametrize("scan", ["/home/someone/private.png", "../../x.png", "C:\\x.png"])
def test_import_refuses_a_planted_scan_path_and_writes_nothing(tmp_path, capsys, scan):
    pack = _pack(tmp_path, provenance={"scan": scan})
    out = tmp_path / "cards"
    ran = cardkit(["import", "marvelsdb", str(pack), "--out", str(out)], capsys)
    assert ran.code == 2
    line = one_line(ran)
    assert line.startswith(f"cardkit: {pack}: card 1 (01001a): provenance.scan '{scan}' ")
    assert "imported paths stay inside the repository" in line
    assert not out.exists()


def test_import_keeps_a_scan_path_inside_the_repository(tmp_path, capsys):
    pack = _pack(tmp_path, provenance={"scan": "scans/core/01001a.png"})
    ran = cardkit(["import", "marvelsdb", str(pack), "--out", str(tmp_path / "cards")], capsys)
    assert ran.code == 0, ran.err
    assert "scans/core/01001a.png" in (tmp_path / "cards/spider-man/01001a.yaml").read_text()


def test_import_of_a_fifo_is_refused_at_once(tmp_path, capsys):
    fifo = tmp_path / "pack.json"
    os.mkfifo(fifo)  # no writer: reading it would wait for ever
    ran = cardkit(["import", "marvelsdb", str(fifo), "--out", str(tmp_path / "cards")], capsys)
    assert ran.code == 2
    assert (
        one_line(ran) == f"cardkit: {fifo}: is a pipe or device, not a JSON file; nothing was read"
    )


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_import_of_an_endless_device_or_a_link_to_it_is_refused(tmp_path, capsys):
    link = tmp_path / "pack.json"
    link.symlink_to("/dev/zero")
    for path in (Path("/dev/zero"), link):
        ran = cardkit(["import", "marvelsdb", str(path), "--out", str(tmp_path / "c")], capsys)
        assert ran.code == 2
        assert one_line(ran).endswith(": is a pipe or device, not a JSON file; nothing was read")


def test_import_of_a_file_over_the_cap_is_refused_before_reading(tmp_path, capsys):
    big = tmp_path / "pack.json"
    with big.open("wb") as stream:  # sparse: the size says it all, nothing to read
        stream.truncate(65 * 1024 * 1024)
    ran = cardkit(["import", "marvelsdb", str(big), "--out", str(tmp_path / "c")], capsys)
    assert ran.code == 2
    assert one_line(ran) == (f"cardkit: {big}: 68,157,440 bytes, over the 67,108,864-byte cap")


def _card_file(folder: Path, pack_code: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "01001a.yaml"
    path.write_text(
        "kind: marvel-champions/card\nid: 01001a\ncode: 01001a\nname: Spider-Man\n"
        f"type_code: hero\nfaction_code: hero\npack_code: '{pack_code}'\n",
        encoding="utf-8",
    )
    return path


def test_export_never_writes_outside_out_for_a_pack_code_that_climbs(tmp_path, capsys):
    card = _card_file(tmp_path / "repo" / "cards", "../../../x")
    out = tmp_path / "repo" / "build" / "a" / "b"
    ran = cardkit(["export", "marvelsdb", str(card), "--out", str(out)], capsys)
    assert ran.code == 1  # the card is not exported: fewer cards out than in
    assert one_line(ran).startswith(f"{card}:7:12: CK100 '../../../x' does not match")
    assert not list(tmp_path.rglob("x.json"))


def test_the_export_path_is_checked_again_as_it_is_built(tmp_path):
    from cardkit.games.marvel_champions import marvelsdb_files
    from cardkit.model import Document

    data = {"kind": "marvel-champions/card", "id": "01001a", **CARD, "pack_code": "../../x"}
    path = tmp_path / "c.yaml"
    doc = Document(path, str(path), data, lambda *a, **k: (1, 1))  # never validated
    result = marvelsdb_files.export([doc], tmp_path / "out")
    assert result.files == [] and result.cards == 0
    assert len(result.problems) == 1
    assert (
        "pack_code '../../x' holds a path separator: not used as a file name"
        in (result.problems[0])
    )
    with pytest.raises(safe_paths.UnsafePath, match=r"'\.\.' starts with a dot"):
        safe_paths.child(tmp_path / "out", "pack", "..", "x.json")


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ('=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1:A2)", "'@SUM(A1:A2)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("-1", "-1"),  # a number is no formula
        ("+2.5", "+2.5"),
        ("Deal 1 damage.", "Deal 1 damage."),
    ],
)
def test_csv_cells_that_would_run_as_formulas_are_neutralised(value, written):
    doc = {"kind": "villainous/card", "id": "x", "title": value}
    rows = list(csv.DictReader(io.StringIO(csv_export.to_csv([doc]), newline="")))
    assert len(rows) == 1 and rows[0]["title"] == written
    raw = list(csv.DictReader(io.StringIO(csv_export.to_csv([doc], raw=True), newline="")))
    assert len(raw) == 1 and raw[0]["title"] == value


def test_export_csv_neutralises_by_default_and_raw_cells_keeps_them(tmp_path, capsys):
    card = tmp_path / "card.yaml"
    card.write_text(
        "kind: villainous/card\nid: lantern\nvillain_ref: example\ndeck: villain\n"
        "title: '=1+1'\ncost: 2\n",
        encoding="utf-8",
    )
    ran = cardkit(["export", "csv", str(card)], capsys)
    assert ran.code == 0, ran.err
    assert ",'=1+1," in ran.out or ran.out.rstrip().endswith(",'=1+1") or "'=1+1" in ran.out
    assert "\n=1+1" not in ran.out and ",=1+1" not in ran.out
    raw = cardkit(["export", "csv", str(card), "--raw-cells"], capsys)
    assert raw.code == 0 and ",=1+1" in raw.out


@pytest.mark.parametrize("box", ["../../../escaped-box", "a/b", "..", "Box One"])
def test_new_refuses_a_box_that_is_no_folder_name(tmp_path, capsys, box):
    repo = tmp_path / "repo"
    (repo / "cards").mkdir(parents=True)
    ran = cardkit(["new", "hero", "x", "--box", box], capsys, cwd=repo)
    assert ran.code == 2
    assert one_line(ran).startswith(f"cardkit: --box '{box}' is not an id")
    assert [p.name for p in tmp_path.rglob("*.yaml")] == []
