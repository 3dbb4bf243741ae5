"""ocr: scans and photos to draft YAML."""

from __future__ import annotations

import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardkit.cli._app import app
from cardkit.errors import ExitCode, UsageError
from cardkit.model import printable

if TYPE_CHECKING:
    from cardkit.ocr.batch import ScanResult


class OcrFormat(StrEnum):
    text = "text"
    json = "json"


def _bar(done: int, total: int, name: str) -> None:
    width = 30
    filled = width * done // max(1, total)
    shown = printable(name)[-40:]
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {shown:<40}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


@app.command()
def ocr(
    paths: Annotated[list[Path], typer.Argument(help="Scan files or folders of scans.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the drafts.")] = Path(
        "build/drafts"
    ),
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            help="Scans read at once (default and most: every core; never more than the scans).",
        ),
    ] = 0,
    force: Annotated[bool, typer.Option("--force", help="Overwrite existing drafts.")] = False,
    fmt: Annotated[OcrFormat, typer.Option("--format", help="text or json summary.")] = (
        OcrFormat.text
    ),
    system: Annotated[
        list[str] | None,
        typer.Option("--system", metavar="SYSTEM", help="Only this system's templates."),
    ] = None,
    threshold: Annotated[
        float, typer.Option(help="Fields read less surely than this are left unconfirmed.")
    ] = 0.90,
    timeout: Annotated[float, typer.Option(help="Seconds allowed per scan (more than 0).")] = 120.0,
    language: Annotated[str, typer.Option(help="tesseract language model.")] = "eng",
    engine: Annotated[
        str,
        typer.Option(
            help="tesseract, tesseract-cli, replay:FILE, or a plug-in engine package.module:Class.",
            hidden=True,
        ),
    ] = "tesseract",
    assemble: Annotated[
        bool,
        typer.Option(
            "--assemble",
            help="Also combine each villain's card drafts into one villain document.",
        ),
    ] = False,
    check: Annotated[
        list[Path] | None,
        typer.Option(
            "--check",
            metavar="PATH",
            help="Compare what each scan reads with these card files (never edits them).",
        ),
    ] = None,
    against: Annotated[
        str | None,
        typer.Option(help="With --check: the document (ID or ID/ADDRESS) a single scan shows."),
    ] = None,
    date: Annotated[
        str | None, typer.Option(help="Date written into provenance (default: today).", hidden=True)
    ] = None,
    palette: Annotated[
        Path | None,
        typer.Option(
            help="The box's token palette (YAML; default: palette.yaml beside the scans, "
            "else the system's own icons). `cardkit palette` writes one."
        ),
    ] = None,
) -> None:
    """Read card scans and photos into draft YAML, one draft per card (`<scan stem>.yaml`).

    Finds the card in a photo, straightens and turns it upright, picks the card template
    that fits, reads each field and writes a draft of the right kind. Fields read less
    surely than --threshold are listed in `unconfirmed` with a gap note. An animated
    image or a PDF gives one draft per frame or page (`<stem>#2.yaml`). A scan that
    cannot be read fails alone; exit 1 if any failed, after all others are done.
    Existing drafts are never overwritten without --force.

    --assemble combines one villain's card drafts (master plan, threat cards, dashboard;
    grouped by villain_ref, else by the villain printed on the card, else by the scans'
    folder) into one villain document, the master plan ordered by number; a card drafted
    twice (two scans of one card) leaves that villain unwritten (exit 1).

    --check compares what each scan reads with the card files given and writes the
    confirm --batch checklist (DIR/checklist.csv) with the read values filled in; it
    never edits a card file. Exit 1 when a field disagrees.
    """
    from cardkit.ocr import batch, scanfiles
    from cardkit.ocr import engine as engines
    from cardkit.ocr.pipeline import Options

    if not 0 <= threshold <= 1:
        raise UsageError("--threshold must be between 0 and 1")
    if not timeout > 0:  # NaN too
        raise UsageError(f"--timeout must be a positive number of seconds, not {timeout:g}")
    if jobs < 0:
        raise UsageError(f"--jobs must be 0 (every core) or more, not {jobs}")
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is not a folder")
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise UsageError(f"{missing[0]}: no such file or folder")
    from cardkit import systems as registry

    for name in system or ():
        try:
            registry.get(name)
        except registry.UnknownName as err:
            raise UsageError(f"--system: {err}") from None
    scans = scanfiles.scan_paths(paths)
    if not scans:
        raise UsageError("no scans found in " + ", ".join(str(p) for p in paths))
    _check_palettes(palette, scans)
    # before the probe loads tesseract (and its OpenMP runtime, which reads this once): the
    # workers forked from this process then read on one thread each, as the batch intends
    os.environ["OMP_THREAD_LIMIT"] = "1"
    probe = engines.make_engine(engine, language)
    probe.version()  # a missing tesseract stops here with exit 3 and the install command
    settings = batch.Settings(
        out,
        engine,
        language,
        force,
        Options(tuple(system or ()), threshold, palette=str(palette) if palette else None),
        date,
    )
    show = sys.stderr.isatty()
    results = batch.run(
        scans,
        settings,
        jobs=batch.workers_for(len(scans), jobs),
        timeout=timeout,
        progress=(lambda r, done, total: _bar(done, total, Path(r.scan).name)) if show else None,
    )
    failed = [r for r in results if not r.ok]
    if fmt is OcrFormat.json:
        payload = {
            "version": 1,
            "out": str(out),
            "scans": [
                {
                    "scan": r.scan,
                    "ok": r.ok,
                    "error": r.message or None,
                    "seconds": r.seconds,
                    "drafts": r.drafts,
                    "skipped": r.skipped,
                }
                for r in results
            ],
            "drafts": sum(len(r.drafts) for r in results),
            "failed": len(failed),
            "skipped": sum(len(r.skipped) for r in results),
        }
        sys.stdout.write(json.dumps(payload, indent=2) + "\n")
    else:
        for r in results:
            for d in r.drafts:
                sys.stdout.write(
                    f"{printable(d['draft'])}: {d['kind']} ({d['template']}), mean confidence "
                    f"{round(d['mean_confidence'] * 100)}%, {d['unconfirmed']} unconfirmed\n"
                )
        drafts = sum(len(r.drafts) for r in results)
        skipped = sum(len(r.skipped) for r in results)
        kept = f", {skipped} kept (their drafts exist: --force reads them again)" if skipped else ""
        sys.stdout.write(
            f"ocr: {drafts} drafts from {len(results)} scans, {len(failed)} failed{kept}\n"
        )
    if assemble:
        failed += _assemble(results, out, force)
    disagree = _second_opinion(results, check, against, out) if check else False
    for r in failed:
        sys.stderr.write(f"cardkit: {printable(r.message)}\n")
    raise typer.Exit(ExitCode.FINDINGS if failed or disagree else ExitCode.OK)


