"""The fast loader (own resolver and builder) reads exactly what PyYAML's own path reads."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from cardkit.files import yamlio
from tests.conftest import ROOT


class Reference(yamlio.CardLoader):
    """PyYAML's resolver and constructor, untouched, with cardkit's registrations."""

    resolve = yaml.resolver.BaseResolver.resolve
    descend_resolver = yaml.resolver.BaseResolver.descend_resolver
    ascend_resolver = yaml.resolver.BaseResolver.ascend_resolver


def _reference(text: str) -> object:
    loader = Reference(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def _typed(value: object) -> str:
    return repr(value)  # True and 1, 1.0 and 1 compare equal; their reprs do not


FILES = sorted(p for base in ("cards", "tests/cases/valid") for p in (ROOT / base).rglob("*.y*ml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_corpus_file_reads_the_same(path: Path) -> None:
    text = yamlio.read_text(path)
    assert _typed(yamlio.load_text(text)) == _typed(_reference(text))


SCALARS = st.sampled_from(
    ["yes", "no", "on", "true", "True", "TRUE", "tRue", "false", "0o17", "0x1F", "017",
     "+12", "-0", "1_000", "1e3", "1.5", ".5", "-.inf", ".NaN", "~", "null", "Null", "",
     "2024-01-01", "12:30", "'quoted'", '"7"', "x: y", "- a", "*", "=", "0b101", "0.", "+.inf"]
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.text("abc", min_size=1, max_size=3), SCALARS), max_size=6))
def test_scalars_resolve_as_yaml_1_2_core(pairs: list[tuple[str, str]]) -> None:
    text = "".join(f"{key}{i}: {value}\n" for i, (key, value) in enumerate(pairs))
    try:
        expected = _typed(_reference(text))
    except yaml.YAMLError:
        with pytest.raises(yamlio.YamlProblem):
            yamlio.load_text(text)
        return
    assert _typed(yamlio.load_text(text)) == expected


def test_duplicate_keys_and_tags_are_still_refused() -> None:
    with pytest.raises(yamlio.YamlProblem) as dup:
        yamlio.load_text("a: 1\nb:\n  c: 2\n  c: 3\n")
    assert (dup.value.code, dup.value.line, dup.value.column) == ("CK002", 4, 3)
    assert "first defined on line 3" in dup.value.message
    with pytest.raises(yamlio.YamlProblem) as tagged:
        yamlio.load_text("a: !!python/object:os.system x\n")
    assert tagged.value.code == "CK001"
    assert yamlio.load_text("a: !!str 12\nb: [1, {c: null}]\n") == {
        "a": "12",
        "b": [1, {"c": None}],
    }
