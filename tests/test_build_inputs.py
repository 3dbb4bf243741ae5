"""cardkit build: what it prints of the proofs, and which inputs its cache key covers."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import run_cli

SYSTEM = Path(__file__).parent / "data" / "fourth_system"

CARD = """\
kind: villainous/card
id: {ident}
deck: villain
title: Worthy Opponent
ability: {ability}
"""
LONG = " ".join(["Move Hook to any location and gain 1 Power."] * 120)


def test_build_prints_the_proof_warnings_as_proof_does(tmp_path: Path) -> None:
    cards = tmp_path / "cards" / "villainous" / "promo"
    cards.mkdir(parents=True)
    (cards / "long.yaml").write_text(CARD.format(ident="long", ability=LONG))
    (cards / "one.yaml").write_text(CARD.format(ident="one", ability="Gain 1 Power."))
    proof = run_cli(["proof", "cards", "--out", str(tmp_path / "p.pdf")], cwd=tmp_path)
    expected = [line for line in proof.stderr.splitlines() if line.startswith("warning: ")]
    assert len(expected) == 1
    assert expected[0].startswith(
        "warning: cards/villainous/promo/long.yaml: the text does not fit"
    )
    built = run_cli(["build"], cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert [line for line in built.stderr.splitlines() if line.startswith("warning: ")] == expected
    # a build that reuses the proofs still says what is wrong with them
    (cards / "one.yaml").write_text(CARD.format(ident="one", ability="Gain 2 Power."))
    again = run_cli(["build"], cwd=tmp_path)
    assert [line for line in again.stderr.splitlines() if line.startswith("warning: ")] == expected


def test_a_plugin_systems_schemas_and_code_are_in_the_cache_key(tmp_path: Path) -> None:
    lib = tmp_path / "lib" / "tiny_heist"
    shutil.copytree(SYSTEM, lib)
    env = {"PYTHONPATH": str(tmp_path / "lib"), "CARDKIT_SYSTEMS": "tiny_heist"}
    repo = tmp_path / "repo"
    (repo / "cards").mkdir(parents=True)
    (repo / "cards" / "lockpick.yaml").write_text(
        "kind: tiny-heist/card\nid: lockpick\nname: Lockpick\ncost: 2\n"
    )
    assert run_cli(["build"], cwd=repo, env=env).returncode == 0
    assert run_cli(["build"], cwd=repo, env=env).stdout.startswith("up to date")
    schema = lib / "schemas" / "tiny-heist" / "card.schema.json"
    schema.write_text(schema.read_text().replace('"Coins to play it."', '"Coins to pay."'))
    changed = run_cli(["build"], cwd=repo, env=env)
    assert changed.returncode == 0, changed.stderr
    assert not changed.stdout.startswith("up to date")
    assert run_cli(["build"], cwd=repo, env=env).stdout.startswith("up to date")
    rules = lib / "rules.py"
    rules.write_text(rules.read_text() + "\n# a change to the plugin's code\n")
    assert not run_cli(["build"], cwd=repo, env=env).stdout.startswith("up to date")


def test_a_cards_thumbnail_is_redrawn_only_when_the_card_changed(tmp_path: Path) -> None:
    cards = tmp_path / "cards" / "villainous" / "promo"
    cards.mkdir(parents=True)
    for ident, ability in (("one", "Gain 1 Power."), ("two", "Gain 2 Power."), ("three", "")):
        (cards / f"{ident}.yaml").write_text(CARD.format(ident=ident, ability=ability or "Move."))
    with (cards / "three.yaml").open("a") as three:  # a set of marks: same name in every run
        three.write("unconfirmed: [title, ability, deck, cost]\ncost: 1\n")
    first = run_cli(["build"], cwd=tmp_path, env={"PYTHONHASHSEED": "1"})
    assert first.returncode == 0, first.stderr
    assert "thumbs: 3 card thumbnails (3 drawn, 0 unchanged)" in first.stdout
    thumbs = tmp_path / "build" / "thumbs"
    before = {p.name: p.read_bytes() for p in thumbs.iterdir()}
    (cards / "two.yaml").write_text(CARD.format(ident="two", ability="Gain 3 Power."))
    second = run_cli(["build"], cwd=tmp_path, env={"PYTHONHASHSEED": "2"})
    assert "thumbs: 3 card thumbnails (1 drawn, 2 unchanged)" in second.stdout
    after = {p.name: p.read_bytes() for p in thumbs.iterdir()}
    assert len(set(before) & set(after)) == 2  # the unchanged cards keep their files
    assert all(before[name] == after[name] for name in set(before) & set(after))
    page = (tmp_path / "build" / "index.html").read_text()
    assert all(f'src="thumbs/{name}"' in page for name in after)
