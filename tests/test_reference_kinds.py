"""CK201's reference kinds come from each game's declarations, not from one game's shape:
a `villain_ref` names what its own game groups by (or, by the `X_ref` convention, a kind
X the game has), so a Marvel Champions card may name its villain-setup."""

from __future__ import annotations

from pathlib import Path

from cardkit.check.validate import check


def _codes(tmp_path: Path, files: dict[str, str]) -> list[str]:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    report, _ = check([tmp_path], keep=False)
    return sorted(f"{Path(d.path).name}:{d.code} {d.message}" for d in report.diagnostics)


SETUP = "kind: marvel-champions/villain-setup\nid: bullseye\nname: Bullseye\n"


def test_a_champions_card_may_name_its_villain_setup(tmp_path: Path) -> None:
    card = (
        "kind: marvel-champions/card\nid: bullseye-i\ncode: '01001'\nname: Bullseye\n"
        "type_code: villain\nvillain_ref: bullseye\n"
    )
    assert _codes(tmp_path, {"setup.yaml": SETUP, "card.yaml": card}) == []


def test_a_united_villain_ref_still_names_a_villain(tmp_path: Path) -> None:
    hero = "kind: marvel-united/hero\nid: wasp\nname: Wasp\n"
    sheet = (
        "kind: marvel-united/achievements\nid: a\nname: A\nvillain_ref: wasp\n"
        "entries: [{n: 1, text: KO any Hero.}]\n"
    )
    assert _codes(tmp_path, {"hero.yaml": hero, "a.yaml": sheet}) == [
        "a.yaml:CK201 villain_ref 'wasp' names a hero, not a villain"
    ]


def test_a_champions_reference_still_must_resolve(tmp_path: Path) -> None:
    card = (
        "kind: marvel-champions/card\nid: x\ncode: '01002'\nname: X\n"
        "type_code: minion\nvillain_ref: nobody\n"
    )
    assert _codes(tmp_path, {"card.yaml": card}) == [
        "card.yaml:CK201 villain_ref 'nobody' names no document in the tree"
    ]
