"""Region preparation for the engine, on crops drawn here: light evened out under a lamp,
and paper with nothing printed on it sent as blank paper, not as stretched noise."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from cardkit.ocr import layout


def _region() -> layout.Region:
    return layout.Region(field="text", box=(0.0, 0.0, 1.0, 1.0), x_height=0.0)


def _paper(lamp: bool, seed: int = 5) -> np.ndarray:
    """Cream paper 300 x 120 with photo noise; `lamp`: lit from the left, dim on the right."""
    rng = np.random.default_rng(seed)
    light = np.linspace(1.0, 0.6, 300)[None, :] if lamp else np.ones((1, 300))
    grey = 235 * light + rng.normal(0, 5, (120, 300))
    return np.clip(grey, 0, 255)


def test_blank_paper_with_photo_noise_goes_to_the_engine_as_white():
    noisy = Image.fromarray(_paper(lamp=True).astype(np.uint8)).convert("RGB")
    prepared = np.asarray(layout.prepare(noisy, _region(), 1000))
    assert prepared.min() == 255  # no speck left for the engine to read as a mark


def test_a_single_small_digit_is_not_blank_paper():
    # one digit at the size the engine gets (x-height ~25 px): under a 300th of the region
    image = Image.fromarray(_paper(lamp=False).astype(np.uint8)).convert("RGB")
    font = ImageFont.load_default(size=34)
    ImageDraw.Draw(image).text((140, 40), "1", fill=(40, 40, 40), font=font)
    assert not layout.blank(image)
    assert np.asarray(layout.prepare(image, _region(), 1000)).min() < 128


def test_uneven_light_is_evened_out_so_one_threshold_fits():
    grey = _paper(lamp=True)
    for x in (30, 260):  # the same dark stroke at the bright and the dim end
        grey[40:80, x : x + 6] *= 0.3
    evened = np.asarray(layout.even_light(Image.fromarray(grey.astype(np.uint8))), np.float32)
    paper_left, paper_right = np.median(evened[:, :20]), np.median(evened[:, 280:])
    assert abs(paper_left - paper_right) < 15  # was 235 against 141
    strokes = evened[40:80, 30:36].mean(), evened[40:80, 260:266].mean()
    assert max(strokes) < min(paper_left, paper_right) - 100
