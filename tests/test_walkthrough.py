"""docs/walkthrough-promo-box.md runs as written, so it cannot drift from the commands.

Every `$ ` line of its console blocks runs in order, in bash, in a scratch repository
holding a copy of the scans it names; each command's output (stdout and stderr) must
match the lines shown under it. A shown line `…` stands for any number of lines, and `…`
inside a line for any text. A command ending `# exits N` must exit N; others exit 0.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

DOC = ROOT / "docs" / "walkthrough-promo-box.md"


def steps(text: str) -> list[tuple[str, list[str]]]:
    """(command, the output lines shown under it), in the order of the document."""
    found: list[tuple[str, list[str]]] = []
    for block in re.findall(r"^```console\n(.*?)^```", text, re.M | re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                found.append((line[2:], []))
            elif found:
                found[-1][1].append(line)
    return found


def matches(shown: list[str], actual: list[str]) -> bool:
    """Whether the output fits what the document shows (`…` lines and spans are wildcards)."""
    if not shown:
        return not actual
    head, rest = shown[0], shown[1:]
    if head == "…":
        return any(matches(rest, actual[i:]) for i in range(len(actual) + 1))
    if not actual:
        return False
    pattern = ".*".join(re.escape(part) for part in head.split("…"))
    return re.fullmatch(pattern, actual[0]) is not None and matches(rest, actual[1:])


def test_the_matcher_is_strict_where_the_document_is_exact() -> None:
    assert matches(["a", "…", "z"], ["a", "b", "c", "z"])
    assert matches(["x …%"], ["x 71%"]) and not matches(["x …%"], ["x 71"])
    assert not matches(["a"], ["a", "b"]) and not matches(["a", "b"], ["a"])


def test_the_walkthrough_runs_as_written(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    for part in ("scans/samples/marvel-united", "scans/marvel-united/ks-promos"):
        shutil.copytree(ROOT / part, repo / part)
    (repo / "cards").mkdir()
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    commands = steps(DOC.read_text())
    assert [c for c, _ in commands if c.startswith("cardkit ")], "no cardkit command in the doc"
    used = {c.split()[1] for c, _ in commands if c.startswith("cardkit ")}
    assert {"ocr", "import", "new", "validate", "gaps", "confirm", "proof", "build"} <= used
    for command, shown in commands:
        result = subprocess.run(
            ["bash", "-c", command + " 2>&1"],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        wanted = re.search(r"# exits (\d+)$", command)
        assert result.returncode == (int(wanted.group(1)) if wanted else 0), (
            f"$ {command}\n{result.stdout}"
        )
        assert matches(shown, result.stdout.splitlines()), f"$ {command}\n{result.stdout}"
    assert (repo / "build" / "index.html").is_file()
