"""Disney Villainous rules: four locations on a board, Power for every seat."""

from __future__ import annotations

from collections.abc import Iterator

from cardkit.check.rules import document_rule
from cardkit.model import Document, Pointer, Severity

SYSTEM = "villainous"
SEATS = [str(n) for n in range(1, 7)]
Result = Iterator[tuple[Pointer, str]]


@document_rule(
    "VL101",
    Severity.WARNING,
    "A villain's board does not have four locations.",
    system=SYSTEM,
    kinds=[f"{SYSTEM}/villain"],
)
def four_locations(doc: Document) -> Result:
    locations = doc.data.get("board", {}).get("locations", [])
    if len(locations) != 4:
        yield (
            ("board", "locations"),
            f"the board has {len(locations)} locations; every board has four",
        )


@document_rule(
    "VL102",
    Severity.WARNING,
    "Starting Power is not given for every seat from 1 to 6.",
    system=SYSTEM,
    kinds=[f"{SYSTEM}/setup"],
)
def power_for_every_seat(doc: Document) -> Result:
    table = doc.data.get("power_by_seat")
    if table is None:
        yield (), "the setup gives no starting Power by seat"
        return
    missing = [seat for seat in SEATS if seat not in table.get("seats", {})]
    if missing:
        yield ("power_by_seat", "seats"), f"no starting Power for seat(s) {', '.join(missing)}"
