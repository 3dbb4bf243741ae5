"""Nothing lost: concurrent confirms, hand edits during a confirm, links, special files, batches.

The concurrency tests run real `cardkit confirm` processes against copies of a card file.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cardkit import addresses
from cardkit.errors import UsageError
from cardkit.files import transaction, yamlio
from tests.conftest import ROOT, run_cli, run_process

KLAW = "cards/marvel-united/multiverse-ks-promos/klaw.yaml"
PURPLE_MAN = "cards/marvel-united/multiverse-ks-promos/purple-man.yaml"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    return tmp_path


def _confirm(cwd: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cardkit", "confirm", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _records(path: Path) -> set[str]:
    data = yamlio.load_text(path.read_text())
    return {
        str(c.get("field"))
        for card in data["masterplan"]["cards"]
        for c in card.get("confirmations") or []
    } | {str(c.get("field")) for c in data["masterplan"].get("confirmations") or []}


def test_eight_concurrent_confirms_keep_all_eight_records(repo: Path) -> None:
    target = repo / KLAW
    pristine = target.read_bytes()
    for trial in range(10):  # 80 real processes racing, 8 at a time
        target.write_bytes(pristine)
        procs = [
            _confirm(repo, KLAW, f"masterplan/cards/{n}/place", "--by", f"p{n}", "--evidence", "t")
            for n in range(1, 9)
        ]
        results = [(p.wait(timeout=120), p.stderr.read() if p.stderr else "") for p in procs]
        for p in procs:
            for stream in (p.stdout, p.stderr):
                if stream:
                    stream.close()
        assert all(code == 0 for code, _ in results), (trial, results)
        text = target.read_text()
        for n in range(1, 9):
            assert f"by: p{n}," in text, (trial, n)
        assert text.count("evidence: t}") == 8, trial
    assert run_cli(["validate", KLAW], cwd=repo).returncode == 0


def test_hand_edit_between_read_and_write_is_kept_and_the_edit_reapplied(tmp_path: Path) -> None:
    card = tmp_path / "card.yaml"
    card.write_text("kind: x\na: 1\n")
    calls: list[str] = []

    def edit(texts: dict[Path, str]) -> dict[Path, str]:
        calls.append(texts[card])
        if len(calls) == 1:  # a person's editor saves (by rename) while cardkit works
            saved = tmp_path / "saved.tmp"
            saved.write_text("kind: x\na: 1\n# hand edit\n")
            os.replace(saved, card)
        return {card: texts[card] + "b: 2\n"}

    assert transaction.update([card], edit) == [card]
    assert card.read_text() == "kind: x\na: 1\n# hand edit\nb: 2\n"
    assert len(calls) == 2


def test_in_place_hand_edit_of_same_size_is_noticed(tmp_path: Path) -> None:
    card = tmp_path / "card.yaml"
    card.write_text("kind: x\na: 1\n")
    stamp = os.stat(card)
    calls = 0

    def edit(texts: dict[Path, str]) -> dict[Path, str]:
        nonlocal calls
        calls += 1
        if calls == 1:  # same size, same mtime: only the content hash can tell
            card.write_text("kind: x\na: 2\n")
            os.utime(card, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
        return {card: texts[card].replace("kind: x", "kind: y")}

    transaction.update([card], edit)
    assert card.read_text() == "kind: y\na: 2\n"


def test_a_file_that_keeps_changing_is_refused_not_overwritten(tmp_path: Path) -> None:
    card = tmp_path / "card.yaml"
    card.write_text("n: 0\n")
    counter = 0

    def edit(texts: dict[Path, str]) -> dict[Path, str]:
        nonlocal counter
        counter += 1
        card.write_text(f"n: {counter}\n# someone typing\n")
        return {card: "n: mine\n"}

    with pytest.raises(transaction.Conflict, match="changed by someone else"):
        transaction.update([card], edit)
    assert card.read_text() == f"n: {counter}\n# someone typing\n"


def test_editor_saves_during_real_confirms_are_never_overwritten(repo: Path) -> None:
    target = repo / KLAW
    pristine = target.read_text()
    rng = random.Random(8)
    for trial in range(10):
        target.write_text(pristine)
        proc = _confirm(repo, KLAW, "masterplan/cards/3/place", "--by", "ana", "--evidence", "t")
        time.sleep(rng.uniform(0.0, 0.6))
        current = target.read_text()  # the editor saves what it holds plus the person's line
        saved = target.with_name(".klaw.yaml.swp")
        saved.write_text(current + f"# checked by hand {trial}\n")
        os.replace(saved, target)
        proc.communicate(timeout=120)
        assert proc.returncode == 0, trial
        assert f"# checked by hand {trial}\n" in target.read_text(), trial


def test_symlinked_card_file_is_written_through_and_stays_a_link(repo: Path) -> None:
    real = repo / "elsewhere" / "klaw.yaml"
    real.parent.mkdir()
    shutil.move(repo / KLAW, real)
    (repo / KLAW).symlink_to(real)
    result = run_cli(
        ["confirm", KLAW, "masterplan/cards/1/place", "--by", "ana", "--evidence", "card"],
        cwd=repo,
    )
    assert result.returncode == 0, result.stderr
    assert (repo / KLAW).is_symlink()
    assert "by: ana" in real.read_text()
    assert not [p for p in (repo / KLAW).parent.iterdir() if p.name.startswith(".klaw")]


def test_atomic_write_through_links_pipes_and_devices(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    yamlio.atomic_write(link, "new\n")
    assert link.is_symlink() and real.read_text() == "new\n"

    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "made.txt")
    yamlio.atomic_write(dangling, "made\n")
    assert dangling.is_symlink() and (tmp_path / "made.txt").read_text() == "made\n"

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    yamlio.atomic_write(fifo, "through the pipe\n")
    reader.join(timeout=10)
    assert got == [b"through the pipe\n"]
    assert fifo.is_fifo()

    null_before = os.stat("/dev/null")
    yamlio.atomic_write(Path("/dev/null"), "gone\n")
    null_after = os.stat("/dev/null")
    assert (null_after.st_ino, null_after.st_rdev) == (null_before.st_ino, null_before.st_rdev)

    folder = tmp_path / "out"
    folder.mkdir()
    with pytest.raises(yamlio.OutputError, match="is a folder, not a file"):
        yamlio.atomic_write(folder, "x\n")
    assert folder.is_dir() and not list(folder.iterdir())


def test_cli_out_to_dev_stdout_and_to_a_folder(repo: Path) -> None:
    box = "cards/marvel-united/multiverse-ks-promos"
    # /dev/stdout is the process's own descriptor: a real process, as a user's shell has
    written = run_process(["export", "rulebook", box, "--out", "/dev/stdout"], cwd=repo)
    assert written.returncode == 0, written.stderr
    assert "Klaw" in written.stdout
    (repo / "folder.txt").mkdir()
    refused = run_cli(["export", "rulebook", box, "--out", "folder.txt"], cwd=repo)
    assert refused.returncode == 2
    assert refused.stderr.strip() == (
        "cardkit: folder.txt: is a folder, not a file; nothing was written"
    )


def _digests(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*.yaml"))
    }


def _checklist(repo: Path, out: Path, keep: object = None) -> list[dict[str, str]]:
    listing = run_cli(["gaps", "--format", "csv"], cwd=repo)
    assert listing.returncode == 0, listing.stderr
    rows = list(csv.DictReader(io.StringIO(listing.stdout)))
    rows = [r for r in rows if keep is None or keep(r)]  # type: ignore[operator]
    for row in rows:
        row["evidence"] = "checked against the card"
    with out.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return rows


def test_batch_refuses_rows_that_cannot_close_up_front_and_writes_nothing(repo: Path) -> None:
    checklist = repo / "checklist.csv"
    rows = _checklist(repo, checklist, keep=lambda r: r["origin"] == "unconfirmed")
    before = _digests(repo / "cards")
    result = run_cli(["confirm", "--batch", str(checklist), "--by", "ana"], cwd=repo)
    assert result.returncode == 2
    assert _digests(repo / "cards") == before
    assert len(result.stderr.splitlines()) == 1
    purple = [
        n
        for n, row in enumerate(rows, start=2)
        if row["path"] == PURPLE_MAN
        and row["address"].endswith("/place")
        and row["card"] in {"2", "4", "6", "8", "10"}
    ]
    assert len(purple) == 5  # Subjugate Crowd cards: the placement field is absent
    absent = [n for n, row in enumerate(rows, start=2) if _absent(repo, row)]
    assert set(purple) <= set(absent)
    for number in absent:
        assert f"checklist.csv row {number} " in result.stderr
    assert result.stderr.count(" row ") == len(absent)
    assert "nothing was written" in result.stderr


def _absent(repo: Path, row: dict[str, str]) -> bool:
    """Does the row's address name a field its file does not have (it can never close)?"""
    data = yamlio.load_text((repo / row["path"]).read_text())
    try:
        addresses.resolve(data, row["address"])
    except UsageError:
        return True
    return False


