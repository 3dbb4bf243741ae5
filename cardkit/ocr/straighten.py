"""The card cut out of its scan and squared up: one image per card proportion its outline
may have (geometry.py finds the outline; this chooses the shapes to square it to)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image

from cardkit.ocr import geometry

OUTLINE_SLACK = 0.12  # an outline in a photo may differ this much from its card's aspect


@dataclass
class Straightened:
    """The card squared up: one image per card proportion its outline may have."""

    shapes: list[float | None]  # width/height to square the outline to; None: as it is
    settings: dict[str, Any]
    image: Image.Image
    outline: geometry.Outline | None = None

    def card(self, index: int) -> Image.Image:
        if self.outline is None:
            return self.image
        return geometry.warp(self.image, self.outline.corners, self.shapes[index])

    def preview(self) -> Image.Image:
        """A small copy of the nearest shape: enough to see which way the text runs."""
        if self.outline is None:
            return self.image
        return geometry.warp(self.image, self.outline.corners, self.shapes[0], geometry.WORK_SIZE)


def straighten(image: Image.Image, aspects: list[float]) -> Straightened:
    """The card cut out of a photo, to be squared up to each card proportion (either way
    up) near its outline's, nearest first; the scan itself, trimmed of a plain margin, when
    it is all card. (In a photo a card's proportions are off by up to a tenth: a poker card
    turned sideways, 1.40, and a 150 x 100 mm board, 1.50, are both possible at 1.42.)"""
    outline = geometry.find_outline(image, aspects)
    if outline is None:
        return Straightened([None], {"outline": "whole image"}, geometry.trim(image))
    width, height = geometry.side_lengths(outline.corners)
    measured = width / height
    shapes = sorted({*aspects, *(1 / a for a in aspects)}, key=lambda a: abs(measured - a) / a)
    near: list[float | None] = [a for a in shapes if abs(measured - a) / a <= OUTLINE_SLACK]
    return Straightened(near or [None], {"outline": "found"}, image, outline)
