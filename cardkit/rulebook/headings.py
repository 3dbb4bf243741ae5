"""Which headings hold which documents: per-system data, not code.

Each system keeps a `headings.yaml` beside its reader: for each role, the ways a
heading can match it. A heading matches a role when it equals one of `is`, starts
with one of `starts`, ends with one of `ends`, or contains one of `contains`
(`starts_lower` compares in lower case). See docs/transcription-format.md.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any


@cache
def _table(package: str) -> dict[str, dict[str, list[str]]]:
    from cardkit.files import yamlio

    text = resources.files(package).joinpath("headings.yaml").read_text(encoding="utf-8")
    data: Any = yamlio.load_text(text)
    return {str(role): dict(rule) for role, rule in (data or {}).items()}


def matches(package: str, role: str, title: str) -> bool:
    """True when `title` is a heading of `role` in the system whose package is `package`."""
    rule = _table(package).get(role)
    if rule is None:
        raise KeyError(f"{package}/headings.yaml has no role '{role}'")
    return (
        title in rule.get("is", [])
        or any(title.startswith(s) for s in rule.get("starts", []))
        or any(title.lower().startswith(s) for s in rule.get("starts_lower", []))
        or any(title.endswith(s) for s in rule.get("ends", []))
        or any(s in title for s in rule.get("contains", []))
    )


def role_of(package: str, title: str, roles: tuple[str, ...]) -> str | None:
    """The first of `roles` whose rule `title` matches."""
    return next((role for role in roles if matches(package, role, title)), None)
