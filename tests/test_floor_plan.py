"""The floor plan holds: the core reaches games only through the registry, every room
says what it is for, a new built-in game touches only its own folder, and a game's
mistake is named when it loads."""

from __future__ import annotations

import ast
import importlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardkit import plugin, systems
from cardkit.errors import UsageError
from tests.conftest import ROOT

PACKAGE = ROOT / "cardkit"
FOURTH = ROOT / "tests" / "data" / "fourth_system"


def _game_folders() -> list[str]:
    return sorted(p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").is_file())


def _core_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "games" not in p.relative_to(PACKAGE).parts)


def _docstring_ids(tree: ast.AST) -> set[int]:
    kinds = ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, kinds) and node.body and isinstance(node.body[0], ast.Expr)
    }


def _help_ids(tree: ast.AST) -> set[int]:
    """Strings inside `help=` (a command's example for people), not code that acts on them."""
    return {
        id(sub)
        for node in ast.walk(tree)
        if isinstance(node, ast.keyword) and node.arg == "help"
        for sub in ast.walk(node.value)
    }


def _imported(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def test_no_module_outside_the_games_imports_a_game() -> None:
    games = [f"cardkit.games.{name}" for name in _game_folders()]
    old = [f"cardkit.systems.{name}" for name in _game_folders()]
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in _core_modules()
        for line, name in _imported(ast.parse(path.read_text(encoding="utf-8")))
        if any(name == g or name.startswith(g + ".") for g in games + old)
    ]
    assert found == []


def test_no_module_outside_the_games_names_a_game_in_code() -> None:
    """Strings the code acts on name no system, kind prefix or game package; docstrings
    and `help=` texts may use one as an example for people."""
    names = systems.system_names() + _game_folders()
    found = []
    for path in _core_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstring_ids(tree) | _help_ids(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in skip
            ):
                found += [
                    f"{path.relative_to(ROOT)}:{node.lineno} {name}"
                    for name in names
                    if name in node.value
                ]
    assert found == []


def test_the_guard_sees_an_import_of_a_game() -> None:
    """The import check is not vacuous: it finds the games' own imports of each other."""
    tree = ast.parse("from cardkit.games.marvel_united import placement\nimport os\n")
    assert (1, "cardkit.games.marvel_united.placement") in _imported(tree)


def test_every_room_says_what_it_is_for() -> None:
    for init in sorted(PACKAGE.rglob("__init__.py")):
        tree = ast.parse(init.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{init.relative_to(ROOT)} has no docstring"


def test_no_two_core_modules_share_a_name_for_different_things() -> None:
    """A CLI module is named after its command; a game's hook modules share the plug-in
    names (rules, proof, ocr, rulebook) by contract. Anything else is named once."""
    seen: dict[str, Path] = {}
    clashes = []
    for path in _core_modules():
        rel = path.relative_to(PACKAGE)
        if path.name == "__init__.py" or rel.parts[0] == "cli" or "core" in rel.parts:
            continue
        if path.name in seen:
            clashes.append(f"{seen[path.name].relative_to(PACKAGE)} and {rel}")
        seen[path.name] = path
    assert clashes == []


def test_old_module_paths_are_the_same_modules() -> None:
    import cardkit.files.yamlio
    import cardkit.games.marvel_united.placement

    assert importlib.import_module("cardkit.yamlio") is cardkit.files.yamlio
    old = importlib.import_module("cardkit.systems.marvel_united.placement")
    assert old is cardkit.games.marvel_united.placement
    assert old.__spec__ is not None and old.__spec__.name == "cardkit.games.marvel_united.placement"
    for old_name, new_name in sorted(importlib.import_module("cardkit").MOVED.items()):
        assert importlib.import_module(old_name) is importlib.import_module(new_name), old_name


def test_a_new_built_in_game_touches_only_its_own_folder(tmp_path: Path) -> None:
    """The fourth system, dropped into a copy of cardkit as games/tiny_heist (its schemas
    inside it), is a built-in game: listed, validated and proofed, no other file edited."""
    copy = tmp_path / "lib" / "cardkit"
    shutil.copytree(PACKAGE, copy, symlinks=False, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(FOURTH, copy / "games" / "tiny_heist")
    before = {p.relative_to(copy): p.read_bytes() for p in copy.rglob("*") if p.is_file()}
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "lockpick.yaml").write_text(
        "kind: tiny-heist/card\nid: lockpick\nname: Lockpick\ncost: 2\nloot: 3\n"
        "text: Open one locked door.\n"
    )
    env = {"PYTHONPATH": str(tmp_path / "lib"), "PATH": "/usr/bin:/bin"}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "cardkit", *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    where = run("kinds")
    assert where.returncode == 0, where.stderr
    assert "tiny-heist/card" in where.stdout
    checked = run("validate", str(cards))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    proofed = run("proof", str(cards), "--out", str(tmp_path / "p.pdf"))
    assert proofed.returncode == 0, proofed.stderr
    assert (tmp_path / "p.pdf").read_bytes().startswith(b"%PDF")
    after = {p.relative_to(copy): p.read_bytes() for p in copy.rglob("*") if p.is_file()}
    changed = {
        path for path in after if before.get(path) != after[path] and "__pycache__" not in str(path)
    }
    assert changed == set()


def _game_module(tmp_path: Path, init: str, reader: str | None = None) -> object:
    package = tmp_path / "broken_game"
    package.mkdir()
    (package / "__init__.py").write_text(init)
    if reader is not None:
        (package / "book.py").write_text(reader)
    sys.path.insert(0, str(tmp_path))
    try:
        return importlib.import_module("broken_game")
    finally:
        sys.path.remove(str(tmp_path))


def test_a_reader_without_parse_is_named_when_the_game_loads(tmp_path: Path) -> None:
    module = _game_module(
        tmp_path,
        'NAME = "broken"\nREADER = "broken_game.book"\n',
        "def detects(text):\n    return False\n\n\ndef warnings(documents):\n    return []\n\n\n"
        "render = None\nunrepresented = None\n",
    )
    sys.path.insert(0, str(tmp_path))
    try:
        with pytest.raises(UsageError) as refused:
            plugin.check_game(module)  # type: ignore[arg-type]
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n.startswith("broken_game")]:
            del sys.modules[name]
    assert "broken" in str(refused.value)
    assert "parse" in str(refused.value)
    assert "render or unrepresented" in str(refused.value)