def _check_palettes(given: Path | None, scans: list[Path]) -> None:
    """A palette file with a mistake stops the batch before any reading (one line)."""
    from cardkit.ocr import palette

    if given is not None:
        if not given.is_file():
            raise UsageError(f"--palette {given}: no such file")
        palette.load(given)
        return
    for folder in sorted({scan.parent for scan in scans}):
        if (folder / palette.FILE).is_file():
            palette.load(folder / palette.FILE)


def _assemble(results: list[ScanResult], out: Path, force: bool) -> list[ScanResult]:
    """--assemble: one document per group of card drafts, as each game groups them."""
    from cardkit.files import atomic, yamlio
    from cardkit.ocr import assembly, batch, draft

    drafts = [
        (Path(d["draft"]), yamlio.load_text(Path(d["draft"]).read_text(encoding="utf-8")))
        for r in results
        for d in r.drafts
    ]
    refused = []
    for assembler, system, name, members in assembly.groups(drafts):
        document = assembler.assemble(system, name, members)
        target = out / f"{document['id']}.yaml"
        problems = assembler.clashes(members)
        if problems:
            refused.append(batch.ScanResult(name, False, f"{target}: not assembled: {problems[0]}"))
            continue
        if target.exists() and not force:
            refused.append(
                batch.ScanResult(name, False, f"{target} exists: not overwritten (use --force)")
            )
            continue
        text = draft.render(document, f"{len(members)} card scans")
        if force:
            yamlio.atomic_write(target, text)
        else:
            try:  # checked again as it is written: a person may have saved it meanwhile
                atomic.create_new(target, text)
            except atomic.AlreadyThere:
                refused.append(
                    batch.ScanResult(
                        name, False, f"{target} appeared: not overwritten (use --force)"
                    )
                )
                continue
        sys.stdout.write(f"{target}: {document['kind']} assembled from {len(members)} drafts\n")
    return refused


def _second_opinion(
    results: list[ScanResult], paths: list[Path], against: str | None, out: Path
) -> bool:
    """--check: compare each draft with its card file, print agree/disagree, write the
    confirm --batch checklist into the output folder. True when any field disagrees."""
    from cardkit.cli._app import report_skipped
    from cardkit.files import yamlio
    from cardkit.gaps import rows as gaps
    from cardkit.ocr import compare as check

    documents, problems = gaps.load(paths)
    report_skipped(problems)
    drafts = [d for r in results for d in r.drafts]
    if against and len(drafts) != 1:
        raise UsageError("--against names one card: give it one scan (one frame)")
    comparisons: list[check.Comparison] = []
    silent: list[str] = []  # fields the scan did not yield: reported, not compared
    for entry in drafts:
        draft = yamlio.load_text(Path(entry["draft"]).read_text(encoding="utf-8"))
        target = check.find_target(draft, entry["frame"], documents, against)
        if target is None:
            sys.stderr.write(
                f"cardkit: {entry['draft']}: no card under --check is named "
                f"{entry['frame']!r}; name the scan after its id or use --against\n"
            )
            continue
        scan = draft.get("provenance", {}).get("scan", entry["frame"])
        comparisons += check.compare(draft, scan, target[0], target[1])
        silent += check.not_read(draft, scan, target[0], target[1])
    for line in check.lines(comparisons) + silent:
        sys.stdout.write(line + "\n")
    if drafts and not comparisons:
        sys.stderr.write("cardkit: --check: no scan matched a card, nothing was compared\n")
    rows = gaps.collect(documents)
    yamlio.atomic_write(out / "checklist.csv", check.checklist(comparisons, rows))
    sys.stdout.write(f"wrote {out / 'checklist.csv'} (review it, then confirm --batch)\n")
    return any(not c.agree for c in comparisons) or (bool(drafts) and not comparisons)
