"""The CLI reference and the README cannot drift from what the commands accept."""

from __future__ import annotations

import re

from cardkit.cli import _reference
from tests.conftest import ROOT, run_cli


def test_docs_cli_md_is_the_commands_own_help() -> None:
    written = (ROOT / "docs" / "cli.md").read_text()
    assert written == _reference.reference(), (
        "docs/cli.md is stale: run `python -m cardkit.cli._reference > docs/cli.md`"
    )


def test_the_reference_is_what_help_prints() -> None:
    for path in (("cardkit",), ("cardkit", "confirm"), ("cardkit", "export", "rulebook")):
        shown = run_cli([*path[1:], "--help"], env={"COLUMNS": str(_reference.WIDTH)})
        assert shown.returncode == 0
        # The program name differs (`python -m cardkit`); everything after the usage line agrees.
        assert (
            shown.stdout.rstrip().split("\n", 1)[1] == _reference.help_text(path).split("\n", 1)[1]
        )


def _readme_mentions() -> dict[tuple[str, ...], set[str]]:
    """Options named in the README's `cardkit ...` spans and `$ cardkit ...` lines, by command."""
    text = (ROOT / "README.md").read_text()
    spans = re.findall(r"`(cardkit [^`]+)`", text) + re.findall(r"^\$ (cardkit .+)$", text, re.M)
    known = {path: command for path, command in _reference.walk()}
    found: dict[tuple[str, ...], set[str]] = {}
    for span in spans:
        words = span.replace("\\\n", " ").split()
        path: tuple[str, ...] = ("cardkit",)
        for word in words[1:]:
            if (*path, word) in known:
                path = (*path, word)
            else:
                break
        opts = {w.strip("[]").split("=")[0] for w in words if re.match(r"\[?--?[a-z]", w)}
        found.setdefault(path, set()).update(opts)
    return found


def test_every_option_the_readme_names_exists() -> None:
    known = dict(_reference.walk())
    for path, named in _readme_mentions().items():
        unknown = named - _reference.options(known[path])
        assert not unknown, f"README: `{' '.join(path)}` has no {sorted(unknown)}"


def test_the_readme_tour_covers_every_command_and_option() -> None:
    mentioned = _readme_mentions()
    for path, command in _reference.walk():
        if hasattr(command, "list_commands"):
            continue  # a group: its commands are checked
        assert path in mentioned, f"README tour lacks `{' '.join(path)}`"
        for param in command.params:
            spellings = set(getattr(param, "opts", [])) | set(getattr(param, "secondary_opts", []))
            if param.param_type_name != "option" or "--help" in spellings:
                continue
            assert spellings & mentioned[path], (
                f"README: `{' '.join(path)}` never mentions {sorted(spellings)}"
            )
