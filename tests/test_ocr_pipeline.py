"""The OCR pipeline end to end with a replay engine (no tesseract), and the template data."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PIL import Image

from cardkit.check.validate import check
from cardkit.files import yamlio
from cardkit.ocr import batch, layout
from cardkit.ocr.engine import EngineError, ReplayEngine
from cardkit.ocr.pipeline import Options, region_key

PANEL = (245, 240, 226)


def blank_card(path: Path, panel: tuple[int, int, int] = PANEL) -> Path:
    """A card-shaped image with a light text panel: the replay engine does the reading."""
    image = Image.new("RGB", (720, 1008), (60, 90, 70))
    image.paste(panel, (0, 515, 720, 1008))
    image.save(path)
    return path


def words(text: str, confidence: float, line: int = 0) -> list[list[object]]:
    return [
        [w, confidence, 10 * i, 40 * line, 8 * len(w), 30, line] for i, w in enumerate(text.split())
    ]


def fate_replay(frame: str, strength_conf: float = 0.62) -> dict[str, object]:
    regions = {r.field: r for r in layout.template_sets()["villainous"].templates[0].regions}
    readings = {
        "title": words("SILVER KEY", 0.97),
        "type": words("Item", 0.95),
        "ability": words("Unlock a locaton.", 0.93) + words("Gain 2 Power.", 0.96, 1),
        "strength": words("1", strength_conf),
    }
    # the misread word is unsure: the vocabulary may correct it
    readings["ability"][2][1] = 0.5
    return {
        "engine": "tesseract",
        "version": "5.0.0-recorded",
        "readings": {region_key(frame, 0, regions[k]): v for k, v in readings.items()},
    }


@pytest.fixture
def scan(tmp_path):
    path = blank_card(tmp_path / "silver-key.png")
    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps(fate_replay("silver-key")))
    return path, replay


def _settings(out: Path, replay: Path, **kw) -> batch.Settings:
    return batch.Settings(
        out, f"replay:{replay}", options=Options(("villainous",), 0.9), drafted="2026-11-30", **kw
    )


def test_a_replayed_scan_becomes_a_validating_draft(scan, tmp_path):
    path, replay = scan
    out = tmp_path / "drafts"
    out.mkdir()
    result = batch.process_scan(path, _settings(out, replay))
    assert result.ok and result.drafts[0]["template"] == "villainous/fate"
    draft = out / "silver-key.yaml"
    data = yamlio.load_text(draft.read_text())
    assert data["kind"] == "villainous/card" and data["deck"] == "fate"
    assert data["title"] == "SILVER KEY"
    assert data["ability"] == "Unlock a location. Gain 2 Power."
    assert data["strength"] == 1 and data["type"] == "Item"
    # the corrected word was read unsurely, so the whole ability stays unconfirmed
    assert data["unconfirmed"] == ["ability", "strength"]
    assert data["gaps"][1:] == [
        {
            "note": "OCR confidence 62% for strength: check it against the card",
            "fields": ["strength"],
            "status": "open",
        }
    ]
    provenance = data["provenance"]
    assert provenance["engine"] == "replay" and provenance["engine_version"] == "5.0.0-recorded"
    assert provenance["confidences"]["strength"] == pytest.approx(0.62)
    assert provenance["corrections"] == [
        {"field": "ability", "read": "locaton", "corrected": "location", "why": "vocabulary"}
    ]
    assert len(provenance["sha256"]) == 64 and provenance["scan"] == str(path)
    report, _ = check([draft])
    assert report.errors == 0, [d.message for d in report.diagnostics]


def test_the_threshold_decides_what_is_unconfirmed(scan, tmp_path):
    path, replay = scan
    out = tmp_path / "d"
    out.mkdir()
    settings = _settings(out, replay)
    settings.options = Options(("villainous",), 0.5)
    batch.process_scan(path, settings)
    assert "unconfirmed" not in yamlio.load_text((out / "silver-key.yaml").read_text())


def test_a_missing_reading_is_an_engine_error(tmp_path):
    engine = ReplayEngine(_write(tmp_path / "r.json", {"readings": {}}))
    with pytest.raises(EngineError, match="no reading for x/y"):
        engine.read(Image.new("L", (5, 5)), "line", key="x/y")


def _write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data))
    return path


def test_every_system_template_is_well_formed():
    sets = layout.template_sets()
    assert {"villainous", "marvel-champions"} <= set(sets)
    from cardkit.schemas import registry as schemas

    for template_set in sets.values():
        for template in template_set.templates:
            assert template.kind in schemas.kinds(), template.ident
            assert any(r.probe for r in template.regions), template.ident
            for region in template.regions:
                assert not region.vocabulary or region.vocabulary in template_set.vocabularies


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ({"box": [0.5, 0.1, 0.4, 0.2]}, "not inside the card"),
        ({"box": [0, 0, 1]}, "box must be"),
        ({"box": [0, 0, 1, 1], "mode": "paragraph"}, "unknown mode"),
        ({"box": [0, 0, 1, 1], "prep": ["blur"]}, "unknown prep step"),
    ],
)
def test_bad_template_data_is_refused_with_where(raw, says):
    from cardkit.errors import UsageError

    data = {"templates": {"t": {"kind": "x/y", "size_mm": [1, 1], "regions": {"title": raw}}}}
    with pytest.raises(UsageError, match=says) as err:
        layout.parse_templates("x", data, "x/ocr.yaml")
    assert "x/ocr.yaml: template t, region title" in str(err.value)


def test_a_plugin_reader_fills_its_field(tmp_path, monkeypatch):
    """A region with `reader: module:function` is read by the plugin, not the engine."""
    import sys
    import types

    from cardkit.ocr.fields import FieldRead

    module = types.ModuleType("fake_tokens")

    def count(crop, region, context):
        return FieldRead(region.field, {"left": {"civilian": crop.width % 3}}, 0.5)

    module.count = count  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_tokens", module)
    data = {
        "templates": {
            "t": {
                "kind": "villainous/card",
                "size_mm": [63.5, 88.9],
                "regions": {
                    "title": {"box": [0.1, 0.5, 0.9, 0.6], "mode": "line", "probe": True},
                    "place": {"box": [0, 0, 0.5, 0.5], "reader": "fake_tokens:count"},
                },
            }
        }
    }
    template_set = layout.parse_templates("villainous", data, "test")
    from cardkit.ocr.intake import Frame
    from cardkit.ocr.pipeline import Reader

    card = Image.new("RGB", (720, 1008), "white")
    frame = Frame("t", tmp_path / "t.png", "0" * 64, card, None)
    reader = Reader(frame, ReplayEngine(_write(tmp_path / "r.json", {"readings": {}})), Options())
    template = template_set.templates[0]
    (read,) = reader.read_region(card, template.regions[1], 0, template, template_set)
    assert read.value == {"left": {"civilian": 360 % 3}}
    assert read.confidence == 0.5 and read.box == [0, 0, 360, 504]


def test_champions_code_comes_from_the_scan_name_or_is_a_flagged_placeholder():
    from types import SimpleNamespace

    from cardkit.games.marvel_champions.ocr import finish

    named = {"id": "x", "stage": "1B"}
    finish(named, SimpleNamespace(frame=SimpleNamespace(name="01097")))
    assert (named["id"], named["code"]) == ("01097b", "01097b")
    unnamed = {"id": "img-0042", "stage": "2A"}
    finish(unnamed, SimpleNamespace(frame=SimpleNamespace(name="IMG_0042")))
    assert unnamed["id"] == "img-0042"  # ids stay unique across a batch
    assert unnamed["code"] == "00000a" and unnamed["unconfirmed"] == ["code"]
    assert "not printed on the card" in unnamed["gaps"][0]["note"]


def test_a_front_whose_title_was_not_read_is_filed_as_art_and_still_validates(tmp_path):
    path = blank_card(tmp_path / "smudged.png")
    replay = fate_replay("smudged")
    title_key = next(k for k in replay["readings"] if "/title@" in k)
    replay["readings"][title_key] = []  # nothing legible where the title is
    back = next(t for t in layout.template_sets()["villainous"].templates if t.name == "back")
    replay["readings"][region_key("smudged", 0, back.regions[0])] = []  # nor is it a back
    (tmp_path / "r.json").write_text(json.dumps(replay))
    out = tmp_path / "d"
    out.mkdir()
    batch.process_scan(path, _settings(out, tmp_path / "r.json"))
    draft = out / "smudged.yaml"
    data = yamlio.load_text(draft.read_text())
    assert "title" not in data and data["face"] == "art"
    assert data["gaps"][-1]["fields"] == ["title"]
    assert "Not read: title" in data["notes"][-1]
    report, _ = check([draft])
    assert report.errors == 0, [d.message for d in report.diagnostics]


def test_one_worker_reads_scan_after_scan_and_a_timed_out_one_is_replaced(tmp_path):
    scans = tmp_path / "scans" / "villainous"
    scans.mkdir(parents=True)
    replay = {"engine": "tesseract", "version": "r", "readings": {}}
    for name in ("a", "b", "c"):
        blank_card(scans / f"{name}.png")
        replay["readings"].update(fate_replay(name)["readings"])  # type: ignore[attr-defined]
    (tmp_path / "r.json").write_text(json.dumps(replay))
    paths = sorted(scans.glob("*.png"))
    read = batch.run(paths, _settings(tmp_path / "out", tmp_path / "r.json"), jobs=1)
    assert [r.ok for r in read] == [True, True, True]
    assert len({r.worker for r in read}) == 1 and read[0].worker != os.getpid()
    hung = batch.Settings(
        tmp_path / "hung", "tests.ocr_engines:Hang", options=Options(("villainous",))
    )
    timed_out = batch.run(paths[:2], hung, jobs=1, timeout=1)
    assert [("timed out after 1 s" in r.message) for r in timed_out] == [True, True]
    # the first worker was killed; the second scan was given to a new one, and timed out alone


def test_a_worker_that_dies_mid_scan_fails_that_scan_alone_and_is_replaced(tmp_path):
    import multiprocessing

    scans = tmp_path / "scans" / "villainous"
    scans.mkdir(parents=True)
    paths = [blank_card(scans / f"{name}.png") for name in ("a", "b")]
    died = batch.run(paths, batch.Settings(tmp_path / "out", "tests.ocr_engines:Die"), jobs=1)
    assert [r.message.endswith("worker died (SIGKILL)") for r in died] == [True, True]
    assert died[0].worker and died[1].worker and died[0].worker != died[1].worker
    assert multiprocessing.active_children() == []  # every worker ended with the batch
