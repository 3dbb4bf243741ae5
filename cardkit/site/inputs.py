"""What a build depends on: a content hash of every input (cards/, schemas/, rulebooks,
scans, cardkit's code and the plug-in systems'), and the keys its stages are reused by."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from cardkit import __version__
from cardkit.check.validate import collect_files

PACKAGE = Path(__file__).resolve().parents[1]  # cardkit/, not this room


def digest(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def hash_file(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as err:
        return f"unreadable: {err.strerror}"


def code_fingerprint(package: Path = PACKAGE) -> str:
    """cardkit's version and the size and time of every file of its code and data."""
    stats = sorted(
        (p.relative_to(package).as_posix(), p.stat().st_size, p.stat().st_mtime_ns)
        for p in package.rglob("*")
        if p.suffix in (".py", ".yaml", ".json", ".ttf") and p.is_file()
    )
    return digest(__version__, stats)


def plugin_files() -> dict[str, str]:
    """Content hashes of the game systems that live outside cardkit (entry points,
    CARDKIT_SYSTEMS): every code and data file of their package, its `schemas/` folder
    included. Found without importing them, so an up-to-date build stays quick."""
    import importlib.util

    from cardkit import systems

    package = PACKAGE
    found: dict[str, str] = {}
    for name in systems.module_names():
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is None or spec.origin is None:
            found[f"system:{name}"] = "not found"  # the build names the problem itself
            continue
        origin = Path(spec.origin).resolve()
        if origin.is_relative_to(package):
            continue
        home = origin.parent
        files = sorted(home.rglob("*")) if spec.submodule_search_locations else [origin]
        for path in files:
            if path.suffix in (".py", ".yaml", ".yml", ".json", ".ttf") and path.is_file():
                found[f"system:{name}:{path.relative_to(home).as_posix()}"] = hash_file(path)
    return found


def fingerprint(root: Path) -> dict[str, str]:
    """Content hash of every input, by path relative to the repository."""
    from cardkit.schemas import registry as schemas

    found: dict[str, str] = {"cardkit": code_fingerprint(), **plugin_files()}
    cards = root / "cards"
    for path in collect_files([cards]) if cards.is_dir() else []:
        found[path.relative_to(root).as_posix()] = hash_file(path)
    for path in sorted(schemas.schema_dir().rglob("*.schema.json")):
        found[f"schemas:{path.relative_to(schemas.schema_dir()).as_posix()}"] = hash_file(path)
    for path in rulebooks(root):
        found[path.relative_to(root).as_posix()] = hash_file(path)
    for path in scan_images(root):
        found[path.relative_to(root).as_posix()] = hash_file(path)
    return found


def scan_images(root: Path) -> list[Path]:
    """Source scans: images under scans/, less scans/samples (the OCR benchmark's set)."""
    from cardkit.ocr.scanfiles import scan_paths

    scans = root / "scans"
    found = scan_paths([scans]) if scans.is_dir() else []
    return [p for p in found if p.relative_to(scans).parts[0] != "samples"]


def rulebooks(root: Path) -> list[Path]:
    return sorted((root / "scans").glob("*/*/rulebook.txt"))


def inputs_under(inputs: dict[str, str], prefix: str) -> dict[str, str]:
    return {k: v for k, v in inputs.items() if k.startswith(prefix)}


def code_key(inputs: dict[str, str]) -> str:
    """What every stage depends on: cardkit's code and the plugin systems' code and schemas."""
    return digest(inputs["cardkit"], inputs_under(inputs, "system:"))
