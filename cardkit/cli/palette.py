"""palette: a box's token palette from drafts whose placements a person confirmed."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from cardkit.cli._app import app
from cardkit.errors import ExitCode, UsageError


def _drafts(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.rglob("*.yaml") if p.name != "palette.yaml")
        elif path.exists():
            found.append(path)
        else:
            raise UsageError(f"{path}: no such file or folder")
    return found


def _scan(draft: Path, document: dict[str, Any]) -> Path | None:
    shown = str((document.get("provenance") or {}).get("scan") or "")
    for candidate in (Path(shown), draft.parent / shown):
        if shown and candidate.is_file():
            return candidate
    return None


def _value(document: dict[str, Any], path: str) -> Any:
    value: Any = document
    for part in path.split("/"):
        value = value.get(part) if isinstance(value, dict) else None
    return value


@app.command()
def palette(
    drafts: Annotated[
        list[Path],
        typer.Argument(help="Drafts (or folders of them) whose placements are confirmed."),
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="The palette file to write.")] = Path(
        "palette.yaml"
    ),
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write a box's token palette (docs/ocr.md, "Box palettes") from card drafts a person
    corrected: each draft's scan (`provenance.scan`) is read again, its placement slots and
    icons found, and each token's colour and shape learnt from the icons of the slots the
    draft confirms (a placement still in `unconfirmed` teaches nothing). Then read the
    box's other scans with `cardkit ocr --palette FILE`, or put the file beside them as
    palette.yaml."""
    from cardkit.files import atomic, yamlio
    from cardkit.ocr import calibrate
    from cardkit.ocr import palette as palettes

    if out.exists() and not force:
        raise UsageError(f"{out} exists (--force overwrites it)")
    samples, skipped = [], []
    for draft in _drafts(drafts):
        document = yamlio.load_text(draft.read_text(encoding="utf-8"))
        if not isinstance(document, dict) or "/" not in str(document.get("kind", "")):
            continue
        kind = str(document["kind"])
        field = calibrate.placement_field(kind.split("/")[0], kind)
        place = _value(document, field) if field else None
        scan = _scan(draft, document)
        if field is None or not isinstance(place, dict):
            continue  # no placement diagram on this card
        if field in (document.get("unconfirmed") or []):
            skipped.append(f"{draft}: {field} is not confirmed")
        elif scan is None:
            skipped.append(
                f"{draft}: its scan {_value(document, 'provenance/scan')!r} is not found"
            )
        else:
            card = calibrate.upright(scan, (kind.split("/")[0],))
            samples.append((str(draft), card, place))
    if not samples:
        raise UsageError("no draft with a confirmed placement and its scan found")
    learnt = calibrate.learn(
        samples, f"calibrated by cardkit palette from {len(samples)} confirmed drafts"
    )
    for line in skipped + learnt.notes:
        sys.stderr.write(f"cardkit palette: {line}\n")
    if not learnt.palette.tokens:  # a palette naming nothing would name every icon unknown
        sys.stderr.write(
            f"cardkit palette: no token learnt from {len(samples)} drafts: {out} not written\n"
        )
        raise typer.Exit(ExitCode.FINDINGS)
    atomic.atomic_write(out, palettes.dump(learnt.palette))
    names = ", ".join(t.name for t in learnt.palette.tokens) or "none"
    sys.stdout.write(
        f"palette: {out}: {len(learnt.palette.tokens)} tokens ({names}) from {learnt.icons} "
        f"icons of {len(samples)} drafts\n"
    )
    raise typer.Exit(ExitCode.OK if learnt.palette.tokens else ExitCode.FINDINGS)
