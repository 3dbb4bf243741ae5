"""Marvel Champions OCR: outlined marks, the two sides of a main scheme, the card code.

Marks are drawn here (white italic glyphs with a black outline, as the stage mark and the
threat disc are printed); the end-to-end test reads the repository's synthetic samples
(benchmarks/make_samples_vc.py) with the real tesseract."""

from __future__ import annotations

import os
import shutil
from types import SimpleNamespace

import numpy as np
import pytest
import reportlab
import yaml
from PIL import Image, ImageDraw, ImageFont

from cardkit.games.marvel_champions.ocr import _mark_glyphs, finish, inline_icons, read_mark
from cardkit.ocr import layout
from cardkit.ocr.engine import Reading, Word, make_engine
from tests.conftest import ROOT
from tests.ocr_samples import drafts_of_samples

FONT = os.path.join(os.path.dirname(reportlab.__file__), "fonts", "VeraBd.ttf")
needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract")


def outlined_mark(text: str, background: tuple[int, int, int] = (200, 210, 214)) -> Image.Image:
    """A mark as printed: white italic glyphs, a black outline, on a light plate."""
    plate = Image.new("RGB", (150, 110), background)
    layer = Image.new("RGBA", plate.size, (0, 0, 0, 0))
    ImageDraw.Draw(layer).text(
        (75, 55),
        text,
        font=ImageFont.truetype(FONT, 64),
        fill="white",
        anchor="mm",
        stroke_width=5,
        stroke_fill="black",
    )
    sheared = layer.transform(layer.size, Image.Transform.AFFINE, (1, 0.22, -12, 0, 1, 0))
    plate.paste(sheared, (0, 0), sheared)
    return plate


class Scripted:
    """An engine that answers reads in turn with (text, confidence), the last one from then
    on, recording what it was shown."""

    name = "scripted"

    def __init__(self, *answers: str | tuple[str, float]) -> None:
        self.answers = [a if isinstance(a, tuple) else (a, 0.9) for a in answers]
        self.images: list = []

    def version(self) -> str:
        return "0"

    def read(self, image, mode, *, key, whitelist=""):
        self.images.append((image, mode, key, whitelist))
        text, confidence = self.answers[min(len(self.images), len(self.answers)) - 1]
        return Reading((Word(text, confidence, (0, 0, 10, 10), 0),))


def _region(**options) -> layout.Region:
    keys = {"parse": options.pop("parse"), "whitelist": options.pop("whitelist", "")}
    return layout.Region("stage", (0.9, 0.05, 1.0, 0.15), reader="x", options=options, **keys)


def _context(engine) -> layout.ReadContext:
    return layout.ReadContext(engine, "card/stage", Image.new("RGB", (8, 8)), None, None)  # type: ignore[arg-type]


def test_the_glyphs_fill_is_kept_upright_and_the_outline_and_plate_dropped():
    glyphs = _mark_glyphs(outlined_mark("2B"))
    ink = glyphs < 128
    _, cols = np.nonzero(ink)
    assert ink.mean() > 0.03  # the two glyphs' fill, black on white
    # nothing of the plate's edge or outline is left: a white frame all around the glyphs
    assert not ink[0].any() and not ink[-1].any() and not ink[:, 0].any() and not ink[:, -1].any()
    # two glyphs side by side: one column gap between them at least
    assert (ink[:, cols.min() : cols.max()].sum(axis=0) == 0).any()


def test_a_mark_beside_a_shorter_icon_keeps_only_the_number():
    mark = outlined_mark("7")
    ImageDraw.Draw(mark).ellipse((118, 60, 140, 82), fill="white", outline="black", width=3)
    kept = _mark_glyphs(mark, 0.75) < 128
    with_icon = _mark_glyphs(mark, 0.2) < 128
    assert with_icon.sum() > kept.sum()  # the icon is a component, dropped by height


