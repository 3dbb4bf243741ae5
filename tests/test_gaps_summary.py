"""`cardkit gaps` as a person reads it: the summary tells what the files hold, whatever
--status lists; on a terminal a short listing is a table and a long one comes as lines."""

from __future__ import annotations

import io
import json
import os
import pty
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

FROZEN_KLAW = ROOT / "tests" / "data" / "klaw.yaml"  # Klaw as imported, never confirmed


@pytest.fixture
def klaw(tmp_path: Path) -> Path:
    """A copy of frozen Klaw (12 unconfirmed placements and MU108 on the Dashboard: 13
    open) with card 1's placement confirmed: 12 open, 1 resolved."""
    path = tmp_path / "cards" / "klaw.yaml"
    path.parent.mkdir()
    shutil.copyfile(FROZEN_KLAW, path)
    done = run_cli(
        [
            *("confirm", str(path), "masterplan/cards/1/place"),
            *("--by", "ana", "--evidence", "the card in hand"),
        ]
    )
    assert done.returncode == 0, done.stderr
    return path


def test_the_default_open_view_counts_resolved_gaps_too(klaw: Path) -> None:
    listed = run_cli(["gaps", str(klaw.parent)])
    assert listed.returncode == 0, listed.stderr
    *rows, last = listed.stdout.splitlines()
    assert len(rows) == 12 and all("  open  " in row for row in rows)
    assert last == (
        "12 open on 12 checks, 1 resolved (multiverse-ks-promos: 12 open, 1 resolved); listed: open"
    )
    every = run_cli(["gaps", str(klaw.parent), "--status", "all"]).stdout.splitlines()
    assert len(every) == 14
    assert (
        every[-1] == "12 open on 12 checks, 1 resolved (multiverse-ks-promos: 12 open, 1 resolved)"
    )
    resolved = run_cli(["gaps", str(klaw.parent), "--status", "resolved"]).stdout.splitlines()
    assert "masterplan/cards/1/place  resolved  [unconfirmed] confirmed by ana on " in resolved[0]
    assert resolved[1].startswith("12 open on 12 checks, 1 resolved") and len(resolved) == 2
    assert resolved[1].endswith("; listed: resolved")


def test_json_and_markdown_summaries_count_both_statuses(klaw: Path) -> None:
    payload = json.loads(run_cli(["gaps", str(klaw.parent), "--format", "json"]).stdout)
    assert len(payload["gaps"]) == 12
    assert payload["summary"] == {
        "open": 12,
        "checks": 12,
        "resolved": 1,
        "boxes": {"multiverse-ks-promos": {"open": 12, "resolved": 1}},
        "listed": "open",
    }
    for status, listed, rows in (("resolved", "resolved", 1), ("all", "all", 13)):
        chosen = run_cli(["gaps", str(klaw.parent), "--format", "json", "--status", status])
        payload = json.loads(chosen.stdout)
        assert len(payload["gaps"]) == rows
        assert (payload["summary"]["listed"], payload["summary"]["resolved"]) == (listed, 1)
    markdown = run_cli(["gaps", str(klaw.parent), "--format", "markdown", "--status", "resolved"])
    assert markdown.stdout.rstrip().splitlines()[-1] == (
        "**12 open on 12 checks, 1 resolved "
        "(multiverse-ks-promos: 12 open, 1 resolved); listed: resolved**"
    )


def test_the_filters_choose_what_the_summary_counts(klaw: Path) -> None:
    """--field narrows the gaps talked about (counted and listed); --status only the listing."""
    result = run_cli(["gaps", str(klaw.parent), "--field", "place", "--status", "resolved"])
    assert result.stdout.splitlines()[-1] == (
        "11 open on 11 checks, 1 resolved "
        "(multiverse-ks-promos: 11 open, 1 resolved); listed: resolved"
    )


