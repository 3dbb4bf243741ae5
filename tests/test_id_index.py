"""The kind-and-id index that one-file commands use in a big tree (issue 21): the same
answers as reading every file, a changed file read again, and no cache when it is off."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardkit.check import id_index
from cardkit.check.validate import outside_ids
from cardkit.confirm.edit import find_document
from cardkit.errors import UsageError


def _tree(root: Path) -> None:
    for n in range(5):
        path = root / "box" / f"hero-{n}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"kind: marvel-united/hero\nid: hero-{n}\nname: H\n", encoding="utf-8")
    (root / "box" / "notes.txt").write_text("id: not-a-card\n")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "x.yaml").write_text("kind: marvel-united/hero\nid: hidden\n")
    (root / "box" / "no-id.yaml").write_text("kind: marvel-united/hero\n")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("CARDKIT_CACHE", str(folder))
    return folder


def test_the_index_lists_what_reading_every_file_finds(tmp_path, cache):
    _tree(tmp_path / "cards")
    found = id_index.ids_under(tmp_path / "cards")
    assert [(p.name, k, i) for p, k, i in found] == [
        (f"hero-{n}.yaml", "marvel-united/hero", f"hero-{n}") for n in range(5)
    ]
    assert len(list(cache.iterdir())) == 1  # written for the next command
    assert id_index.ids_under(tmp_path / "cards") == found  # from the cache, the same


def test_a_changed_file_is_read_again_and_an_unchanged_one_is_not(tmp_path, cache, monkeypatch):
    _tree(tmp_path / "cards")
    id_index.ids_under(tmp_path / "cards")
    changed = tmp_path / "cards" / "box" / "hero-2.yaml"
    changed.write_text("kind: marvel-united/hero\nid: renamed\nname: H\n", encoding="utf-8")
    info = changed.stat()
    os.utime(changed, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000))
    read: list[str] = []
    real = id_index.read_fields
    monkeypatch.setattr(id_index, "read_fields", lambda p: read.append(p.name) or real(p))
    ids = [i for _, _, i in id_index.ids_under(tmp_path / "cards")]
    assert "renamed" in ids and "hero-2" not in ids
    assert read == ["hero-2.yaml"]  # only the changed file was read


def test_with_the_cache_off_nothing_is_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDKIT_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    _tree(tmp_path / "cards")
    assert len(id_index.ids_under(tmp_path / "cards")) == 5
    assert not (tmp_path / "xdg").exists()


def test_outside_ids_leaves_out_the_files_being_validated(tmp_path, cache):
    _tree(tmp_path / "cards")
    one = tmp_path / "cards" / "box" / "hero-1.yaml"
    known = outside_ids(tmp_path / "cards", [one])
    assert ("marvel-united", "hero-1") not in known
    assert known[("marvel-united", "hero-3")] == "marvel-united/hero"


def test_confirm_still_finds_an_id_and_tells_an_ambiguous_one(tmp_path, cache):
    _tree(tmp_path / "cards")
    assert find_document("hero-4", tmp_path / "cards").name == "hero-4.yaml"
    twin = tmp_path / "cards" / "other" / "twin.yaml"
    twin.parent.mkdir()
    twin.write_text("kind: marvel-united/hero\nid: hero-4\nname: H\n", encoding="utf-8")
    with pytest.raises(UsageError, match="'hero-4' is ambiguous"):
        find_document("hero-4", tmp_path / "cards")