def test_batch_writes_every_file_and_names_each(repo: Path) -> None:
    checklist = repo / "checklist.csv"
    rows = _checklist(
        repo,
        checklist,
        keep=lambda r: r["origin"] == "unconfirmed" and not _absent(repo, r),
    )
    before = _digests(repo / "cards")
    result = run_cli(["confirm", "--batch", str(checklist), "--by", "ana"], cwd=repo)
    assert result.returncode == 0, result.stderr
    after = _digests(repo / "cards")
    changed = {p for p in after if after[p] != before[p]}
    named = {line.split(": ", 1)[0].removeprefix("cards/") for line in result.stdout.splitlines()}
    assert {f"cards/{p}" for p in changed} == {r["path"] for r in rows}
    assert {p.removeprefix("cards/") for p in named} == changed
    assert run_cli(["validate"], cwd=repo).returncode == 0


def test_batch_puts_files_back_when_a_write_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    first.write_text("a: 1\n")
    second.write_text("b: 1\n")
    real_replace = os.replace

    def replace(src: str, dst: str | Path) -> None:  # the disk fills up on the second file
        if Path(dst) == second:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(yamlio.OutputError, match="No space left on device; nothing was written"):
        transaction.update([first, second], lambda t: {p: s + "c: 2\n" for p, s in t.items()})
    assert first.read_text() == "a: 1\n" and second.read_text() == "b: 1\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "b.yaml"]
