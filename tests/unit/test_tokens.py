"""Token counting on placement diagrams drawn here with PIL, clean and degraded."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFilter

from cardkit.model import Document
from cardkit.ocr.tokens import count_tokens, load_palette, palette_from_data

ROOT = Path(__file__).resolve().parents[2]

PAPER = (247, 242, 230)
FRAME = (140, 140, 140)
# Icon colours as a proxy might paint them: each token its own hue; the Sewer anchor
# is an olive close in hue to the Infection token, so it must not count as one.
ICONS = {
    "civilian": ("token", (0.118, 0.435, 0.851)),
    "thug": ("token", (0.557, 0.141, 0.667)),
    "crisis": ("token", (0.961, 0.486, 0.0)),
    "infection": ("token", (0.620, 0.616, 0.141)),
    "sewer": ("anchor", (0.427, 0.416, 0.235)),
    "villain": ("anchor", (0.149, 0.196, 0.220)),
}
SETTINGS = {
    "slots": {"left": [0.0, 1 / 3], "villain": [1 / 3, 2 / 3], "right": [2 / 3, 1.0]},
    "icon": {"height": 0.42, "aspect": 1.0},
}
PALETTE = palette_from_data("test", ICONS, SETTINGS)


def _rgb(name: str) -> tuple[int, int, int]:
    r, g, b = ICONS[name][1]
    return round(r * 255), round(g * 255), round(b * 255)


def _icon(draw: ImageDraw.ImageDraw, name: str, x: float, y: float, size: float) -> None:
    box = (x, y, x + size, y + size)
    fill = _rgb(name)
    if name == "civilian":
        draw.ellipse(box, fill=fill)
        draw.ellipse(
            (x + size * 0.38, y + size * 0.18, x + size * 0.62, y + size * 0.42), fill="white"
        )
        draw.rectangle(
            (x + size * 0.3, y + size * 0.48, x + size * 0.7, y + size * 0.78), fill="white"
        )
    elif name == "thug":
        draw.rectangle(box, fill=fill)
        draw.line((x + size * 0.25, y + size * 0.25, x + size * 0.75, y + size * 0.75), "white", 4)
        draw.line((x + size * 0.75, y + size * 0.25, x + size * 0.25, y + size * 0.75), "white", 4)
    elif name == "crisis":
        draw.polygon([(x + size / 2, y), (x + size, y + size), (x, y + size)], fill=fill)
    else:
        draw.regular_polygon((x + size / 2, y + size / 2, size / 2), 6, fill=fill)


def diagram(
    place: dict[str, dict[str, int]],
    *,
    width: int = 600,
    height: int = 130,
    gap: float = 0.2,
    anchor: str | None = None,
) -> Image.Image:
    """Three framed slots; each slot's icons in one row, `gap` icons apart (negative: overlap)."""
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    slot_w = width / 3
    for index, slot in enumerate(("left", "villain", "right")):
        size = SETTINGS["icon"]["height"] * height
        x0 = index * slot_w
        draw.rectangle((x0 + 3, 3, x0 + slot_w - 4, height - 4), outline=FRAME, width=2)
        names = [n for n, k in place.get(slot, {}).items() for _ in range(k)]
        if anchor and slot == "villain":
            names = [anchor, *names]
        size = min(size, (slot_w - 16) / max(1, len(names) + (len(names) - 1) * gap))
        row = len(names) * size + max(0, len(names) - 1) * gap * size
        x = x0 + (slot_w - row) / 2
        for name in names:
            _icon(draw, name, x, (height - size) / 2, size)
            x += size * (1 + gap)
    draw.text((width / 2 - 10, height - 16), "villain", fill=FRAME)
    return image


def photo(image: Image.Image, seed: int = 1) -> Image.Image:
    """A phone's view of the diagram: light from one side, blur, noise, JPEG at quality 55."""
    rng = np.random.default_rng(seed)
    pixels = np.asarray(image, dtype=np.float32)
    light = np.linspace(1.0, 0.65, pixels.shape[1], dtype=np.float32)[None, :, None]
    pixels = pixels * light
    blurred = Image.fromarray(pixels.clip(0, 255).astype(np.uint8)).filter(
        ImageFilter.GaussianBlur(1.3)
    )
    noisy = np.asarray(blurred, dtype=np.float32) + rng.normal(0, 6, pixels.shape)
    out = io.BytesIO()
    Image.fromarray(noisy.clip(0, 255).astype(np.uint8)).save(out, "JPEG", quality=55)
    return Image.open(io.BytesIO(out.getvalue())).convert("RGB")


CASES = [
    {"left": {"civilian": 1}, "right": {"civilian": 1}},
    {"left": {"thug": 2}, "villain": {"civilian": 1}, "right": {"thug": 2}},
    {"villain": {"civilian": 3}},
    {"left": {"civilian": 1, "thug": 1}, "right": {"crisis": 1, "infection": 2}},
    {"left": {"thug": 4}},
]


