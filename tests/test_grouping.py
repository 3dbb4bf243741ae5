"""A game declares how its documents group (`GROUP`, cardkit.plugin.Grouping); the gap
rows, their filters, the listings, the build page and its thumbnails use that, under the
neutral name `group` and with the game's own word shown. The old names (`VILLAIN_KIND`,
the JSON `villain` key, `--group-by villain`) keep meaning what they meant.

The made-up game is tests/data/fourth_system (Tiny Heist: a crew is its group, a card
names its crew in `crew_ref`); every expectation below is read from its declaration and
the cards written here, not from cardkit's output.
"""

from __future__ import annotations

import json
import shutil
import types
from collections import Counter
from pathlib import Path

import pytest

from cardkit import plugin, systems
from cardkit.errors import UsageError
from cardkit.gaps.filters import Filters, select
from cardkit.gaps.rows import Gap
from cardkit.model import Document
from cardkit.report import gaps_report
from cardkit.site import html
from cardkit.site.thumbs import Thumb
from tests.conftest import run_cli

SYSTEM = Path(__file__).parent / "data" / "fourth_system"

CREW = "kind: tiny-heist/crew\nid: night-owls\nname: Night Owls\nunconfirmed: [motto]\n"
CREW_MOTTO = "motto: Quiet feet.\n"
LOCKPICK = (
    "kind: tiny-heist/card\nid: lockpick\nname: Lockpick\ncost: 2\nloot: 3\n"
    "crew_ref: night-owls\nunconfirmed: [loot]\n"
)
LONER = "kind: tiny-heist/card\nid: loner\nname: Loner\ncost: 1\nloot: 1\nunconfirmed: [cost]\n"


def _game(attributes: dict[str, object]) -> systems.System:
    module = types.ModuleType("made_up_game")
    for key, value in attributes.items():
        setattr(module, key, value)
    return systems.System(str(attributes["NAME"]), module)


def _doc(kind: str, doc_id: str | None, data: dict[str, object]) -> Document:
    path = f"{doc_id}.yaml"
    return Document(Path(path), path, {"kind": kind, "id": doc_id, **data}, lambda *_, **__: (1, 1))


def test_a_document_of_the_group_kind_is_its_own_group_and_others_name_theirs() -> None:
    game = _game(
        {
            "NAME": "tiny-heist",
            "GROUP": {"name": "crew", "kind": "tiny-heist/crew", "ref": "crew_ref"},
        }
    )
    assert game.group_label == "crew"
    assert game.group_of("tiny-heist/crew", "night-owls", {"crew_ref": "other"}) == "night-owls"
    assert game.group_of("tiny-heist/card", "lockpick", {"crew_ref": "night-owls"}) == "night-owls"
    assert game.group_of("tiny-heist/card", "loner", {}) == ""
    assert game.group_of("tiny-heist/card", "odd", ["not", "a", "mapping"]) == ""


def test_a_game_without_grouping_puts_nothing_in_a_group() -> None:
    game = _game({"NAME": "plain"})
    assert game.grouping == {} and game.group_label == ""
    assert game.group_of("plain/card", "x", {"villain_ref": "klaw", "crew_ref": "y"}) == ""


def test_the_old_villain_kind_reads_as_a_villain_grouping_and_group_wins() -> None:
    old = _game({"NAME": "old", "VILLAIN_KIND": "old/boss"})
    assert old.grouping == {"name": "villain", "kind": "old/boss", "ref": "villain_ref"}
    assert old.group_of("old/boss", "big", {}) == "big"
    assert old.group_of("old/minion", "m", {"villain_ref": "big"}) == "big"
    both = _game(
        {"NAME": "both", "VILLAIN_KIND": "both/boss", "GROUP": {"name": "team", "ref": "team"}}
    )
    assert both.group_label == "team"
    assert both.group_of("both/boss", "big", {"team": "red"}) == "red"


