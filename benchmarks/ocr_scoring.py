"""How benchmarks/ocr.py scores a reading against its truth: character error rate (CER)
after the same normalisation for cardkit and raw tesseract, and, for raw tesseract (which
has no fields), the CER against the stretch of its output closest to the truth."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from cardkit.ocr.fields import distance


def norm(text: Any) -> str:
    text = unicodedata.normalize("NFC", str(text or ""))
    text = re.sub(r"\{[a-z_]+\}", " ", text)
    text = text.translate(str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-"}))
    return re.sub(r"\s+", " ", text).strip()


def cer(predicted: Any, truth: Any, *, fold: bool = False) -> float:
    p, t = norm(predicted), norm(truth)
    if fold:
        p, t = p.casefold(), t.casefold()
    if not t:
        return 0.0 if not p else 1.0
    return min(1.0, distance(p, t, limit=max(len(p), len(t))) / len(t))


def best_substring_cer(haystack: str, truth: Any, *, fold: bool = False) -> float:
    """Semi-global alignment: the truth against the stretch of the output closest to it."""
    h, t = norm(haystack), norm(truth)
    if fold:
        h, t = h.casefold(), t.casefold()
    if not t:
        return 0.0
    previous = [0] * (len(h) + 1)  # free start anywhere in the output
    for i, ct in enumerate(t, 1):
        current = [i]
        for j, ch in enumerate(h, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ct != ch)))
        previous = current
    return min(1.0, min(previous) / len(t))  # free end anywhere


def geometric_ratio(ours: list[float], theirs: list[float]) -> float:
    """The geometric mean of per-scan time ratios, ours over theirs on the same scans
    (the geometric mean of ours over that of theirs): one slow scan weighs as much as one
    fast one, as the issue's speed goal counts it."""
    import math

    a, b = [x for x in ours if x > 0], [x for x in theirs if x > 0]
    if not a or not b:
        return 0.0
    return math.exp(sum(map(math.log, a)) / len(a) - sum(map(math.log, b)) / len(b))