def _on_a_terminal(args: list[str]) -> tuple[str, str, int]:
    """`python -m cardkit ARGS` with stdout a pseudo-terminal: (stdout, stderr, exit code)."""
    reader, writer = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "cardkit", *args],
        cwd=ROOT,
        stdout=writer,
        stderr=subprocess.PIPE,
        env={**os.environ, "COLUMNS": "200"},
    )
    os.close(writer)
    chunks = []
    while True:
        try:
            chunk = os.read(reader, 1 << 16)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(reader)
    _, errors = process.communicate(timeout=300)
    text = b"".join(chunks).decode().replace("\r\n", "\n")
    return text, errors.decode(), process.returncode


def _villains(folder: Path, count: int) -> None:
    """`count` copies of frozen Klaw under their own ids: 13 open gaps each."""
    folder.mkdir(parents=True)
    text = FROZEN_KLAW.read_text()
    for n in range(count):
        (folder / f"klaw-{n:02d}.yaml").write_text(text.replace("id: klaw\n", f"id: klaw-{n}\n"))


def test_a_short_terminal_listing_is_a_table_and_a_long_one_comes_as_lines(tmp_path):
    from cardkit.report.gaps_report import TABLE_ROWS

    _villains(tmp_path / "short", 2)
    table, errors, code = _on_a_terminal(["gaps", str(tmp_path / "short")])
    assert code == 0 and errors == ""
    assert table.count("┏") == 1 and "klaw-01.yaml:38" in table
    assert "26 open on 26 checks, 0 resolved" in table.splitlines()[-1]
    count = TABLE_ROWS // 13 + 1  # one villain more than a table holds
    _villains(tmp_path / "long", count)
    lines, errors, code = _on_a_terminal(["gaps", str(tmp_path / "long")])
    assert code == 0 and "┏" not in lines
    *rows, last = lines.splitlines()
    assert len(rows) == 13 * count
    assert "klaw-00.yaml:38  klaw-0  masterplan/cards/1/place  open  [unconfirmed]" in rows[0]
    assert last == (
        f"{13 * count} open on {13 * count} checks, 0 resolved "
        f"(multiverse-ks-promos: {13 * count} open, 0 resolved); listed: open"
    )
    assert errors == (
        f"cardkit: more than {TABLE_ROWS} rows: listed as lines as they come, not as a table "
        "(--box, --id, --kind or --field narrow the listing)\n"
    )


def test_the_terminal_writer_holds_at_most_a_table_of_rows(tmp_path):
    """Past the table's size, rows are written as they are pulled: the first line is out
    before the rows after the table's size are read."""
    from cardkit.gaps import rows as gaps
    from cardkit.report.gaps_report import TABLE_ROWS, write_terminal

    documents, _ = gaps.load([FROZEN_KLAW])
    klaw = gaps.collect(documents)
    pulled = {"rows": 0, "at first write": -1}

    def rows() -> Iterator[gaps.Gap]:
        for n in range(4 * TABLE_ROWS):
            pulled["rows"] += 1
            yield klaw[n % len(klaw)]

    class Out(io.StringIO):
        def write(self, text: str) -> int:
            if pulled["at first write"] < 0:
                pulled["at first write"] = pulled["rows"]
            return super().write(text)

    out, notices = Out(), []
    write_terminal(rows(), None, out, notice=notices.append)
    assert pulled["at first write"] == TABLE_ROWS + 1
    assert out.getvalue().count("\n") == 4 * TABLE_ROWS + 1
    assert len(notices) == 1


def test_the_core_summary_counts_without_the_report_layer() -> None:
    """`gaps.summary` (the line `cardkit build` prints) is the core's own: counting the
    gaps of frozen Klaw loads no reporter."""
    code = (
        "import sys\nfrom pathlib import Path\nfrom cardkit import gaps\n"
        f"documents, _ = gaps.load([Path({str(FROZEN_KLAW)!r})])\n"
        "print(gaps.summary(gaps.collect(documents)))\n"
        "print('cardkit.report.gaps_report' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "13 open on 13 checks, 0 resolved (multiverse-ks-promos: 13 open, 0 resolved)",
        "False",
    ]