def test_stage_value_takes_the_number_read_and_the_templates_side():
    engine = Scripted("1B-")
    read = read_mark(outlined_mark("1B"), _region(parse="code", side="B"), _context(engine))
    assert (read.value, read.confidence) == ("1B", 0.9)
    assert engine.images[0][1] == "line" and engine.images[0][2] == "card/stage@mark90/line"
    unread = read_mark(
        outlined_mark("1B"), _region(parse="code", side="B"), _context(Scripted("B"))
    )
    assert (unread.value, unread.confidence) == (None, 0.0)  # no number: nothing invented


def test_a_mark_read_unsurely_is_read_again_smaller_and_the_surer_reading_wins():
    engine = Scripted(("4", 0.6), ("7", 0.8))
    read = read_mark(outlined_mark("7"), _region(parse="int", digits=1), _context(engine))
    assert (read.value, read.confidence) == (7, 0.8)
    assert [key for _, _, key, _ in engine.images] == [
        "card/stage@mark90/line",
        "card/stage@mark60/line",
    ]
    assert engine.images[1][0].height < engine.images[0][0].height
    sure = Scripted(("4", 0.95), ("7", 0.8))
    assert read_mark(outlined_mark("7"), _region(parse="int", digits=1), _context(sure)).value == 4
    assert len(sure.images) == 1  # a sure first reading ends it


def test_a_region_may_ask_for_a_smaller_x_height_than_the_default():
    crop = Image.new("RGB", (300, 60), "white")
    ImageDraw.Draw(crop).text(
        (10, 10), "small print", fill="black", font=ImageFont.truetype(FONT, 24)
    )
    usual = layout.Region("text", (0, 0, 1, 1), x_height=0.01)
    smaller = layout.Region("text", (0, 0, 1, 1), x_height=0.01, options={"target_x_height": 18})
    width = layout.prepare(crop, usual, 1000).width
    assert layout.prepare(crop, smaller, 1000).width < width * 0.8


def test_threat_value_keeps_its_digits_and_maps_lookalikes():
    assert (
        read_mark(
            outlined_mark("8"), _region(parse="int", digits=1), _context(Scripted("Bo"))
        ).value
        == 8
    )
    signed = _region(parse="signed", whitelist="+-0123456789")
    assert read_mark(outlined_mark("+1"), signed, _context(Scripted("+1"))).value == 1
    assert read_mark(outlined_mark("-2"), signed, _context(Scripted("-2"))).value == -2


def test_finish_takes_the_side_from_the_template_when_the_stage_was_not_read():
    stage = layout.Region("stage", (0.9, 0.05, 1.0, 0.15), reader="x", options={"side": "B"})
    template = SimpleNamespace(regions=(stage,))
    named: dict = {"id": "x"}
    finish(named, SimpleNamespace(frame=SimpleNamespace(name="01097"), template=template))
    assert named["code"] == "01097b"


def test_icons_read_as_characters_become_icon_tokens_and_are_recorded():
    rules = layout.template_sets()["marvel-champions"].data["inline_icons"]
    document: dict = {
        "text": "Place an additional 12 threat here. Klaw gets +10 hit points, 1% each."
    }
    inline_icons(document, rules)
    assert document["text"] == (
        "Place an additional 1{per_hero} threat here. Klaw gets +10 hit points, 1{per_hero} each."
    )
    assert [c["read"] for c in document["provenance"]["corrections"]] == ["2", "%"]
    glued: dict = {"text": "Place an additional 14 threat here. Remove 25 threat."}
    inline_icons(glued, rules)
    assert (
        glued["text"] == "Place an additional 1{per_hero} threat here. Remove 2{per_hero} threat."
    )
    # a digit taken for the mark may have been a digit (25 threat): the text is left to check
    assert glued["unconfirmed"] == ["text"]
    assert glued["gaps"][0]["fields"] == ["text"] and "4, 5" in glued["gaps"][0]["note"]
    untouched: dict = {"text": "Place 2 threat here. Place 10 threat here."}
    inline_icons(untouched, rules)
    assert untouched == {"text": "Place 2 threat here. Place 10 threat here."}
    tokens = yaml.safe_load((ROOT / "cardkit/games/marvel_champions/tokens.yaml").read_text())
    assert {r["icon"] for r in rules} <= {t["name"] for t in tokens["tokens"]}


