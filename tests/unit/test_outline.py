"""The card's outline on backgrounds drawn here: plain, low-contrast, wood-like, noisy, dark;
turned, in perspective, with rounded corners. Corners are compared with where the card
was drawn; text axis and the shapes an outline may be squared to are checked too."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

from cardkit.ocr import card_outline as outline
from cardkit.ocr import geometry, pipeline

CARD = (500, 700)  # a poker card's proportions, 0.714


def _card(fill: tuple[int, int, int] = (246, 241, 226), radius: int = 30) -> Image.Image:
    """A card with rounded corners, a thin printed border and lines of 'text'."""
    width, height = CARD
    card = Image.new("RGBA", CARD, (0, 0, 0, 0))
    draw = ImageDraw.Draw(card)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius, fill=(*fill, 255))
    draw.rounded_rectangle(
        (2, 2, width - 3, height - 3), radius - 2, outline=(150, 150, 150), width=2
    )
    rng = np.random.default_rng(7)
    for line in range(14):
        y = 120 + line * 38
        x = 40
        while True:
            word = int(rng.integers(30, 90))
            if x + word > width - 40:
                break
            draw.rectangle((x, y, x + word, y + 14), fill=(30, 30, 30, 255))
            x += word + 14
    return card


def _background(kind: str, size: tuple[int, int]) -> np.ndarray:
    width, height = size
    rng = np.random.default_rng(3)
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    if kind == "bed":  # a scanner lid barely darker than the card
        return np.full((height, width, 3), 236, np.uint8)
    if kind == "wood":
        grain = np.sin((x + 12 * np.sin(y / 70)) / 6) * 0.5 + 0.5
        shade = 0.8 + 0.2 * grain
        return np.clip(shade[..., None] * np.array([130, 90, 58]), 0, 255).astype(np.uint8)
    if kind == "noise":  # a speckled grey cloth
        return np.clip(rng.normal(120, 18, (height, width, 3)), 0, 255).astype(np.uint8)
    return np.full((height, width, 3), 35, np.uint8)  # a dark table


def _scene(corners: list[tuple[float, float]], kind: str, size=(900, 1100)) -> Image.Image:
    card = np.asarray(_card())
    w, h = CARD
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    matrix = cv2.getPerspectiveTransform(source, np.array(corners, np.float32))
    warped = cv2.warpPerspective(card, matrix, size, flags=cv2.INTER_LINEAR)
    alpha = warped[..., 3:4].astype(np.float32) / 255.0
    scene = warped[..., :3] * alpha + _background(kind, size) * (1 - alpha)
    return Image.fromarray(scene.astype(np.uint8))


def _turned(angle: float, centre=(450.0, 550.0)) -> list[tuple[float, float]]:
    w, h = CARD
    turn = np.deg2rad(angle)
    c, s = np.cos(turn), np.sin(turn)
    out = []
    for x, y in [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]:
        out.append((centre[0] + c * x - s * y, centre[1] + s * x + c * y))
    return out


@pytest.mark.parametrize("kind", ["bed", "wood", "noise", "dark"])
@pytest.mark.parametrize("angle", [2.0, -7.0])
def test_corners_are_found_to_a_pixel_or_two_on_any_background(kind, angle):
    corners = _turned(angle)
    found = outline.find_outline(_scene(corners, kind), [0.714])
    assert found is not None
    # the rounded corners do not pull the corners in: the sides' lines meet where drawn
    assert np.abs(found.corners - np.array(corners)).max() <= 2.0


def test_a_card_in_perspective_is_found_and_squared_to_its_proportions():
    corners = [(230.0, 180.0), (690.0, 200.0), (760.0, 930.0), (150.0, 910.0)]
    scene = _scene(corners, "wood")
    found = outline.find_outline(scene, [0.714])
    assert found is not None and np.abs(found.corners - np.array(corners)).max() <= 2.5
    card = geometry.warp(scene, found.corners, 0.714)
    assert abs(card.width / card.height - 0.714) < 0.01


def test_no_outline_where_the_card_fills_the_picture_or_the_border_is_art():
    assert outline.find_outline(_card().convert("RGB"), [0.714]) is None
    art = np.asarray(_scene(_turned(0.0), "bed")).copy()
    art[:300] = np.random.default_rng(1).integers(0, 255, (300, art.shape[1], 3))  # art above
    assert outline.find_outline(Image.fromarray(art), [0.714]) is None


def test_an_outline_of_other_proportions_is_not_a_card():
    corners = _turned(3.0)
    assert outline.find_outline(_scene(corners, "wood"), [1.0]) is None


def test_text_axis_on_a_card_and_turned_a_quarter():
    card = _card().convert("RGB")
    assert geometry.text_axis(card)[0] == "horizontal"
    assert geometry.text_axis(geometry.rotate(card, 90))[0] == "vertical"


def test_an_outline_between_two_card_shapes_is_tried_as_both():
    # 1.42 wide: a poker card turned sideways (1.40) or a 150 x 100 mm board (1.50)
    corners = [(100.0, 300.0), (810.0, 300.0), (810.0, 800.0), (100.0, 800.0)]
    scene = _scene(corners, "dark")
    straight = pipeline.straighten(scene, [63.5 / 88.9, 1.5])
    assert straight.settings["outline"] == "found"
    assert [round(s, 2) for s in straight.shapes if s] == [1.4, 1.5]
    assert abs(straight.card(1).width / straight.card(1).height - 1.5) < 0.01


def _framed_card_with_shadow(corners: list[tuple[float, float]], size=(900, 1100)) -> Image.Image:
    """A card with a dark frame round a mid-tone picture above and light paper below, lying
    on dark striped wood with a soft shadow below and to the right (a phone photo)."""
    w, h = CARD
    card = Image.new("RGBA", CARD, (0, 0, 0, 0))
    draw = ImageDraw.Draw(card)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), 20, fill=(40, 44, 62, 255))  # dark frame
    draw.rectangle((12, 12, w - 13, h // 2), fill=(70, 95, 110, 255))  # the picture
    draw.rectangle((12, h // 2, w - 13, h - 13), fill=(240, 236, 222, 255))  # paper
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    matrix = cv2.getPerspectiveTransform(source, np.array(corners, np.float32))
    warped = cv2.warpPerspective(np.asarray(card), matrix, size, flags=cv2.INTER_LINEAR)
    alpha = warped[..., 3].astype(np.float32) / 255.0
    width, height = size
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    grain = np.sin((x + 12 * np.sin(y / 70)) / 9) * 0.5 + 0.5
    table = (0.65 + 0.35 * grain)[..., None] * np.array([120, 78, 45], np.float32)
    shadow = cv2.GaussianBlur(np.roll(alpha, (10, 6), axis=(0, 1)), (0, 0), 9)
    table *= (1 - 0.3 * shadow)[..., None]
    scene = warped[..., :3] * alpha[..., None] + table * (1 - alpha[..., None])
    return Image.fromarray(np.clip(scene, 0, 255).astype(np.uint8))


@pytest.mark.parametrize("angle", [1.5, -4.0])
def test_a_dark_frame_round_light_paper_on_dark_wood_with_a_shadow_is_the_edge(angle):
    # the frame's outer edge, not the paper inside it nor the shadow's soft end
    corners = _turned(angle)
    found = outline.find_outline(_framed_card_with_shadow(corners), [0.714])
    assert found is not None
    assert np.abs(found.corners - np.array(corners)).max() <= 2.5