def test_a_correction_that_cannot_load_is_named_when_the_game_loads(tmp_path: Path) -> None:
    module = _game_module(tmp_path, 'NAME = "broken"\nCORRECTIONS = {"place": "nowhere:merge"}\n')
    try:
        with pytest.raises(UsageError, match=r"CORRECTIONS\[.place.\].*nowhere"):
            plugin.check_game(module)  # type: ignore[arg-type]
    finally:
        del sys.modules["broken_game"]


def test_every_built_in_game_keeps_the_contract() -> None:
    for system in systems.all_systems():
        plugin.check_game(system.module)
        if system.reader is not None:
            assert isinstance(system.reader, plugin.RulebookReader), system.name


# The grouping is the games' (GROUP, cardkit.plugin.Grouping): the core spells the old
# villain grouping in one module only. Modules outside the grouping still name a Marvel
# United villain for their own concerns (OCR placement slots); each is listed, so the
# list only shrinks.
GROUP_ALIAS = "cardkit/systems/legacy.py"
VILLAIN_ELSEWHERE = {
    "cardkit/ocr/grammar_refine.py",  # placement slots read from a master plan card
    "cardkit/ocr/slots.py",  # the Villain's slot, from which the others are named
}


def _villain_in_code(source: str) -> list[str]:
    """Where a module's code (names, attributes, arguments, imports, strings; not
    docstrings, `help=` texts or comments) says "villain"."""
    tree = ast.parse(source)
    skip = _docstring_ids(tree) | _help_ids(tree)
    found = []
    for node in ast.walk(tree):
        words: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            words = [node.value]
        elif isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words = [node.name]
        elif isinstance(node, ast.arg) or (isinstance(node, ast.keyword) and node.arg):
            words = [str(node.arg)]
        elif isinstance(node, ast.alias):
            words = [node.name, node.asname or ""]
        found += [f"{node.lineno}: {w}" for w in words if "villain" in w.casefold()]
    return found


def test_no_core_module_names_the_villain_grouping_but_its_one_alias() -> None:
    named = {
        str(path.relative_to(ROOT)): hits
        for path in _core_modules()
        if (hits := _villain_in_code(path.read_text(encoding="utf-8")))
    }
    assert set(named) - VILLAIN_ELSEWHERE - {GROUP_ALIAS} == set(), named
    assert set(named) >= VILLAIN_ELSEWHERE, "a module no longer names it: take it off the list"
    assert GROUP_ALIAS in named


def test_the_villain_guard_sees_code_not_prose() -> None:
    source = (
        '"""A villain."""\nfrom x import villain_kind\n\n\ndef f(villain=1):\n'
        '    """The villain."""\n    option(help="its villain")  # a villain\n'
        "    return row.villain\n"
    )
    hits = _villain_in_code(source)
    assert sorted(h.split(": ")[1] for h in hits) == ["villain", "villain", "villain_kind"]
