"""A system's grammar kinds, as its `grammar.yaml` writes them (format: docs/ocr.md,
"Grammar"): each kind's evidence, signs, structures, shape, expected fields and per field
one rule (grammar.py reads a card's lines by them)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from cardkit.errors import UsageError
from cardkit.ocr import numbers, sections

GRAMMAR_FILE = "grammar.yaml"
RULES: tuple[str, ...] = ("title", "pattern", "lines", "span", "after", "rest", "flag", "near")
RULES += ("slots",)
RULES += sections.RULES  # headed sections in columns (sections.py)
RULES += numbers.RULES  # a table of numbers, a number by its label: from the image (numbers.py)


@dataclass(frozen=True)
class Rule:
    field: str
    how: str  # title | pattern | lines | after | rest
    options: dict[str, Any]


@dataclass(frozen=True)
class Kind:
    system: str
    name: str
    kind: str
    aspect: float
    evidence: tuple[str, ...]
    rules: tuple[Rule, ...]
    expects: tuple[str, ...]
    fixed: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    drop: tuple[str, ...] = ()
    always: bool = False  # `reads: grammar`: read so even when a template decided the kind
    structures: tuple[str, ...] = ()  # shapes only this kind prints, found in the image
    # how lines of this kind are built, by name: a pattern the title (`title: true`) or any
    # line matches (`Lizard 9`: a numbered title; `Move clockwise ...`: a movement sentence)
    signs: tuple[tuple[str, re.Pattern[str], bool], ...] = field(default=(), compare=False)

    @property
    def ident(self) -> str:
        return f"{self.system}/{self.name}"


def _kind(system: str, name: str, raw: dict[str, Any], where: str) -> Kind:
    try:
        rules = []
        for field_name, spec in (raw.get("fields") or {}).items():
            spec = {"how": spec} if isinstance(spec, str) else dict(spec)
            how = str(spec.pop("how"))
            if how not in RULES:
                raise ValueError(f"field {field_name}: unknown rule {how!r}")
            rules.append(Rule(str(field_name), how, spec))
        return Kind(
            system,
            name,
            str(raw["kind"]),
            float(raw["aspect"]),
            tuple(str(e) for e in raw.get("evidence", [])),
            tuple(rules),
            tuple(str(e) for e in raw.get("expects", [r.field for r in rules])),
            dict(raw.get("fixed") or {}),
            tuple(str(d) for d in raw.get("drop", [])),
            str(raw.get("reads", "")) == "grammar",
            _structures(raw.get("structures", [])),
            _signs(raw.get("signs") or {}),
        )
    except (KeyError, TypeError, ValueError) as err:
        raise UsageError(f"{where}: grammar kind {name}: {err}") from None


def _signs(raw: Any) -> tuple[tuple[str, re.Pattern[str], bool], ...]:
    out = []
    for name, spec in dict(raw).items():
        spec = {"pattern": spec} if isinstance(spec, str) else dict(spec)
        try:
            pattern = re.compile(str(spec["pattern"]))
        except re.error as err:
            raise ValueError(f"sign {name}: pattern: {err}") from None
        out.append((str(name), pattern, bool(spec.get("title", False))))
    return tuple(out)


STRUCTURES = ("placement",)  # what `structures` may name (kind_choice.py finds them)


def _structures(raw: Any) -> tuple[str, ...]:
    names = tuple(str(s) for s in raw)
    unknown = [s for s in names if s not in STRUCTURES]
    if unknown:
        raise ValueError(f"unknown structure {unknown[0]!r} (one of {', '.join(STRUCTURES)})")
    return names


@cache
def grammars() -> dict[str, tuple[Kind, ...]]:
    """Every system's grammar kinds, by system name (the folders under cardkit/games)."""
    from cardkit import systems
    from cardkit.files import yamlio

    out: dict[str, tuple[Kind, ...]] = {}
    for module in systems.load():
        source = resources.files(module).joinpath(GRAMMAR_FILE)
        if not source.is_file():
            continue
        data = yamlio.load_text(source.read_text(encoding="utf-8")) or {}
        where = f"{module.__name__}/{GRAMMAR_FILE}"
        name = str(module.NAME)
        kinds = (data.get("kinds") or {}).items()
        out[name] = tuple(_kind(name, str(n), dict(k), where) for n, k in kinds)
    return out
