"""The "did you mean" hint every refusal of a name shares (one phrasing for the whole tool).

A message names the bad value itself (`unknown kind 'heor'`) and ends with `hint(...)`:

    unknown kind 'heor'; did you mean 'hero'?
    --id 'klw' matches nothing here; did you mean 'klaw' or 'klaw-2'?
    no field 'zzz' at 'the top'; known: box, kind, name

A warning about a name that may well be new (`cardkit new --box`) says only `close(...)`:
the same "did you mean" when a name is close, else nothing.

The close names are the ones difflib finds close (ratio 0.6 or more), the best first, kept
only while they are about as close as the best (within 0.1 of it): a typo of
`marvel-united/villain` is not also offered every other `marvel-united/...` kind.
"""

from __future__ import annotations

from collections.abc import Iterable

CUTOFF = 0.6  # difflib.get_close_matches' own default
SPREAD = 0.1  # how much less close than the best a name may be and still be offered
MOST = 3  # close names offered at most
LISTED = 10  # known names listed at most when none is close


def hint(name: str, known: Iterable[str], *, elsewhere: str = "") -> str:
    """What to say after a message that refuses `name`, given the names that would do.

    `did you mean 'a'?` (or `'a', 'b' or 'c'?`) when some are close; else `known: a, b`;
    past LISTED names, `elsewhere` (e.g. "see `cardkit kinds`") when given, else the first
    LISTED and how many more. Empty names are not names; `known: none` when none is left.
    """
    names = sorted({str(k) for k in known} - {""})
    offered = close(name, names)
    if offered:
        return offered
    if not names:
        return "known: none"
    if len(names) <= LISTED:
        return f"known: {', '.join(names)}"
    return elsewhere or f"known: {', '.join(names[:LISTED])} and {len(names) - LISTED} more"


def close(name: str, known: Iterable[str]) -> str:
    """`did you mean 'a'?` when some known names are close to `name`; else "" (for a
    warning that says nothing more when no name is close)."""
    found = _close(name, sorted({str(k) for k in known} - {""}))
    if not found:
        return ""
    quoted = [f"'{c}'" for c in found]
    said = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"
    return f"did you mean {said}?"


def _close(name: str, names: list[str]) -> list[str]:
    import difflib  # only when a name is refused: not on every start of the tool

    matcher = difflib.SequenceMatcher(b=name)
    scored = []
    for candidate in names:
        matcher.set_seq1(candidate)
        if matcher.real_quick_ratio() < CUTOFF or matcher.quick_ratio() < CUTOFF:
            continue  # the bounds difflib checks first: cheap, and never above ratio()
        score = matcher.ratio()
        if score >= CUTOFF:
            scored.append((-score, candidate))
    scored.sort()
    return [c for s, c in scored[:MOST] if -s >= -scored[0][0] - SPREAD]
