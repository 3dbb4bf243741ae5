"""How two boxes (x, y, w, h) meet, with the areas worked out by hand."""

from cardkit.ocr.boxes import overlaps, shared_area


def test_boxes_that_cross_share_the_crossing() -> None:
    assert shared_area((0, 0, 10, 10), (5, 5, 10, 10)) == 25
    assert shared_area((0, 0, 10, 10), (2, 3, 4, 5)) == 20  # one inside the other
    assert overlaps((0, 0, 10, 10), (9, 9, 5, 5))


def test_boxes_that_touch_or_lie_apart_share_nothing() -> None:
    assert shared_area((0, 0, 10, 10), (10, 0, 5, 5)) == 0  # edge to edge
    assert shared_area((0, 0, 10, 10), (20, 20, 5, 5)) == 0
    assert not overlaps((0, 0, 10, 10), (0, 10, 10, 10))
