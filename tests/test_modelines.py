"""Modelines that travel: `new` and `import` point a card file's schema at the repository's
exported schemas/, relative to the file, never into the installed package."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import cardkit
from tests.conftest import ROOT, run_cli

PACKAGE = Path(cardkit.__file__).resolve().parent


def _schema_of(card: Path) -> Path:
    first = card.read_text(encoding="utf-8").splitlines()[0]
    found = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
    assert found, first
    assert not Path(found[1]).is_absolute() and "site-packages" not in found[1]
    return (card.parent / found[1]).resolve()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()  # a repository's root, as git marks it
    (tmp_path / "cards/my-box").mkdir(parents=True)
    return tmp_path


def test_new_points_at_the_exported_schemas_relative_to_the_file(repo: Path) -> None:
    exported = run_cli(["schema", "--export", "schemas"], cwd=repo)
    assert exported.returncode == 0, exported.stderr
    card = repo / "cards/my-box/mp1.yaml"
    made = run_cli(["new", "masterplan-card", "mp1", "--out", str(card)], cwd=repo)
    assert made.returncode == 0, made.stderr
    assert card.read_text().startswith(
        "# yaml-language-server: $schema=../../schemas/marvel-united/masterplan-card.schema.json\n"
    )
    schema = _schema_of(card)
    assert schema.is_file() and PACKAGE not in schema.parents
    assert "note:" not in made.stderr
    # the repository moves (a collaborator's clone): the modeline still resolves
    moved = repo.parent / "clone"
    shutil.copytree(repo, moved)
    assert _schema_of(moved / "cards/my-box/mp1.yaml").is_file()


def test_before_any_export_it_points_at_the_repository_and_says_so(repo: Path) -> None:
    card = repo / "cards/my-box/mp1.yaml"
    made = run_cli(["new", "masterplan-card", "mp1", "--out", str(card)], cwd=repo)
    assert made.returncode == 0, made.stderr
    assert _schema_of(card) == (repo / "schemas/marvel-united/masterplan-card.schema.json")
    assert "`cardkit schema --export schemas` writes them" in made.stderr  # from the repo root


def test_imported_cards_point_at_the_repository_schemas(repo: Path) -> None:
    assert run_cli(["schema", "--export", "schemas"], cwd=repo).returncode == 0
    pack = ROOT / "tests/data/marvelsdb/whole/pack/storm_encounter.json"
    done = run_cli(["import", "marvelsdb", str(pack), "--out", "cards/storm"], cwd=repo)
    assert done.returncode == 0, done.stderr
    for card in (repo / "cards/storm").rglob("*.yaml"):
        assert _schema_of(card) == (repo / "schemas/marvel-champions/card.schema.json").resolve()


def test_an_export_elsewhere_says_where_modelines_point(repo: Path) -> None:
    assert run_cli(["schema", "--export", "schemas"], cwd=repo).returncode == 0
    other = run_cli(["schema", "--export", "elsewhere"], cwd=repo)
    assert other.returncode == 0
    assert f"modelines into {(repo / 'schemas').resolve()}" in other.stdout
