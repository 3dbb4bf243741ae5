"""A printed label found among the lines of a whole-card read (grammar.py `_labels`,
`_spelt`, SHORT_LABEL), and the names a grammar's `structures` may give. The lines are
written here by hand; the expectations come from what grammar.py's docstrings and
comments promise: a short label misread by one letter counts only alone on its line
(`MOVF` is a MOVE label, `Mole Man 2` is none), a label spelt right counts inside a short
line, a long label (END OF TURN) is matched inexactly on any short line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cardkit.errors import UsageError
from cardkit.ocr import grammar, grammar_kinds, page


def _line(text: str, top: int, height: float = 26.0) -> page.Line:
    return page.Line(text, 0.95, (50, top, 20 * len(text), round(height)), height)


def _kind(name: str) -> grammar.Kind:
    return next(k for k in grammar.grammars()["marvel-united"] if k.name == name)


def test_a_short_label_misread_by_a_letter_counts_alone_on_its_line() -> None:
    masterplan = _kind("masterplan")
    assert grammar.evidence(masterplan, [_line("MOVF", 900)]) == ["MOVE"]
    assert grammar.evidence(masterplan, [_line("(4) MOVF", 900)]) == ["MOVE"]  # a digit beside


def test_a_short_label_misread_by_a_letter_inside_a_longer_line_is_another_word() -> None:
    masterplan = _kind("masterplan")
    # `Mole` is one letter from `Move`, but on a title's line it is the Villain's name
    # (labels alone: `Mole Man 2` is a numbered title, a master plan's sign)
    assert grammar.evidence(masterplan, [_line("Mole Man 2", 20, 40)], signs=False) == []
    assert grammar.evidence(masterplan, [_line("Mole Man", 20, 40)]) == []
    assert grammar.evidence(masterplan, [_line("Venom MOVF", 900)]) == []


def test_a_short_label_spelt_right_counts_inside_a_short_line() -> None:
    masterplan = _kind("masterplan")
    assert grammar.evidence(masterplan, [_line("Venom 2 MOVE", 900)]) == ["MOVE"]
    assert grammar.evidence(masterplan, [_line("MOVE: Mole Man", 900)]) == ["MOVE"]
    # ... but a sentence is no label, spelt right or not (LABEL_SLACK letters at most)
    sentence = _line("Move the Villain clockwise to the next Location.", 300)
    assert grammar.evidence(masterplan, [sentence], signs=False) == []
    assert grammar.evidence(masterplan, [sentence]) == ["a movement sentence"]  # a sign


def test_a_long_label_misread_by_a_letter_counts_inside_a_short_line() -> None:
    location = _kind("location")  # END OF TURN: longer than SHORT_LABEL letters
    assert grammar.evidence(location, [_line("END 0F TURN: Each Hero", 600)]) == ["END OF TURN"]


def _mole_man() -> list[page.Line]:
    return [
        _line("Mole Man 2", 20, 40),
        _line("Give 1 Crisis token to 1 Hero in Mole Man's", 300),
        _line("Location.", 340),
        _line("3", 840, 60),  # the large Move value, over its label
        _line("MOVF", 900),  # the label, misread by a letter, alone on its line
    ]


def test_the_move_value_stands_by_the_label_alone_not_by_a_title_one_letter_off() -> None:
    reading = grammar.read(_kind("masterplan"), _mole_man(), 1030)
    assert reading.labels["card/move"].text == "MOVF"
    assert reading.values["card/move"] == 3
    assert "MOVF" not in reading.kept  # the label alone on its line is used up
    assert reading.values["card/text"] == "Give 1 Crisis token to 1 Hero in Mole Man's Location."


def test_a_title_one_letter_off_the_move_label_is_the_title() -> None:
    reading = grammar.read(_kind("masterplan"), _mole_man(), 1030)
    assert reading.values.get("title") == "Mole Man 2"
    assert reading.kept == []


def test_a_label_spelt_right_is_taken_before_a_near_miss() -> None:
    masterplan = _kind("masterplan")
    lines = [
        _line("Venom 9", 20, 40),
        _line("MOVF", 400),  # a near miss higher up (an icon row read as letters)
        _line("2", 840, 60),
        _line("MOVE", 900),
    ]
    reading = grammar.read(masterplan, lines, 1030)
    assert reading.labels["card/move"].box[1] == 900
    assert reading.values["card/move"] == 2


def test_an_unknown_structure_name_is_refused() -> None:
    assert grammar_kinds._structures(["placement"]) == ("placement",)
    assert grammar_kinds._structures([]) == ()
    with pytest.raises(ValueError, match="unknown structure 'arrows'"):
        grammar_kinds._structures(["placement", "arrows"])


GAME = """\
NAME = "drawn-game"
"""
GRAMMAR = """\
kinds:
  plan:
    kind: drawn-game/plan
    aspect: 0.714
    evidence: [MOVE]
    structures: [arrows]
    fields:
      title: {how: title}
"""


def test_a_grammar_file_naming_an_unknown_structure_is_a_usage_error_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    from cardkit import systems

    package = tmp_path / "drawn_game"
    package.mkdir()
    (package / "__init__.py").write_text(GAME)
    (package / "grammar.yaml").write_text(GRAMMAR)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("drawn_game")
    monkeypatch.setattr(systems, "load", lambda: [module])
    grammar.grammars.cache_clear()
    try:
        with pytest.raises(UsageError) as refused:
            grammar.grammars()
    finally:
        grammar.grammars.cache_clear()  # the real games' grammars again for other tests
        sys.modules.pop("drawn_game", None)
    assert str(refused.value) == (
        "drawn_game/grammar.yaml: grammar kind plan: unknown structure 'arrows' (one of placement)"
    )