def test_the_registry_answers_for_any_document_and_an_unknown_game_has_no_group() -> None:
    villain = _doc("marvel-united/villain", "klaw", {})
    hero = _doc("marvel-united/hero", "wasp", {"villain_ref": "klaw"})
    card = _doc("marvel-champions/card", "01001", {"set_code": "rhino"})
    assert systems.group_of(villain) == "klaw" and systems.group_of(hero) == "klaw"
    assert systems.group_of(card) == "rhino"
    assert systems.group_label("marvel-united/hero") == "villain"
    assert systems.group_label("villainous/card") == "villain"
    assert systems.group_label("marvel-champions/card") == "set"
    assert systems.group_of(_doc("no-such-game/card", "x", {"villain_ref": "y"})) == ""
    assert systems.group_label("no-such-game/card") == ""


@pytest.mark.parametrize(
    ("group", "message"),
    [
        (["crew"], "GROUP must be a mapping"),
        ({"name": "crew", "field": "crew_ref"}, "GROUP has no key field"),
        ({"kind": "tiny-heist/crew"}, "GROUP has no name"),
        ({"name": "crew", "ref": 3}, "GROUP: ref must be a string"),
    ],
)
def test_a_wrong_group_declaration_is_named_when_the_game_loads(
    group: object, message: str
) -> None:
    module = types.ModuleType("broken_group_game")
    module.NAME = "broken"  # type: ignore[attr-defined]
    module.GROUP = group  # type: ignore[attr-defined]
    with pytest.raises(UsageError) as refused:
        plugin.check_game(module)
    assert "game system 'broken'" in str(refused.value)
    assert message in str(refused.value)


def _row(document: str, group: str, label: str, field: str = "loot") -> Gap:
    return Gap(
        "unconfirmed",
        "open",
        f"cards/{document}.yaml",
        3,
        1,
        "tiny-heist",
        "box1",
        document,
        "tiny-heist/card",
        group,
        "",
        field,
        "marked unconfirmed",
        group_label=label,
    )


def test_json_keeps_the_villain_key_only_for_a_group_named_so() -> None:
    crew = _row("lockpick", "night-owls", "crew").as_dict()
    keys = list(crew)
    assert keys[keys.index("kind") + 1 : keys.index("kind") + 3] == ["villain", "game_group"]
    assert crew["villain"] == "" and crew["game_group"] == "night-owls"
    assert "group_label" not in crew
    old = _row("klaw", "klaw", "villain").as_dict()
    assert old["villain"] == "klaw" and old["game_group"] == "klaw"


def test_group_by_group_and_the_old_word() -> None:
    rows = [_row("lockpick", "night-owls", "crew"), _row("loner", "", "crew")]
    assert [gaps_report.GROUPS["group"](r) for r in rows] == ["night-owls", "loner"]
    # the old word groups only a game whose group is a villain; others by document
    assert [gaps_report.GROUPS["villain"](r) for r in rows] == ["lockpick", "loner"]
    villainous = _row("hook-card", "captain-hook", "villain")
    assert gaps_report.GROUPS["villain"](villainous) == "captain-hook"


def test_id_matches_the_document_or_its_group() -> None:
    rows = [
        _row("lockpick", "night-owls", "crew"),
        _row("night-owls", "night-owls", "crew"),
        _row("loner", "", "crew"),
    ]
    assert [r.document for r in select(rows, Filters(id=("Night-Owls",)))] == [
        "lockpick",
        "night-owls",
    ]
    wanted = Filters(id=("night-owl",))
    assert select(rows, wanted) == []
    assert wanted.unknown == ["--id 'night-owl' (did you mean 'night-owls'?)"]


def _thumb(group: str, label: str) -> Thumb:
    return Thumb("a.png", "Lockpick", "crew", "cards/a.yaml", 1, "box1", group, label, ())


