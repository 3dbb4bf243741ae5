"""The residual patch: what an exchange format holds beyond cardkit's fields."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardkit.exchange.residual import apply, diff, size

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("abcd"), inner, max_size=3)
    ),
    max_leaves=12,
)
objects = st.dictionaries(st.sampled_from("abcde"), json_values, max_size=4)


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(objects, objects)
def test_apply_of_diff_gives_the_source_back_in_its_key_order(
    source: dict[str, Any], rebuilt: dict[str, Any]
) -> None:
    back = apply(rebuilt, diff(source, rebuilt))
    assert back == source
    assert list(back) == list(source)


def test_true_is_not_one_and_key_order_counts() -> None:
    patch = diff({"x": True, "y": 1}, {"y": 1, "x": 1})
    assert patch == {"was": {"x": [1, True]}, "order": ["x", "y"]}
    assert diff({"a": 1}, {"a": 1}) == {} and size({}) == 0


def test_a_value_changed_since_import_wins_over_the_kept_source() -> None:
    source = {"move": 2, "letters": ["T", "C", "T"], "img": "a.jpg"}
    rebuilt = {"move": 2, "letters": ["T", "T", "C"]}  # cardkit's order of the same letters
    patch = diff(source, rebuilt)
    assert apply(rebuilt, patch) == source
    edited = {"move": 3, "letters": ["C"]}  # corrected in cardkit after the import
    assert apply(edited, patch) == {"move": 3, "letters": ["C"], "img": "a.jpg"}
    assert size(patch) == 3  # img kept; letters [1] and [2] replaced
