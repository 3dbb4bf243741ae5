"""What a box's YAML holds that its database file cannot: the sidecar `<file>.cardkit.yaml`.

The Marvel United JSON Database has no field for cardkit's bookkeeping (field-level
`unconfirmed` marks, gap notes, confirmation history, sources, notes) nor for kinds it
does not know (henchmen, weak spots, achievements...). Export therefore asks what
importing its own JSON would give, position by position (`box`, `locations/3`,
`characters/5/0` = the fifth character's first document), and writes beside the JSON
the residual patch from that to each real document, plus the documents that have no
place in the database whole. Import applies a sidecar found beside a JSON file, so a box
transcribed in cardkit comes back as it was. A box imported from the database needs
none: its documents carry their own `exchange.mu-db`.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

from cardkit.errors import InputError
from cardkit.exchange import residual
from cardkit.files import yamlio
from cardkit.games.marvel_united import mudb

SUFFIX = ".cardkit.yaml"
FORMAT = "cardkit mu-db sidecar 1"
MANIFEST_FILE = "box.yaml"
HEADER = "# cardkit: what this box's YAML holds that the database file beside it cannot.\n"


def path_for(json_path: Path) -> Path:
    return json_path.with_name(json_path.stem + SUFFIX)


def default_file(doc: dict[str, Any]) -> str:
    return MANIFEST_FILE if doc.get("kind") == mudb.KINDS["box"] else f"{doc.get('id')}.yaml"


def positions(layout: dict[str, Any]) -> dict[str, str]:
    """Position in the database file -> document id."""
    found: dict[str, str] = {}
    for key in ("locations", "challenges"):
        for i, entry in enumerate(layout.get(key, [])):
            if isinstance(entry, str):
                found[f"{key}/{i}"] = entry
    for i, group in enumerate(layout.get("characters", [])):
        if isinstance(group, list):
            for j, ident in enumerate(group):
                found[f"characters/{i}/{j}"] = ident
    return found


def _placed(
    manifest: dict[str, Any] | None, layout: dict[str, Any], others: list[dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """Position -> document (the manifest at `box`)."""
    by_id = {str(d.get("id")): d for d in others}
    found = {at: by_id[i] for at, i in positions(layout).items() if i in by_id}
    return {"box": manifest, **found} if manifest is not None else found


def build(
    members: list[tuple[dict[str, Any], str]],
    manifest: dict[str, Any] | None,
    layout: dict[str, Any],
    reimported: list[dict[str, Any]],
    box: str,
) -> dict[str, Any] | None:
    """The sidecar that turns `reimported` (the JSON read back) into `members`; None if none."""
    names = {id(data): name for data, name in members}
    others = [data for data, _ in members if data is not manifest]
    original = _placed(manifest, layout, others)
    again_layout = mudb.exchange(reimported[0]).get("layout") or {}
    again = _placed(reimported[0], again_layout, reimported[1:])
    entries: list[dict[str, Any]] = []
    for at, doc in again.items():
        if at not in original:
            entries.append({"at": at, "remove": True})
            continue
        data = original[at]
        entry: dict[str, Any] = {"at": at}
        if patch := residual.diff(data, doc):
            entry["patch"] = patch
        name = names.get(id(data), "")
        if name and name != default_file(data):
            entry["file"] = name
        if len(entry) > 1:
            entries.append(entry)
    placed = {id(original[at]) for at in again if at in original}
    for data, name in members:
        if id(data) not in placed:
            entries.append({"file": name or default_file(data), "document": data})
    if not entries:
        return None
    return {"format": FORMAT, "box": box, "documents": entries}


def read(path: Path) -> dict[str, Any] | None:
    if not path.is_file():
        return None
    try:
        data = yamlio.load_text(yamlio.read_text(path))
    except yamlio.YamlProblem as problem:
        raise InputError(f"{path}:{problem.line}:{problem.column}: {problem.message}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"{path}:1:1: not a cardkit mu-db sidecar (format: {FORMAT})")
    return data


def _safe(name: Any, path: Path) -> str:
    parts = PurePosixPath(str(name)).parts
    if (
        not isinstance(name, str)
        or not parts
        or name.startswith("/")
        or ".." in parts
        or "\0" in name  # no file system takes it
    ):
        raise InputError(f"{path}: file {name!r} is not a path inside the box folder")
    return name


def apply(
    documents: list[dict[str, Any]], sidecar: dict[str, Any], path: Path
) -> list[tuple[dict[str, Any], str]]:
    """The imported documents with the sidecar laid on, each with its file name."""
    layout = mudb.exchange(documents[0]).get("layout") or {}
    placed = _placed(documents[0], layout, documents[1:])
    slots: list[dict[str, Any] | None] = list(documents)
    index = {id(d): n for n, d in enumerate(documents)}
    names: dict[int, str] = {}
    extra: list[tuple[dict[str, Any], str]] = []
    for n, entry in enumerate(sidecar.get("documents") or []):
        if not isinstance(entry, dict):
            raise InputError(f"{path}: documents[{n}] is not a mapping")
        if "document" in entry:
            if not isinstance(entry["document"], dict):
                raise InputError(f"{path}: documents[{n}].document is not a mapping")
            extra.append((entry["document"], _safe(entry.get("file"), path)))
            continue
        doc = placed.get(str(entry.get("at")))
        if doc is None:
            raise InputError(f"{path}: documents[{n}]: no document at {entry.get('at')!r}")
        k = index[id(doc)]
        if entry.get("remove"):
            slots[k] = None
            continue
        try:
            slots[k] = residual.apply(doc, entry.get("patch") or {})
        except (AttributeError, TypeError, ValueError, KeyError, IndexError):
            # the sidecar is a file anyone may edit: a patch not of export's making
            raise InputError(f"{path}: documents[{n}].patch is not a cardkit patch") from None
        if "file" in entry:
            names[k] = _safe(entry["file"], path)
    kept = [(d, names.get(k) or default_file(d)) for k, d in enumerate(slots) if d is not None]
    return kept + extra