@pytest.mark.parametrize("place", CASES)
def test_counts_per_slot_on_a_clean_diagram(place):
    reading = count_tokens(diagram(place), PALETTE)
    assert reading.place() == place
    assert all(c.confidence >= 0.8 for c in reading.counts)


@pytest.mark.parametrize("place", CASES)
def test_counts_survive_a_phone_photo(place):
    reading = count_tokens(photo(diagram(place), seed=len(str(place))), PALETTE)
    assert reading.place() == place
    assert reading.confidence >= 0.5


@pytest.mark.parametrize("gap", [0.0, -0.12])
def test_touching_icons_are_split_by_size(gap):
    place = {"left": {"thug": 3}, "villain": {"civilian": 1}, "right": {"civilian": 2}}
    reading = count_tokens(diagram(place, gap=gap), PALETTE)
    assert reading.place() == place


def test_an_empty_diagram_counts_nothing_and_the_anchor_is_no_token():
    assert count_tokens(diagram({}), PALETTE).place() == {}
    reading = count_tokens(diagram({"left": {"infection": 1}}, anchor="sewer"), PALETTE)
    assert reading.place() == {"left": {"infection": 1}}


def test_the_diagram_is_cut_from_the_card_by_region():
    card = Image.new("RGB", (800, 1100), PAPER)
    ImageDraw.Draw(card).rectangle((40, 40, 300, 120), fill=_rgb("thug"))  # not in the diagram
    place = {"left": {"civilian": 2}, "right": {"thug": 1}}
    card.paste(diagram(place, width=700, height=150), (50, 300))
    region = (50 / 800, 300 / 1100, 750 / 800, 450 / 1100)
    reading = count_tokens(card, PALETTE, region)
    assert reading.place() == place
    assert reading.region == (50, 300, 750, 450)


def test_an_icon_and_a_half_is_read_with_low_confidence():
    image = diagram({"left": {"thug": 1}})
    draw = ImageDraw.Draw(image)
    size = SETTINGS["icon"]["height"] * 130
    draw.rectangle((250, 40, 250 + size * 1.5, 40 + size), fill=_rgb("thug"))
    reading = count_tokens(image, PALETTE)
    villain = [c for c in reading.counts if c.slot == "villain"]
    assert villain and villain[0].confidence < 0.5
    assert next(c.confidence for c in reading.counts if c.slot == "left") >= 0.8


def test_numpy_input_and_a_diagram_too_small_to_read():
    place = {"right": {"crisis": 1}}
    assert count_tokens(np.asarray(diagram(place)), PALETTE).place() == place
    tiny = count_tokens(Image.new("RGB", (4, 4), PAPER), PALETTE)
    assert tiny.place() == {} and tiny.confidence == 0.0


# ---- on cards the proof renderer draws, with the palette the system ships


def _make_samples():
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import make_samples

    return make_samples


def _masterplan(place: dict[str, Any]) -> Document:
    data = {
        "kind": "marvel-united/villain",
        "id": "test-villain",
        "name": "Test Villain",
        "masterplan": {"cards": [{"n": 1, "move": 2, "bam": True, "place": place}]},
    }
    return Document(ROOT / "t.yaml", "t.yaml", data, lambda *a, **k: (1, 1))


RENDERED = [
    {"left": {"thug": 2}, "villain": {"civilian": 1}, "right": {"crisis": 1}},
    {"anchor": "sewer", "left": {"civilian": 3, "thug": 1}, "right": {"thug": 4}},
]


@pytest.mark.parametrize("place", RENDERED)
def test_counts_on_a_rendered_card_clean_and_photographed(place):
    samples = _make_samples()
    card = samples.render(_masterplan(place))
    palette = load_palette("marvel-united")
    want = {k: v for k, v in place.items() if k != "anchor"}
    assert count_tokens(card, palette).place() == want
    photo, corners = samples.phone(card, "test")
    w, h = card.size
    flat = photo.convert("RGB").transform(
        (w, h),
        Image.Transform.PERSPECTIVE,
        samples.perspective_coefficients([(0, 0), (w, 0), (w, h), (0, h)], corners),
        Image.Resampling.BICUBIC,
    )
    reading = count_tokens(flat, palette)
    assert reading.place() == want
    assert reading.confidence >= 0.5


def test_the_palette_is_the_renderers_icon_data():
    from cardkit.render.icons import icon_set

    palette = load_palette("marvel-united")
    tokens = {k for k, icon in icon_set("marvel-united").items() if icon.role == "token"}
    assert set(palette.tokens) == tokens and {"civilian", "thug"} <= tokens
    assert {c.name for c in palette.colours} >= {"sewer", "villain", "bam"}
    assert [s for s, _, _ in palette.slots] == ["left", "villain", "right"]
