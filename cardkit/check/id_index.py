"""Every card file's `kind` and `id` under a folder, without reading the unchanged ones.

Validating one file resolves its references (`box`, `villain_ref`) against the rest of
the tree, and `confirm ID` finds the file that holds an id: both need every file's kind
and id. Reading 100,000 files for that took seconds per command; a pre-commit hook runs
a few of them on every commit. So the answer per file is kept in a cache keyed by the
file's path, size and mtime (nanoseconds), and only a new or changed file is read again.
Walking the folder and a `stat` per file remain: the cost of a tree's size is a walk.

The cache is a JSON file per folder under `$CARDKIT_CACHE` (default: the user's cache
folder, `$XDG_CACHE_HOME/cardkit` or `~/.cache/cardkit`); `CARDKIT_CACHE=off` reads
every file each time. A cache that cannot be read or written is ignored: it only saves
time, it never decides an answer.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

from cardkit.files import yamlio

YAML_SUFFIXES = (".yaml", ".yml")
FIELD = re.compile(r"^(kind|id):\s*['\"]?([^'\"\s#]+)", re.MULTILINE)
VERSION = 1


def _cache_file(root: Path) -> Path | None:
    setting = os.environ.get("CARDKIT_CACHE", "")
    if setting.lower() == "off":
        return None
    base = Path(setting) if setting else None
    if base is None:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = (Path(xdg) if xdg else Path.home() / ".cache") / "cardkit"
    digest = hashlib.sha256(str(root.resolve()).encode("utf-8", "surrogateescape")).hexdigest()
    return base / f"ids-{digest[:24]}.json"


def read_fields(path: Path) -> tuple[str, str] | None:
    """The first top-level `kind:` and `id:` of a file, by a text scan; None without both."""
    try:
        text = yamlio.read_text(path)
    except (OSError, yamlio.YamlProblem):
        return None
    fields: dict[str, str] = {}
    for match in FIELD.finditer(text):
        fields.setdefault(match.group(1), match.group(2))
    if "kind" in fields and "id" in fields:
        return fields["kind"], fields["id"]
    return None


def _load(cache: Path | None) -> dict[str, list[object]]:
    if cache is None:
        return {}
    with contextlib.suppress(OSError, ValueError):
        data = json.loads(cache.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("version") == VERSION:
            files = data.get("files")
            if isinstance(files, dict):
                return files
    return {}


def _save(cache: Path, files: dict[str, list[object]]) -> None:
    with contextlib.suppress(OSError, yamlio.OutputError):
        cache.parent.mkdir(parents=True, exist_ok=True)
        yamlio.atomic_write(cache, json.dumps({"version": VERSION, "files": files}))


def _card_files(root: Path) -> Iterator[tuple[str, os.stat_result]]:
    """What `validate.collect_files` walks (YAML files, hidden names skipped, regular files
    only), sorted as it sorts them, each with its stat: one `scandir` per folder."""
    found: list[tuple[list[str], str, os.stat_result]] = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            if name.startswith(".") or not name.endswith(YAML_SUFFIXES):
                continue
            path = os.path.join(folder, name)
            try:
                info = os.stat(path)
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                found.append((path.split(os.sep), path, info))
    found.sort(key=lambda item: item[0])  # by parts, as Paths sort
    for _, path, info in found:
        yield path, info


def ids_under(root: Path) -> list[tuple[Path, str, str]]:
    """(path, kind, id) for every card file under root that has both, in walk order."""
    cache = _cache_file(root)
    before = _load(cache)
    now: dict[str, list[object]] = {}
    found: list[tuple[Path, str, str]] = []
    for key, info in _card_files(root):
        path = Path(key)
        stamp: list[object] = [info.st_size, info.st_mtime_ns]
        entry = before.get(key)
        if isinstance(entry, list) and len(entry) == 4 and entry[:2] == stamp:
            fields = (str(entry[2]), str(entry[3])) if entry[2] is not None else None
        else:
            fields = read_fields(path)
        now[key] = [*stamp, *(fields or (None, None))]
        if fields is not None:
            found.append((path, fields[0], fields[1]))
    if cache is not None and now != before:
        _save(cache, now)
    return found
