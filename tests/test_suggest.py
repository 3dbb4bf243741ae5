"""The one "did you mean" hint: expected strings written by hand."""

from __future__ import annotations

from cardkit.suggest import close, hint


def test_one_close_name_is_offered_quoted() -> None:
    assert hint("heor", ["villain", "hero", "card"]) == "did you mean 'hero'?"


def test_names_as_close_as_the_best_are_all_offered() -> None:
    assert hint("klaw", ["rhino", "klaw-2", "klaw-1"]) == "did you mean 'klaw-1' or 'klaw-2'?"


def test_at_most_three_are_offered() -> None:
    names = ["klaw-4", "klaw-3", "klaw-2", "klaw-1"]
    assert hint("klaw", names) == "did you mean 'klaw-1', 'klaw-2' or 'klaw-3'?"


def test_a_name_much_less_close_than_the_best_is_left_out() -> None:
    # villain is close (0.86); villain-setup only just passes the cut (0.6)
    assert hint("villian", ["villain-setup", "villain"]) == "did you mean 'villain'?"


def test_nothing_close_lists_the_known_names_sorted_once_each() -> None:
    assert hint("zzz", ["sewer", "thug", "", "civilian", "thug"]) == "known: civilian, sewer, thug"


def test_nothing_known_says_so() -> None:
    assert hint("zzz", ["", ""]) == "known: none"
    assert hint("zzz", []) == "known: none"


def test_a_long_list_is_cut_or_pointed_elsewhere() -> None:
    names = [f"n{i:02}" for i in range(12)]
    assert (
        hint("zzz", names) == "known: n00, n01, n02, n03, n04, n05, n06, n07, n08, n09 and 2 more"
    )
    assert hint("zzz", names, elsewhere="see `cardkit kinds`") == "see `cardkit kinds`"
    assert hint("n0", names, elsewhere="see `cardkit kinds`").startswith("did you mean 'n00'")


def test_close_offers_only_a_close_name() -> None:
    assert close("ks-promoss", ["ks-promos", "core"]) == "did you mean 'ks-promos'?"
    assert close("klaw", ["rhino", "klaw-2", "klaw-1"]) == "did you mean 'klaw-1' or 'klaw-2'?"
    assert close("zzz", ["sewer", "thug"]) == ""  # hint would list them: known: sewer, thug
    assert close("zzz", []) == ""  # hint would say: known: none
    assert close("zzz", [f"n{i:02}" for i in range(12)]) == ""