def test_main_scheme_sides_are_two_templates_told_apart_by_a_tone():
    templates = {t.name: t for t in layout.template_sets()["marvel-champions"].templates}
    a, b = templates["main-scheme-a"], templates["main-scheme-b"]
    assert [t.tone for t in a.tones] == ["light"] and [t.tone for t in b.tones] == ["dark"]
    assert a.tones[0].box == b.tones[0].box
    assert {"threat", "escalation_threat", "base_threat"} <= {r.field for r in b.regions}
    assert not {"threat", "escalation_threat", "base_threat"} & {r.field for r in a.regions}


@needs_tesseract
def test_outlined_marks_are_read_by_tesseract():
    engine = make_engine("tesseract")
    stage = read_mark(outlined_mark("2A"), _region(parse="code", side="A"), _context(engine))
    threat = read_mark(outlined_mark("6"), _region(parse="int", digits=1), _context(engine))
    assert (stage.value, threat.value) == ("2A", 6)


@needs_tesseract
def test_champions_samples_become_validating_drafts_with_the_printed_values(cli, tmp_path):
    # clean scans, and the degraded ones of one side scheme (flavour in light italics over
    # bold rules text with an inline icon; a white number on a dark plate)
    chosen = sorted(
        p.name
        for p in (ROOT / "scans/samples/marvel-champions").glob("mc-*")
        if not p.name.endswith(".yaml") and ("-clean." in p.name or "kingpin" in p.name)
    )
    for stem, truth, draft in drafts_of_samples(cli, tmp_path, "marvel-champions", chosen):
        assert (draft.get("flavor"), draft.get("text")) == (truth["flavor"], truth["text"]), stem
        assert draft["type_code"] == truth["card"].replace("-", "_")
        # a title in small caps, read with its printed case (smallcaps.py)
        assert draft["name"] == truth["name"], stem
        assert draft.get("stage") == truth.get("stage")
        for number, field in (("threat", "threat"), ("starting_threat", "base_threat")):
            if number in truth:
                assert draft[field] == int(truth[number]), (stem, field)
        if "escalation_threat" in truth:
            assert draft["escalation_threat"] == int(truth["escalation_threat"])


def _number_plate(text: str, mark: bool) -> Image.Image:
    """A white number on a dark plate, as a side scheme's starting threat, with the per-hero
    mark (a head over shoulders, joined, two thirds of the number's height) after it."""
    plate = Image.new("RGB", (150, 110), (30, 30, 34))
    draw = ImageDraw.Draw(plate)
    draw.text((20, 55), text, font=ImageFont.truetype(FONT, 64), fill="white", anchor="lm")
    if mark:
        draw.ellipse((94, 42, 110, 58), fill="white")  # the head, touching the shoulders
        draw.pieslice((88, 56, 116, 84), 180, 360, fill="white")
    return plate


def test_the_per_hero_mark_after_a_number_is_seen_and_written_as_not_fixed():
    from cardkit.games.marvel_champions.ocr import per_hero_mark

    assert per_hero_mark(_number_plate("3", mark=True))
    assert not per_hero_mark(_number_plate("3", mark=False))
    assert not per_hero_mark(_number_plate("+1", mark=False))  # a sign before it is no mark
    threat = layout.Region("base_threat", (0, 0, 1, 1), reader="x", options={"per_hero": True})
    read = SimpleNamespace(
        frame=SimpleNamespace(name="01127"),
        template=SimpleNamespace(regions=(threat,)),
        fields=[SimpleNamespace(field="base_threat", value=3, text="3 {per_hero}")],
    )
    document: dict = {"id": "x", "base_threat": 3}
    finish(document, read)
    assert document["base_threat_fixed"] is False
