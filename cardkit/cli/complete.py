"""Shell completion of option values: paper sizes, kinds, document ids and boxes.

The values come from the data, never from a list kept here: papers from
render/formats.yaml, document kinds from the schema registry, ids and boxes from the
YAML files under ./cards (a line scan of each file's top-level `id:` and `box:`, not a
full load, so a Tab press stays quick), proof kinds from the cards the tree prints.
A completion never fails: on any error it offers nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

TREE = Path("cards")
SCAN_BYTES = 65536  # a file's top-level `id:` and `box:` sit near its start
_TOP = {
    key: re.compile(rf"^{key}:[ \t]*['\"]?([A-Za-z0-9][A-Za-z0-9._-]*)", re.M)
    for key in ("id", "box")
}
_KIND = re.compile(r"^kind:[ \t]*['\"]?([a-z0-9-]+/[a-z0-9-]+)", re.M)


def _matching(values: Iterable[str], incomplete: str) -> list[str]:
    return sorted({v for v in values if v.lower().startswith(incomplete.lower())})


def _safe(find: Callable[[], Iterable[str]]) -> Callable[[str], list[str]]:
    def complete(incomplete: str) -> list[str]:
        try:
            return _matching(find(), incomplete)
        except Exception:
            return []

    return complete


def _tops(key: str) -> Iterable[str]:
    if not TREE.is_dir():
        return []
    found = set()
    for path in TREE.rglob("*.y*ml"):
        with path.open("rb") as stream:
            head = stream.read(SCAN_BYTES).decode("utf-8", "replace")
        found.update(_TOP[key].findall(head))
        if key == "box" and path.name == "box.yaml":  # a box manifest's id is a box
            kind = _KIND.search(head)
            if kind and kind[1].endswith("/box"):
                found.update(_TOP["id"].findall(head))
    return found


def _papers() -> Iterable[str]:
    from cardkit.render.sheet import formats

    return [*formats()["papers"], "210mmx297mm"]


def _document_kinds() -> Iterable[str]:
    from cardkit.schemas.registry import kinds

    full = kinds()
    return [*full, *(kind.split("/", 1)[1] for kind in full)]


def _proof_kinds() -> Iterable[str]:
    from cardkit.gaps import rows as gaps
    from cardkit.render import content

    if not TREE.is_dir():
        return []
    documents, _ = gaps.load([TREE])
    return {card.kind for card in content.collect(documents)}


papers = _safe(_papers)
document_kinds = _safe(_document_kinds)
proof_kinds = _safe(_proof_kinds)
ids = _safe(lambda: _tops("id"))
boxes = _safe(lambda: _tops("box"))