def test_the_page_filter_shows_the_game_word_and_names_the_address_with_it() -> None:
    rows = [_row("lockpick", "night-owls", "crew"), _row("loner", "", "crew")]
    thumbs = [_thumb("night-owls", "crew"), _thumb("", "crew")]
    filters = html._filters(rows, thumbs)
    assert '<label>crew<select id="f-group" data-param="crew">' in filters
    assert '<option value="night-owls">night-owls (2)</option>' in filters
    table = html._gaps(rows, lambda path: path, html.group_label(rows, thumbs))
    assert "<th>crew</th>" in table
    assert 'data-group="night-owls"' in table and 'data-group=""' in table
    assert 'data-group="night-owls"' in html._cards(thumbs, "thumbs", lambda path: path)


def test_two_games_words_are_both_shown_and_the_address_says_group() -> None:
    rows = [_row("lockpick", "night-owls", "crew"), _row("klaw", "klaw", "villain")]
    assert html.group_label(rows, []) == "crew / villain"
    assert '<label>crew / villain<select id="f-group">' in html._filters(rows, [])
    # a game whose documents carry no group does not lend its word
    assert html.group_label([_row("loner", "", "set")], []) == "group"


@pytest.fixture
def heist(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    shutil.copytree(SYSTEM, tmp_path / "lib" / "tiny_heist")
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "night-owls.yaml").write_text(CREW)
    (cards / "lockpick.yaml").write_text(LOCKPICK)
    (cards / "loner.yaml").write_text(LONER)
    return cards, {"PYTHONPATH": str(tmp_path / "lib"), "CARDKIT_SYSTEMS": "tiny_heist"}


def test_a_made_up_game_groups_its_gaps_through_the_cli(heist: tuple[Path, dict[str, str]]) -> None:
    """One real process (a plug-in game needs its own): JSON, then the two groupings."""
    cards, env = heist
    listed = run_cli(["gaps", ".", "--format", "json"], cwd=cards, env=env)
    assert listed.returncode == 0, listed.stderr
    rows = {r["document"]: r for r in json.loads(listed.stdout)["gaps"]}
    assert {d: (r["game_group"], r["villain"]) for d, r in rows.items()} == {
        "night-owls": ("night-owls", ""),
        "lockpick": ("night-owls", ""),
        "loner": ("", ""),
    }
    grouped = run_cli(
        ["gaps", ".", "--format", "markdown", "--group-by", "group"], cwd=cards, env=env
    )
    assert grouped.returncode == 0, grouped.stderr
    headings = [line for line in grouped.stdout.splitlines() if line.startswith("## ")]
    assert headings == ["## loner", "## night-owls"]
    assert Counter(line.split(" | ")[1] for line in grouped.stdout.splitlines() if "`" in line) == {
        "night-owls": 1,
        "lockpick": 1,
        "loner": 1,
    }
    old = run_cli(["gaps", ".", "--format", "json", "--group-by", "villain"], cwd=cards, env=env)
    assert old.returncode == 0, old.stderr
    by_old_word = {r["document"]: r["group"] for r in json.loads(old.stdout)["gaps"]}
    assert by_old_word == {"night-owls": "night-owls", "lockpick": "lockpick", "loner": "loner"}


def test_the_repository_marvel_united_rows_keep_their_villain(tmp_path: Path) -> None:
    """Klaw's file (in cards/) is a villain: each of its rows' villain and group is klaw."""
    from tests.conftest import ROOT

    klaw = next((ROOT / "cards" / "marvel-united").rglob("klaw.yaml"))
    listed = run_cli(["gaps", str(klaw), "--format", "json", "--status", "all"])
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)["gaps"]
    assert rows and {(r["villain"], r["game_group"]) for r in rows} == {("klaw", "klaw")}
    md = run_cli(["gaps", str(klaw), "--format", "markdown", "--group-by", "villain"])
    assert [line for line in md.stdout.splitlines() if line.startswith("## ")] == ["## klaw"]
