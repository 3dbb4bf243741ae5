"""cardkit where users already work: git with pre-commit, shells, scripts."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from cardkit import __version__
from tests.conftest import ROOT, run_cli

CASES = ROOT / "tests" / "cases" / "valid"


def _doc_config() -> str:
    """The `repo: local` example config from docs/pre-commit.md, as a user would copy it."""
    text = (ROOT / "docs" / "pre-commit.md").read_text()
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    return next(b for b in blocks if "repo: local" in b)


def test_the_documented_local_hooks_are_the_published_ones() -> None:
    published = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    local = yaml.safe_load(_doc_config())["repos"][0]["hooks"]
    assert [h["id"] for h in local] == list(published)
    for hook in local:
        mine = {k: v for k, v in hook.items() if k != "language"}
        theirs = {
            k: v for k, v in published[hook["id"]].items() if k not in ("language", "description")
        }
        assert mine == theirs


def _git(repo: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=300
    )


def test_pre_commit_refuses_a_broken_card_in_a_scratch_repository(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "cards").mkdir(parents=True)
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "PRE_COMMIT_HOME": str(tmp_path / "pc-home"),
        "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
        "GIT_CONFIG_GLOBAL": str(tmp_path / "gitconfig"),
    }  # fmt: skip
    _git(repo, "init", "-q", env=env)
    config = _doc_config().replace(
        "      - id: cardkit-gaps", "      - id: cardkit-gaps\n        stages: [manual]"
    )
    (repo / ".pre-commit-config.yaml").write_text(config)
    shutil.copy(CASES / "all-systems" / "box.yaml", repo / "cards" / "box.yaml")
    pre_commit = [sys.executable, "-m", "pre_commit"]
    installed = subprocess.run(
        [*pre_commit, "install"], cwd=repo, env=env, capture_output=True, text=True
    )
    assert installed.returncode == 0, installed.stderr
    _git(repo, "add", ".", env=env)
    good = _git(repo, "commit", "-q", "-m", "a valid box", env=env)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "cardkit validate" in good.stdout + good.stderr

    (repo / "cards" / "bad.yaml").write_text("kind: marvel-united/villain\nid: Bad\n")
    _git(repo, "add", ".", env=env)
    bad = _git(repo, "commit", "-q", "-m", "a broken villain", env=env)
    assert bad.returncode != 0
    assert re.search(r"cards/bad\.yaml:\d+:\d+: CK100 ", bad.stderr)
    assert "box.yaml" not in bad.stderr  # only the staged file was checked
    assert _git(repo, "log", "--oneline", env=env).stdout.count("\n") == 1

    # The gaps hook, run by hand: a card with unconfirmed fields keeps it failing.
    (repo / "cards" / "bad.yaml").unlink()
    shutil.copy(CASES / "marvel-united-box" / "klaw.yaml", repo / "cards" / "klaw.yaml")
    _git(repo, "add", "-A", env=env)
    run = [*pre_commit, "run", "--hook-stage", "manual", "cardkit-gaps", "--all-files"]
    gaps = subprocess.run(run, cwd=repo, env=env, capture_output=True, text=True)
    assert gaps.returncode == 1 and "klaw" in gaps.stdout


def test_version() -> None:
    result = run_cli(["--version"])
    assert result.returncode == 0
    assert result.stdout == f"cardkit {__version__}\n"


def _script_env(**extra: str) -> dict[str, str]:
    return {**os.environ, **extra}


CARDKIT = Path(sys.executable).parent / "cardkit"


def test_shell_completion_script_and_answers() -> None:
    # Typer detects the calling shell; under make or CI that is sh, so name bash instead.
    no_detection = _script_env(_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1")
    script = subprocess.run(
        [CARDKIT, "--show-completion", "bash"], env=no_detection, capture_output=True, text=True
    )
    assert script.returncode == 0, script.stderr
    assert "complete -o default -F _cardkit_completion cardkit" in script.stdout
    # What bash asks the program while a user types `cardkit val<TAB>` and `--format <TAB>`.
    env = _script_env(_CARDKIT_COMPLETE="complete_bash", COMP_WORDS="cardkit val", COMP_CWORD="1")
    words = subprocess.run([CARDKIT], env=env, capture_output=True, text=True).stdout.split()
    assert words == ["validate"]
    env.update(COMP_WORDS="cardkit gaps --format ", COMP_CWORD="3")
    words = subprocess.run([CARDKIT], env=env, capture_output=True, text=True).stdout.split()
    assert words == ["table", "json", "markdown", "csv"]
