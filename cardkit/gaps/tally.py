"""The gap summary's counts: what `cardkit gaps` (every format) and `cardkit build` print
after the rows, kept as the rows go by so a tree of any size holds no list of them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # gaps.py imports this module for its summary
    from cardkit.gaps.rows import Gap


class Tally:
    """The summary's counts, kept as rows go by: per box and status, and the open checks.
    `listed` names the status the listing shows when it is not every row ("open"): the
    caller counts rows before `--status` picks, so the summary tells what the files hold."""

    def __init__(self, listed: str = "") -> None:
        self.listed = listed
        self.boxes: dict[str, dict[str, int]] = {}
        # Each open check by its 64-bit hash, not its text: less memory over a
        # big tree (two checks of a run sharing a hash: odds ~1e-9 at 400,000 checks).
        self.open_checks: set[int] = set()

    def see(self, row: Gap) -> Gap:
        counts = self.boxes.setdefault(row.box, {})
        counts[row.status] = counts.get(row.status, 0) + 1
        if row.status == "open":
            self.open_checks.add(hash(row.check))
        return row

    def counted(self, rows: Iterable[Gap]) -> Iterator[Gap]:
        return (self.see(row) for row in rows)

    def counted_all(self, rows: Iterable[Gap]) -> Tally:
        for row in rows:
            self.see(row)
        return self

    def line(self) -> str:
        """`12 open on 12 checks, 1 resolved (box: 12 open, 1 resolved)` of the rows seen."""
        boxes: dict[str, dict[str, int]] = {}
        for box, counts in self.boxes.items():
            merged = boxes.setdefault(box or "(no box)", {"open": 0, "resolved": 0})
            for status, n in counts.items():
                merged[status] = merged.get(status, 0) + n
        parts = [
            f"{box}: {c['open']} open, {c['resolved']} resolved" for box, c in sorted(boxes.items())
        ]
        total_open = sum(c["open"] for c in boxes.values())
        total_resolved = sum(c["resolved"] for c in boxes.values())
        return (
            f"{total_open} open on {len(self.open_checks)} checks, {total_resolved} resolved"
            + (f" ({'; '.join(parts)})" if parts else "")
            + (f"; listed: {self.listed}" if self.listed else "")
        )

    def counts(self) -> dict[str, object]:
        boxes = {b: {"open": c.get("open", 0), "resolved": c.get("resolved", 0)} for b, c in
                 self.boxes.items()}  # fmt: skip
        return {
            "open": sum(c["open"] for c in boxes.values()),
            "checks": len(self.open_checks),
            "resolved": sum(c["resolved"] for c in boxes.values()),
            "boxes": boxes,
            "listed": self.listed or "all",
        }
