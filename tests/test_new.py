"""cardkit new KIND ID: a scaffold that validates and whose placeholders are open gaps."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardkit.files import yamlio
from cardkit.schemas import registry as schemas
from cardkit.schemas import scaffold
from tests.conftest import run_cli

SYSTEM = Path(__file__).parent / "data" / "fourth_system"


def _gaps(folder: Path, env: dict[str, str] | None = None) -> dict[str, set[str]]:
    result = run_cli(["gaps", str(folder), "--format", "json"], env=env)
    assert result.returncode == 0, result.stderr
    found: dict[str, set[str]] = {}
    for row in json.loads(result.stdout)["gaps"]:
        if row["origin"] == "unconfirmed" and row["status"] == "open":
            found.setdefault(Path(row["path"]).name, set()).add(row["field"])
    return found


def test_every_kind_scaffolds_a_file_that_validates_with_its_placeholders_open(
    tmp_path: Path,
) -> None:
    expected: dict[str, set[str]] = {}
    for kind in schemas.kinds():
        target = tmp_path / f"{kind.replace('/', '-')}.yaml"
        ident = kind.replace("/", "-")
        scaffold.write(target, scaffold.text(kind, ident, target))
        data = yamlio.load_text(target.read_text())
        assert data["kind"] == kind and data["id"] == ident
        assert set(data["unconfirmed"]) == set(data) - {"kind", "id", "unconfirmed"}, kind
        expected[target.name] = set(data["unconfirmed"])
        assert target.read_text().startswith("# yaml-language-server: $schema=")
        modeline = target.read_text().splitlines()[0].split("=", 1)[1]
        assert (target.parent / modeline).resolve() == schemas.schema_path(kind).resolve()
    checked = run_cli(["validate", str(tmp_path)])
    assert checked.returncode == 0, checked.stdout
    assert " 0 error(s)" in checked.stdout.splitlines()[-1]
    assert _gaps(tmp_path) == expected


def test_a_scaffold_has_every_required_field_of_its_kind(tmp_path: Path) -> None:
    """Where a kind requires a nested object, the scaffold fills in its required parts."""
    data = scaffold.skeleton("marvel-united/masterplan-card", "x")
    assert isinstance(data["card"], dict) and "n" in data["card"]
    board = scaffold.skeleton("villainous/villain", "x")["board"]
    assert board["locations"] and all("name" in spot for spot in board["locations"])
    code = scaffold.skeleton("marvel-champions/card", "x")["code"]
    assert code and schemas.fast_validator("marvel-champions/card").is_valid(
        {"kind": "marvel-champions/card", "id": "x", "code": code, "name": "n", "type_code": "hero"}
    )


def test_short_names_typos_and_ambiguity(tmp_path: Path) -> None:
    made = run_cli(["new", "hero", "ms-marvel", "--name", "Ms. Marvel"], cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert made.stdout == (
        "wrote ms-marvel.yaml: marvel-united/hero, 0 placeholder(s) marked unconfirmed\n"
    )
    text = (tmp_path / "ms-marvel.yaml").read_text()
    assert "kind: marvel-united/hero\nid: ms-marvel\nname: Ms. Marvel\n" in text
    typo = run_cli(["new", "heor", "x"], cwd=tmp_path)
    assert (typo.returncode, typo.stderr) == (
        2,
        "cardkit: unknown kind 'heor'; did you mean 'hero'?\n",
    )
    both = run_cli(["new", "card", "x"], cwd=tmp_path)
    assert both.returncode == 2
    assert "ambiguous: marvel-champions/card, villainous/card" in both.stderr
    bad_id = run_cli(["new", "hero", "Ms Marvel"], cwd=tmp_path)
    assert bad_id.returncode == 2 and "not a slug" in bad_id.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ms-marvel.yaml"]


def test_an_existing_file_is_kept_unless_forced(tmp_path: Path) -> None:
    mine = tmp_path / "cards" / "marvel-united" / "promos" / "ms-marvel.yaml"
    mine.parent.mkdir(parents=True)
    mine.write_text("# my own work\n")
    refused = run_cli(["new", "hero", "ms-marvel", "--box", "promos"], cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr == (
        f"cardkit: {mine.relative_to(tmp_path)}: already exists; pass --force to replace it\n"
    )
    assert mine.read_text() == "# my own work\n"
    forced = run_cli(["new", "hero", "ms-marvel", "--box", "promos", "--force"], cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    data = yamlio.load_text(mine.read_text())
    assert (data["box"], data["unconfirmed"]) == ("promos", ["name"])
    assert [p.name for p in mine.parent.iterdir()] == ["ms-marvel.yaml"]  # no temporary left


def test_a_plugin_systems_kind(tmp_path: Path) -> None:
    shutil.copytree(SYSTEM, tmp_path / "lib" / "tiny_heist")
    env = {"PYTHONPATH": str(tmp_path / "lib"), "CARDKIT_SYSTEMS": "tiny_heist"}
    cards = tmp_path / "cards"
    cards.mkdir()
    made = run_cli(["new", "tiny-heist/card", "lockpick", "--out", str(cards)], env=env)
    assert made.returncode == 0, made.stderr
    data = yamlio.load_text((cards / "lockpick.yaml").read_text())
    assert data == {
        "kind": "tiny-heist/card",
        "id": "lockpick",
        "name": "TODO",
        "cost": 0,
        "unconfirmed": ["name", "cost"],
    }
    checked = run_cli(["validate", str(cards)], env=env)
    assert checked.returncode == 0, checked.stdout
    assert _gaps(cards, env) == {"lockpick.yaml": {"name", "cost"}}


@pytest.mark.parametrize("kind", ["marvel-united/villain", "villainous/card"])
def test_the_skeleton_is_valid_against_the_schema_alone(kind: str) -> None:
    assert schemas.fast_validator(kind).is_valid(scaffold.skeleton(kind, "x"))


def test_a_one_card_documents_own_marks_reach_its_proxy(tmp_path: Path) -> None:
    """`unconfirmed: [card]` (new) or `[card/bam]` (ocr) at the top of a one-card file
    marks the proxy, so `proof --only unconfirmed` prints it."""
    run_cli(["new", "masterplan-card", "mp-new"], cwd=tmp_path)
    draft = tmp_path / "mp-ocr.yaml"
    draft.write_text(
        "kind: marvel-united/masterplan-card\nid: mp-ocr\n"
        "card: {n: 5, move: 0, bam: false, place: none}\nunconfirmed: [card/bam]\n"
    )
    (tmp_path / "mp-sure.yaml").write_text(
        "kind: marvel-united/masterplan-card\nid: mp-sure\ncard: {n: 6, move: 1, place: none}\n"
    )
    out = tmp_path / "check.pdf"
    result = run_cli(["proof", ".", "--only", "unconfirmed", "--out", str(out)], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"wrote {out}: 2 cards")
    from pypdf import PdfReader

    text = PdfReader(out).pages[0].extract_text()
    assert "UNCONFIRMED: card" in text and "UNCONFIRMED: bam" in text
