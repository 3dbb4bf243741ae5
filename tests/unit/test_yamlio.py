from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cardkit.files import yamlio
from cardkit.files.yamlio import YamlProblem, load_text


def problem(text: str) -> YamlProblem:
    with pytest.raises(YamlProblem) as info:
        load_text(text)
    return info.value


def test_yaml_1_2_core_scalars_match_ruamel() -> None:
    text = (
        "a: no\nb: yes\nc: on\nd: 2026-11-29\ne: 0o17\nf: 010\ng: 0x1F\n"
        "h: 1.5\ni: ~\nj: true\nk: .inf\n"
    )
    from ruamel.yaml import YAML

    ours = load_text(text)
    theirs = YAML(typ="safe", pure=True).load(text)
    assert ours["a"] == "no" and ours["b"] == "yes" and ours["c"] == "on"
    assert ours["d"] == "2026-11-29"
    assert ours["e"] == 15 and ours["f"] == 10 and ours["g"] == 31
    assert ours["j"] is True and ours["i"] is None
    for key in "abcefghijk":
        assert ours[key] == theirs[key], key


def test_numeric_keys_become_strings() -> None:
    assert load_text("heroes: {2: 5, 3: 6}") == {"heroes": {"2": 5, "3": 6}}


def test_duplicate_key_points_at_second_occurrence() -> None:
    err = problem("a: 1\nb:\n  c: 1\n  c: 2\n")
    assert (err.code, err.line, err.column) == ("CK002", 4, 3)
    assert "first defined on line 3" in err.message


def test_tabs_multi_documents_and_syntax() -> None:
    assert problem("a:\n\tb: 1\n").code == "CK001"
    assert "tab" in problem("a:\n\tb: 1\n").message
    assert problem("a: 1\n---\nb: 2\n").code == "CK004"
    err = problem("a: [1, 2\nb: 3\n")
    assert err.code == "CK001" and err.line == 2


def test_hostile_tags_never_construct_objects(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    err = problem(f'a: !!python/object/apply:os.system ["touch {marker}"]\n')
    assert err.code == "CK001" and "unsupported YAML tag" in err.message
    assert not marker.exists()


def test_billion_laughs_is_refused() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]
    assert problem("\n".join(lines)).code == "CK009"


def test_modest_aliases_are_fine() -> None:
    data = load_text("base: &b {civilian: 1}\nleft: *b\nright: *b\n")
    assert data["left"] == {"civilian": 1}


def test_recursive_alias_is_refused() -> None:
    assert problem("a: &a [*a]\n").code == "CK009"


def test_decode_accepts_bom_and_locates_bad_bytes() -> None:
    assert yamlio.decode(b"\xef\xbb\xbfa: 1") == "a: 1"
    with pytest.raises(YamlProblem) as info:
        yamlio.decode(b"a: 1\nb: caf\xe9\n")
    assert (info.value.code, info.value.line, info.value.column) == ("CK003", 2, 7)


def test_size_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlio, "MAX_FILE_BYTES", 100)
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * 200)
    with pytest.raises(YamlProblem) as info:
        yamlio.read_text(big)
    assert info.value.code == "CK008"


def test_locator_finds_values_and_keys() -> None:
    locate = yamlio.Locator("a:\n  b:\n    - x\n    - {c: 1}\n")
    assert locate(("a", "b", 1, "c")) == (4, 11)
    assert locate(("a", "b", 1, "c"), key=True) == (4, 8)
    assert locate(("a", "missing")) == (2, 3)  # deepest node that exists


def test_atomic_write_replaces_and_keeps_mode(tmp_path: Path) -> None:
    target = tmp_path / "card.yaml"
    target.write_text("old\n")
    target.chmod(0o640)
    yamlio.atomic_write(target, "new\n")
    assert target.read_text() == "new\n"
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["card.yaml"]


def test_atomic_write_failure_leaves_old_file(tmp_path: Path) -> None:
    target = tmp_path / "card.yaml"
    target.write_text("old\n")

    def broken_fsync(fd: int) -> None:
        raise OSError("disk on fire")

    with pytest.raises(yamlio.OutputError, match="disk on fire"):
        yamlio.atomic_write(target, "new\n", fsync=broken_fsync)
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["card.yaml"]


def test_sigkill_mid_write_leaves_old_or_new(tmp_path: Path) -> None:
    target = tmp_path / "card.yaml"
    old = "kind: x\n" * 1000
    target.write_text(old)
    script = (
        "import sys, time, os\n"
        "from cardkit import yamlio\n"
        "def slow(fd):\n"
        "    sys.stdout.write('fsync\\n'); sys.stdout.flush(); time.sleep(30)\n"
        f"target = __import__('pathlib').Path({str(target)!r})\n"
        "yamlio.atomic_write(target, 'kind: y\\n' * 200_000, fsync=slow)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline() == "fsync\n"  # the temporary file is written, not renamed
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert target.read_text() == old


def test_atomic_write_gives_new_files_the_usual_mode(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        yamlio.atomic_write(tmp_path / "new.yaml", "a: 1\n")
    finally:
        os.umask(old)
    assert (tmp_path / "new.yaml").stat().st_mode & 0o777 == 0o644
