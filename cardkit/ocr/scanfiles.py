"""Which files are scans: kept apart from intake so that listing them (as an up-to-date
`cardkit build` does) loads no imaging library."""

from __future__ import annotations

from pathlib import Path

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".tif", ".tiff", ".bmp", ".pdf"}

__all__ = ["IMAGE_SUFFIXES", "scan_paths", "sharing_a_draft"]


def scan_paths(paths: list[Path]) -> list[Path]:
    """Files named, plus image files under folders named (sorted, hidden files skipped)."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out += sorted(
                p
                for p in path.rglob("*")
                if p.suffix.lower() in IMAGE_SUFFIXES
                and not p.is_dir()  # a pipe or device named as an image fails aloud, in intake
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            )
        else:
            out.append(path)
    once: dict[Path, Path] = {}  # a file named twice (or also under a folder named): read once
    for path in out:
        once.setdefault(path.resolve(), path)
    return list(once.values())


def sharing_a_draft(paths: list[Path]) -> dict[int, list[Path]]:
    """For each scan whose draft would have another scan's name (drafts are named after
    the scan's stem: `a/klaw.png` and `b/klaw.tiff` are both `klaw.yaml`), the others."""
    by_stem: dict[str, list[int]] = {}
    for index, path in enumerate(paths):
        by_stem.setdefault(path.stem, []).append(index)
    return {
        i: [paths[j] for j in group if j != i]
        for group in by_stem.values()
        if len(group) > 1
        for i in group
    }
