"""What a page read holds besides its fields: the marks cardkit prints on its own proxies
(proxy_marks.yaml: never card text), and the lines no field claims (kept_text)."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from cardkit.ocr.engine import Reading

if TYPE_CHECKING:
    from cardkit.ocr.page import Line

CLAIMED = 0.6  # a line is a field's when this share of its words is in that field's text


@cache
def proxy_marks() -> tuple[re.Pattern[str], ...]:
    """What cardkit prints on its own proxies and is never card text (proxy_marks.yaml)."""
    import yaml

    raw = resources.files("cardkit.ocr").joinpath("proxy_marks.yaml").read_text("utf-8")
    data = yaml.safe_load(raw) or {}
    return tuple(re.compile(str(p)) for p in data.get("lines", []))


def is_proxy_mark(text: str) -> bool:
    return any(p.search(text) for p in proxy_marks())


def drop_proxy_marks(reading: Reading) -> Reading:
    """The reading without the lines cardkit's proxies print (the UNCONFIRMED band)."""
    kept = [line for line in reading.lines if not is_proxy_mark(" ".join(w.text for w in line))]
    if sum(len(line) for line in kept) == len(reading.words):
        return reading
    return Reading(tuple(w for line in kept for w in line))


def words_of(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.casefold()) if len(w) > 1 or w.isdigit()]


def unclaimed(lines: list[Line], claimed: list[Any]) -> list[str]:
    """The lines no field holds, in reading order: a line is a field's when most of its
    words (letters and digits, folded) are in the text the fields were given."""
    pool: dict[str, int] = {}
    for value in claimed:
        for word in words_of(_flatten(value)):
            pool[word] = pool.get(word, 0) + 1
    out = []
    for line in lines:
        words = words_of(line.text)
        if not words:
            continue
        found = 0
        for word in words:
            if pool.get(word, 0) > 0:
                pool[word] -= 1
                found += 1
        if found / len(words) < CLAIMED:
            out.append(line.text)
    return out


def _flatten(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(f"{k} {_flatten(v)}" for k, v in value.items())
    if isinstance(value, list):
        return " ".join(_flatten(v) for v in value)
    return "" if value is None or isinstance(value, bool) else str(value)
