"""What a format holds beyond cardkit's fields: a patch from cardkit's rebuild to the source.

An importer maps what it can into cardkit's fields; an exporter rebuilds the format's
object from those fields. `diff(source, rebuilt)` is everything else: keys cardkit does
not model (`keep`), values cardkit writes differently (`was`: the rebuilt value at import
time and the source's), keys the source lacks (`drop`), the source's key order (`order`)
and the same, recursively, inside nested objects and lists of the same length (`sub`).
`apply(rebuilt, patch)` gives the source back. A `was` or `drop` entry only applies while
cardkit's value is still the one seen at import: a field edited since then wins, so a
correction made in cardkit is exported rather than overwritten by the old source value.
Patches hold only JSON values and string keys, so they sit in YAML as they are.
"""

from __future__ import annotations

from typing import Any

Patch = dict[str, Any]


def _is_object(value: Any) -> bool:
    return isinstance(value, dict)


def _same(a: Any, b: Any) -> bool:
    """JSON equality, where True is not 1 and 1 is not 1.0 (Python's == says they are)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _identical(a: Any, b: Any) -> bool:
    """JSON equality and the same key order throughout (so the text written is the same)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_identical(v, b[k]) for k, v in a.items())
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_identical(x, y) for x, y in zip(a, b, strict=True))
    return _same(a, b)


def diff(source: Any, rebuilt: Any) -> Patch:
    """The patch that turns `rebuilt` into `source` (both dicts, or both lists)."""
    patch: Patch = {}
    if isinstance(source, list) and isinstance(rebuilt, list):
        subs = {
            str(i): nested
            for i, (s, r) in enumerate(zip(source, rebuilt, strict=True))
            if (nested := _value_patch(s, r))
        }
        return {"sub": subs} if subs else {}
    keep = {k: v for k, v in source.items() if k not in rebuilt}
    drop = {k: v for k, v in rebuilt.items() if k not in source}
    was: dict[str, Any] = {}
    sub: dict[str, Patch] = {}
    for key, value in source.items():
        if key not in rebuilt:
            continue
        if _identical(value, rebuilt[key]):
            continue
        nested = _value_patch(value, rebuilt[key])
        if nested:
            sub[key] = nested
    for key, nested in list(sub.items()):
        if "value" in nested:
            was[key] = nested["value"]
            del sub[key]
    if keep:
        patch["keep"] = keep
    if drop:
        patch["drop"] = drop
    if was:
        patch["was"] = was
    if sub:
        patch["sub"] = sub
    merged = [k for k in rebuilt if k in source] + [k for k in source if k not in rebuilt]
    if merged != list(source):
        patch["order"] = list(source)
    return patch


def _value_patch(source: Any, rebuilt: Any) -> Patch:
    if _identical(source, rebuilt):
        return {}
    both_objects = _is_object(source) and _is_object(rebuilt)
    both_lists = isinstance(source, list) and isinstance(rebuilt, list)
    if both_objects or (both_lists and len(source) == len(rebuilt) and source):
        return diff(source, rebuilt)
    return {"value": [rebuilt, source]}  # replaced whole: [cardkit's at import, the source's]


def apply(rebuilt: Any, patch: Patch) -> Any:
    """`rebuilt` with the patch laid on: the source, where cardkit's fields are unchanged."""
    if not patch:
        return rebuilt
    if isinstance(rebuilt, list):
        out_list = list(rebuilt)
        for index, nested in patch.get("sub", {}).items():
            i = int(index)
            if i >= len(out_list):
                continue
            if "value" in nested:
                seen, source = nested["value"]
                if _same(out_list[i], seen):
                    out_list[i] = source
            else:
                out_list[i] = apply(out_list[i], nested)
        return out_list
    if not isinstance(rebuilt, dict):
        return rebuilt
    out = dict(rebuilt)
    for key, value in patch.get("drop", {}).items():
        if key in out and _same(out[key], value):
            del out[key]
    for key, (seen, source) in patch.get("was", {}).items():
        if key in out and _same(out[key], seen):
            out[key] = source
    for key, nested in patch.get("sub", {}).items():
        if key in out:
            out[key] = apply(out[key], nested)
    for key, value in patch.get("keep", {}).items():
        out.setdefault(key, value)
    order = patch.get("order")
    if order:
        rank = {key: i for i, key in enumerate(order)}
        out = dict(sorted(out.items(), key=lambda kv: rank.get(kv[0], len(rank))))
    return out


def size(patch: Patch) -> int:
    """How many keys the patch keeps, replaces or drops (0: cardkit's fields say it all)."""
    total = len(patch.get("keep", {})) + len(patch.get("was", {})) + len(patch.get("drop", {}))
    total += 1 if "value" in patch else 0
    return total + sum(size(nested) for nested in patch.get("sub", {}).values())
