"""Which files are scans: kept apart from intake so that listing them (as an up-to-date
`cardkit build` does) loads no imaging library."""

from __future__ import annotations

from pathlib import Path

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".tif", ".tiff", ".bmp", ".pdf"}

__all__ = ["IMAGE_SUFFIXES", "scan_paths"]


def scan_paths(paths: list[Path]) -> list[Path]:
    """Files named, plus image files under folders named (sorted, hidden files skipped)."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out += sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and p.suffix.lower() in IMAGE_SUFFIXES
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            )
        else:
            out.append(path)
    return out
