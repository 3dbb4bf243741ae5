"""Hostile and careless input against the surfaces of issue 21, as a user would try it.

Each attack runs the real `cardkit` (`python -m cardkit`, the code of `--code DIR`, by
default this checkout) in a fresh folder, under a 2 GB address-space limit and a time
limit, and is judged by what happened to the files and what the command said:

    fine            one clear line where something was refused, the right exit code
    loses work      a person's file replaced or a value dropped
    out of bounds   data written, read or shown where it must not be
    hangs           no answer within the time limit
    answers badly   a traceback, exit 70, unbounded work, or a wrong exit code

    python benchmarks/hostile.py [--code DIR] [--only NAME] [--skip NAME]

Run it once against the code before a fix (`--code /path/to/old/checkout`) and once
after: the tallies go to benchmarks/RESULTS.md. Exits 1 unless every attack is fine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LIMIT_BYTES = 2 * 1024**3
GATE = "--engine=_hostile_engines:Gate"
HANG = "--engine=_hostile_engines:Hang"
CODE = ROOT
Verdict = tuple[str, str]


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    path = os.pathsep.join([str(CODE), str(HERE)])
    return {**os.environ, "PYTHONPATH": path, "COLUMNS": "200", **(extra or {})}


def ck(
    args: list[str], cwd: Path, *, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str] | None:
    """The command's result, or None when it did not end within `timeout` (killed)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cardkit", *args],
        cwd=cwd,
        env=_env(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_limits,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return None
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def badly(done: subprocess.CompletedProcess[str] | None, want: int) -> Verdict | None:
    """The common failures: a hang, a traceback or exit 70, a wrong code, several lines."""
    if done is None:
        return "hangs", "no answer within the limit"
    if "Traceback" in done.stderr or done.returncode == 70 or "MemoryError" in done.stderr:
        return "answers badly", f"exit {done.returncode}: {done.stderr.strip()[-120:]}"
    if done.returncode != want:
        return "answers badly", f"exit {done.returncode}, not {want}: {done.stderr.strip()[:120]}"
    return None


def card_png(path: Path) -> Path:
    from PIL import Image

    image = Image.new("RGB", (720, 1008), (60, 90, 70))
    image.paste((235, 230, 215), (0, 515, 720, 1008))
    image.save(path)
    return path


# --- loses work -------------------------------------------------------------------------


def ocr_draft_saved_meanwhile(tmp: Path) -> Verdict:
    card_png(tmp / "card.png")
    gate = tmp / "gate"
    process = subprocess.Popen(
        [sys.executable, "-m", "cardkit", "ocr", "card.png", "--out", "d", GATE],
        cwd=tmp,
        env=_env({"CARDKIT_TEST_GATE": str(gate)}),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while not (tmp / "gate.reading").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    (tmp / "d" / "card.yaml").write_text("# mine\n", encoding="utf-8")
    gate.touch()
    process.wait(timeout=60)
    if (tmp / "d" / "card.yaml").read_text(encoding="utf-8") != "# mine\n":
        return "loses work", "the draft saved during the scan was replaced without --force"
    return "fine", "kept"


def checklist_value_on_a_gap_note(tmp: Path) -> Verdict:
    card = tmp / "lantern.yaml"
    card.write_text(
        "kind: villainous/card\nid: lantern\nvillain_ref: example\ndeck: villain\n"
        "title: Lantern Keeper\ngaps:\n  - {note: OCR read no cost, fields: [cost], "
        "status: open}\n",
        encoding="utf-8",
    )
    (tmp / "c.csv").write_text(
        "path,line,document,card,field,origin,status,code,why,current,check,address,value,by,"
        "evidence\nlantern.yaml,7,lantern,,cost,noted,open,,OCR read no cost,,x,gaps/0,2,me,card\n",
        encoding="utf-8",
    )
    done = ck(["confirm", "--batch", "c.csv"], tmp)
    if done is not None and done.returncode == 0 and "cost: 2" not in card.read_text():
        return "loses work", "the row's value was dropped while its note was closed"
    return badly(done, 0) or ("fine", "value written")


# --- out of bounds ----------------------------------------------------------------------


def ocr_name_with_line_breaks(tmp: Path) -> Verdict:
    name = "x\ninjected: 1\n#"
    card_png(tmp / f"{name}.png")
    (tmp / "gate").touch()
    done = ck(["ocr", f"{name}.png", "--out", "d", GATE], tmp, env={"CARDKIT_TEST_GATE": "gate"})
    text = (tmp / "d" / f"{name}.yaml").read_text() if (tmp / "d" / f"{name}.yaml").exists() else ""
    if "\ninjected: 1" in text:
        return "out of bounds", "the file name wrote a top-level key into the draft"
    if done is not None and any(line.startswith("injected") for line in done.stdout.splitlines()):
        return "out of bounds", "the file name forged an output line"
    return badly(done, 0) or ("fine", "escaped")


def import_planted_scan_path(tmp: Path) -> Verdict:
    card = {
        "code": "01001a",
        "name": "S",
        "type_code": "hero",
        "faction_code": "hero",
        "pack_code": "core",
        "set_code": "s",
        "provenance": {"scan": "/etc/hostname"},
    }
    (tmp / "p.json").write_text(json.dumps([card]), encoding="utf-8")
    done = ck(["import", "marvelsdb", "p.json", "--out", "cards"], tmp)
    if done is not None and done.returncode == 0:
        checked = ck(["validate", "cards"], tmp)
        if checked is not None and checked.returncode == 0:
            return "out of bounds", "an absolute provenance.scan imported and validated"
    return badly(done, 2) or ("fine", "refused on import")


def proof_embeds_a_local_image(tmp: Path) -> Verdict:
    secret = card_png(tmp / "private.png")
    repo = tmp / "repo"
    (repo / "cards").mkdir(parents=True)
    (repo / "cards" / "c.yaml").write_text(
        "kind: villainous/card\nid: c\nvillain_ref: v\ndeck: villain\ntitle: T\n"
        f"provenance: {{scan: '{secret}', sha256: '{'0' * 64}'}}\n",
        encoding="utf-8",
    )
    done = ck(["proof", "cards", "--from-scans", "--out", "p.pdf"], repo)
    if done is not None and done.returncode in (0, 1) and "drawn proxy" not in done.stderr:
        return "out of bounds", "a local image not named by its hash was put in the proof"
    return ("fine", "printed as a drawn proxy") if done is not None else ("hangs", "")


def export_pack_code_climbs(tmp: Path) -> Verdict:
    (tmp / "r" / "cards").mkdir(parents=True)
    (tmp / "r" / "cards" / "c.yaml").write_text(
        "kind: marvel-champions/card\nid: 01001a\ncode: 01001a\nname: S\ntype_code: hero\n"
        "faction_code: hero\npack_code: '../../../x'\n",
        encoding="utf-8",
    )
    done = ck(["export", "marvelsdb", "cards", "--out", "o/a/b"], tmp / "r")
    out = tmp / "r" / "o" / "a" / "b"
    if any(not p.is_relative_to(out) for p in tmp.rglob("x.json")):
        return "out of bounds", "x.json written outside --out"
    return badly(done, 1) or ("fine", "refused")


def csv_formula_cells(tmp: Path) -> Verdict:
    (tmp / "c.yaml").write_text(
        "kind: villainous/card\nid: c\nvillain_ref: v\ndeck: villain\ntitle: '=1+1'\n",
        encoding="utf-8",
    )
    done = ck(["export", "csv", "c.yaml"], tmp)
    if done is not None and ",=1+1" in done.stdout:
        return "out of bounds", "a formula cell written as it is"
    return badly(done, 0) or ("fine", "neutralised")


def new_box_climbs(tmp: Path) -> Verdict:
    (tmp / "repo" / "cards").mkdir(parents=True)
    done = ck(["new", "hero", "x", "--box", "../../../escaped-box"], tmp / "repo")
    if list(tmp.parent.rglob("escaped-box")) or list(tmp.rglob("escaped-box")):
        return "out of bounds", "wrote outside the repository"
    return badly(done, 2) or ("fine", "refused")


# --- hangs and unbounded reads ----------------------------------------------------------


def import_a_fifo(tmp: Path) -> Verdict:
    os.mkfifo(tmp / "p.json")
    return badly(ck(["import", "marvelsdb", "p.json", "--out", "c"], tmp, timeout=20), 2) or (
        "fine",
        "refused",
    )


def import_dev_zero(tmp: Path) -> Verdict:
    done = ck(["import", "marvelsdb", "/dev/zero", "--out", "c"], tmp, timeout=30)
    return badly(done, 2) or ("fine", "refused")


def ocr_link_to_dev_zero(tmp: Path) -> Verdict:
    (tmp / "z.png").symlink_to("/dev/zero")
    done = ck(["ocr", "z.png", "--out", "d", GATE], tmp, timeout=30)
    return badly(done, 1) or ("fine", done.stderr.strip() if done else "")


def ocr_pdf_of_huge_pages(tmp: Path) -> Verdict:
    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(12):  # each page just under 89M pixels at 300 dpi: 3.2 GB in all
        writer.add_blank_page(width=2260, height=2260)
    with (tmp / "poster.pdf").open("wb") as stream:
        writer.write(stream)
    done = ck(["ocr", "poster.pdf", "--out", "d", GATE], tmp, timeout=60)
    return badly(done, 1) or ("fine", "refused before rendering")


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _workers_after(tmp: Path, how: signal.Signals) -> Verdict:
    for name in ("a", "b"):
        card_png(tmp / f"{name}.png")
    process = subprocess.Popen(
        [sys.executable, "-m", "cardkit", "ocr", "a.png", "b.png", "--out", "d", HANG, "-j", "2"],
        cwd=tmp,
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while len(workers := _children(process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    os.kill(process.pid, how)
    process.wait(timeout=60)
    time.sleep(2)
    left = [w for w in workers if _alive(w)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    if left:
        return "answers badly", f"{len(left)} workers outlived their parent"
    return "fine", "workers ended"


def ocr_kill_9(tmp: Path) -> Verdict:
    return _workers_after(tmp, signal.SIGKILL)


def ocr_sigterm(tmp: Path) -> Verdict:
    return _workers_after(tmp, signal.SIGTERM)


def ocr_jobs_200(tmp: Path) -> Verdict:
    for name in ("a", "b", "c"):
        card_png(tmp / f"{name}.png")
    gate = tmp / "gate"
    process = subprocess.Popen(
        [sys.executable, "-m", "cardkit", "ocr", ".", "--out", "d", GATE, "-j", "200"],
        cwd=tmp,
        env=_env({"CARDKIT_TEST_GATE": str(gate)}),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    time.sleep(0.2)
    deadline, most = time.monotonic() + 30, 0
    while not (tmp / "gate.reading").exists() and time.monotonic() < deadline:
        most = max(most, len(_children(process.pid)))
        time.sleep(0.05)
    time.sleep(1)
    most = max(most, len(_children(process.pid)))
    gate.touch()
    process.wait(timeout=60)
    cap = min(3, os.cpu_count() or 1)
    if most > cap:
        return "answers badly", f"{most} workers for 3 scans on {os.cpu_count()} cores"
    return "fine", f"{most} workers"


def ocr_negative_timeout(tmp: Path) -> Verdict:
    card_png(tmp / "a.png")
    return badly(ck(["ocr", "a.png", "--out", "d", "--timeout", "-1", GATE], tmp), 2) or (
        "fine",
        "refused",
    )


def _small_repo(tmp: Path) -> Path:
    repo = tmp / "repo"
    card = repo / "cards" / "marvel-united" / "promo" / "h.yaml"
    card.parent.mkdir(parents=True)
    card.write_text("kind: marvel-united/hero\nid: h\nname: H\n", encoding="utf-8")
    (repo / "scans").mkdir()
    return repo


def two_builds_at_once(tmp: Path) -> Verdict:
    repo = _small_repo(tmp)
    for trial in range(2):
        (repo / "cards" / "marvel-united" / "promo" / "h.yaml").write_text(
            f"kind: marvel-united/hero\nid: h\nname: H\n# {trial}\n", encoding="utf-8"
        )
        both = [
            subprocess.Popen(
                [sys.executable, "-m", "cardkit", "build"],
                cwd=repo,
                env=_env(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        codes = [p.wait(timeout=300) for p in both]
        if codes != [0, 0]:
            return "answers badly", f"trial {trial + 1}: exits {codes}"
    return "fine", "both finished"


def build_ctrl_c(tmp: Path) -> Verdict:
    shutil.copytree(ROOT / "cards", tmp / "cards")
    (tmp / "scans").mkdir()
    process = subprocess.Popen(
        [sys.executable, "-m", "cardkit", "build"],
        cwd=tmp,
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(1.5)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    if process.returncode == 0:
        return "fine", "finished before the signal"
    if err != "cardkit: interrupted\n":
        return "answers badly", f"exit {process.returncode}: {err.strip()[:100]!r}"
    return "fine", "interrupted"


def validate_to_dev_full(tmp: Path) -> Verdict:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "cardkit", "validate", str(ROOT / "cards")],
            cwd=tmp, env=_env(), stdout=full, stderr=subprocess.PIPE, text=True, timeout=120,
        )  # fmt: skip
    return badly(done, 2) or ("fine", done.stderr.strip())


def validate_into_a_closed_pipe(tmp: Path) -> Verdict:
    process = subprocess.Popen(
        [sys.executable, "-m", "cardkit", "validate", str(ROOT / "cards")],
        cwd=tmp, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    err = process.stderr.read()
    process.wait(timeout=120)
    if process.returncode in (1, 70) or err:
        return "answers badly", f"exit {process.returncode} {err.strip()[:80]!r}"
    return "fine", f"exit {process.returncode}"


def broken_schema_file(tmp: Path) -> Verdict:
    shutil.copytree(CODE / "schemas", tmp / "schemas")
    (tmp / "schemas" / "marvel-united" / "hero.schema.json").write_text("{ broken\n")
    done = ck(
        ["validate", str(ROOT / "cards" / "marvel-united")],
        tmp,
        env={"CARDKIT_SCHEMAS": str(tmp / "schemas")},
    )
    return badly(done, 3) or ("fine", "exit 3")


def confirm_without_fcntl(tmp: Path) -> Verdict:
    (tmp / "site").mkdir()
    (tmp / "site" / "sitecustomize.py").write_text("import sys\nsys.modules['fcntl'] = None\n")
    (tmp / "c.yaml").write_text(
        "kind: villainous/card\nid: c\nvillain_ref: v\ndeck: villain\ntitle: T\n"
        "unconfirmed: [title]\n",
        encoding="utf-8",
    )
    env = {"PYTHONPATH": os.pathsep.join([str(tmp / "site"), str(CODE), str(HERE)])}
    done = subprocess.run(
        [sys.executable, "-m", "cardkit", "confirm", "c.yaml", "title", "--by", "me",
         "--evidence", "card"],
        cwd=tmp, env={**os.environ, **env}, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    return badly(done, 0) or ("fine", "confirmed")


ATTACKS: dict[str, Callable[[Path], Verdict]] = {
    f.__name__: f
    for f in (
        ocr_draft_saved_meanwhile,
        checklist_value_on_a_gap_note,
        ocr_name_with_line_breaks,
        import_planted_scan_path,
        proof_embeds_a_local_image,
        export_pack_code_climbs,
        csv_formula_cells,
        new_box_climbs,
        import_a_fifo,
        import_dev_zero,
        ocr_link_to_dev_zero,
        ocr_pdf_of_huge_pages,
        ocr_kill_9,
        ocr_sigterm,
        ocr_jobs_200,
        ocr_negative_timeout,
        two_builds_at_once,
        build_ctrl_c,
        validate_to_dev_full,
        validate_into_a_closed_pipe,
        broken_schema_file,
        confirm_without_fcntl,
    )
}


def main() -> int:
    global CODE
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--code", type=Path, default=ROOT, help="checkout whose cardkit runs")
    parser.add_argument("--only", action="append", help="run only this attack (repeatable)")
    parser.add_argument("--skip", action="append", default=[], help="leave this attack out")
    args = parser.parse_args()
    CODE = args.code.resolve()
    tally: Counter[str] = Counter()
    for name, attack in ATTACKS.items():
        if (args.only and name not in args.only) or name in args.skip:
            continue
        folder = Path(tempfile.mkdtemp(prefix=f"hostile-{name}-"))
        started = time.monotonic()
        try:
            verdict, note = attack(folder)
        except Exception as err:  # the attack's own set-up broke: say so, go on
            verdict, note = "answers badly", f"attack failed: {type(err).__name__}: {err}"
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        tally[verdict] += 1
        print(f"{name:32} {verdict:14} {time.monotonic() - started:5.1f} s  {note[:90]}")
    print(", ".join(f"{count} {verdict}" for verdict, count in tally.most_common()))
    return 0 if set(tally) == {"fine"} else 1


if __name__ == "__main__":
    sys.exit(main())
