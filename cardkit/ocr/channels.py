"""A picture's brightest and darkest channel per pixel. numpy's `max(axis=2)` reduces
along a three-long inner axis one pixel at a time (about 65 ms on a 1,600 px square card,
and a scan needs several); two element-wise maxima over the channel planes give the same
array some twenty times faster."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray


def brightest(array: NDArray[Any]) -> NDArray[Any]:
    """Each pixel's largest channel (`array.max(axis=2)`) of an H x W x C array."""
    out = array[..., 0]
    for index in range(1, array.shape[2]):
        out = np.maximum(out, array[..., index])
    return np.ascontiguousarray(out)


def darkest(array: NDArray[Any]) -> NDArray[Any]:
    """Each pixel's smallest channel (`array.min(axis=2)`) of an H x W x C array."""
    out = array[..., 0]
    for index in range(1, array.shape[2]):
        out = np.minimum(out, array[..., index])
    return np.ascontiguousarray(out)
