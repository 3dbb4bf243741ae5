"""Filters over gap rows: the checklist for one sitting.

Each filter takes one or more values (any of them may match) and the filters combine
(all must match). `kind` matches a document kind (`marvel-united/villain` or its last
part, `villain`) or the part of the document the field sits in (`masterplan`,
`threats`, `dashboard`); `field` the field's own name (`place`) or a leading part of
its address (`masterplan/cards/3`); `id` the document or its group (as its game's
`GROUP` says: a Marvel United villain); `box` the box; `origin` noted, unconfirmed or
inferred.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from cardkit import suggest
from cardkit.errors import UsageError
from cardkit.gaps.rows import ORIGINS, Gap


@dataclass(frozen=True)
class Filters:
    kind: tuple[str, ...] = ()
    field: tuple[str, ...] = ()
    id: tuple[str, ...] = ()
    box: tuple[str, ...] = ()
    origin: tuple[str, ...] = ()
    unknown: list[str] = dataclasses.field(default_factory=list, compare=False)

    def __post_init__(self) -> None:
        wrong = [o for o in self.origin if o not in ORIGINS]
        if wrong:
            raise UsageError(f"--origin takes {', '.join(ORIGINS)}, not {', '.join(wrong)}")

    def keep(self, row: Gap) -> bool:
        return (
            _any(self.kind, _kinds(row))
            and _any(self.field, _fields(row))
            and _any(self.id, {row.document, row.game_group} - {""})
            and _any(self.box, {row.box})
            and _any(self.origin, {row.origin})
        )


def _any(wanted: tuple[str, ...], have: Iterable[str]) -> bool:
    have = {h.casefold() for h in have}
    return not wanted or any(w.casefold() in have for w in wanted)


def _parts(row: Gap) -> list[str]:
    return [f.strip() for f in row.field.split(",") if f.strip()]


def _kinds(row: Gap) -> set[str]:
    kinds = {row.kind, row.kind.rsplit("/", 1)[-1]}
    return kinds | {f.split("/")[0] for f in _parts(row)}


def _fields(row: Gap) -> set[str]:
    names: set[str] = set()
    for address in _parts(row):
        segments = address.split("/")
        names.add(segments[-1])
        names.update("/".join(segments[:i]) for i in range(1, len(segments) + 1))
    return names


def select(rows: list[Gap], filters: Filters) -> list[Gap]:
    """The rows every filter keeps; names that matched no row are noted in filters.unknown."""
    return list(selected(rows, filters))


def selected(rows: Iterable[Gap], filters: Filters) -> Iterator[Gap]:
    """The rows every filter keeps, as they come; once they are all through, the names
    that matched no row are in filters.unknown. Only the values of a filter in use are
    gathered (for the "did you mean" hint)."""
    dimensions: list[tuple[str, tuple[str, ...], Callable[[Gap], Iterable[str]]]] = [
        ("--kind", filters.kind, _kinds),
        ("--field", filters.field, _fields),
        ("--id", filters.id, lambda r: (r.document, r.game_group)),
        ("--box", filters.box, lambda r: (r.box,)),
    ]
    used = [(name, wanted, values, set[str]()) for name, wanted, values in dimensions if wanted]
    for row in rows:
        for _, _, values, have in used:
            have.update(values(row))
        if filters.keep(row):
            yield row
    for name, wanted, _, have in used:
        folded = {h.casefold() for h in have}
        for value in wanted:
            if value.casefold() not in folded:
                filters.unknown.append(f"{name} '{value}' ({suggest.hint(value, have)})")
