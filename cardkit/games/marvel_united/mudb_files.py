"""Reading and writing Marvel United JSON Database files: box JSON in, YAML out, and back.

`cardkit import mu-db FILE.json... --out DIR` writes each box to `DIR/<box>/`: its
manifest as `box.yaml` and a file per document; `cardkit export mu-db PATH... --out DIR`
writes a JSON file per box, named as the source file was (or `<box>.json`), in the
database's layout (two-space indent, UTF-8 as is).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit.errors import InputError, UsageError
from cardkit.files import atomic, bounded, safe_paths, yamlio
from cardkit.games.marvel_united import mudb, mudb_box, mudb_sidecar
from cardkit.model import Document
from cardkit.rulebook.words import slug

MAX_JSON_BYTES = 64 * 1024 * 1024  # the database's boxes are well under a megabyte


def read_json(path: Path) -> Any:
    return parse_json(path)[0]


def parse_json(path: Path) -> tuple[Any, str]:
    """The file's JSON value and its text (a FIFO or a device is refused, not waited on)."""
    try:
        text = bounded.read_regular(path, MAX_JSON_BYTES, "JSON file").decode("utf-8")
        return json.loads(text), text
    except OSError as err:
        raise InputError(f"{path}: cannot read: {err.strerror}") from None
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not UTF-8 text (byte {err.start})") from None
    except json.JSONDecodeError as err:
        raise InputError(f"{path}:{err.lineno}:{err.colno}: not JSON: {err.msg}") from None
    except RecursionError:
        raise InputError(f"{path}:1:1: JSON nested too deeply to read") from None


def read_box_text(path: Path) -> tuple[dict[str, Any], str]:
    data, text = parse_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("boxId"), str):
        raise InputError(
            f"{path}:1:1: not a Marvel United JSON Database box (a JSON object with a boxId)"
        )
    return data, text


def detects(path: Path) -> bool:
    """True for a JSON file holding an object with a `boxId`: a database box."""
    if path.suffix.lower() != ".json" or not path.is_file():
        return False
    try:  # the import's own read: the same cap, encoding and errors
        data, _ = parse_json(path)
    except InputError:
        return False
    return isinstance(data, dict) and "boxId" in data


def dump_json(data: Any, *, newline: bool = True) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + ("\n" if newline else "")


@dataclass
class MudbImport:
    out: Path
    files: dict[Path, str] = field(default_factory=dict)
    boxes: list[str] = field(default_factory=list)
    cards: int = 0
    documents: int = 0
    warnings: list[str] = field(default_factory=list)
    lossless: list[str] = field(default_factory=list)  # of the warnings, those losing nothing

    @property
    def lossy(self) -> bool:
        """A warning says something was kept but not as cardkit's data: exit 1."""
        return any(warning not in self.lossless for warning in self.warnings)


def import_box(
    data: dict[str, Any], *, box: str, file_name: str, newline: bool, where: str
) -> mudb_box.BoxDocuments:
    """One box's documents, as written (the JSON's file name and last newline kept)."""
    found = mudb_box.documents_from(data, box=box, where=where)
    extra = mudb.exchange_of(found.documents[0])
    extra["file"] = file_name
    if not newline:
        extra["newline"] = False  # the file ends without one; export does the same
    return found


def plan_import(paths: list[Path], out: Path, *, box: str | None = None) -> MudbImport:
    from cardkit.rulebook.importer import modeline

    if box is not None and slug(box) != box:
        raise UsageError(f"--box '{box}' is not an id: use lower-case letters, digits and dashes")
    if box is not None and len(paths) > 1:
        raise UsageError("--box names one box; give one file with it, or leave it out")
    result = MudbImport(out)
    seen: dict[str, Path] = {}
    for path in paths:
        data, text = read_box_text(path)
        ident = mudb_box.box_id(data, box)
        if ident in seen:
            raise InputError(
                f"{path}: box {ident} is also {seen[ident]}; "
                "import them into separate --out folders"
            )
        seen[ident] = path
        found = import_box(
            data, box=ident, file_name=path.name, newline=text.endswith("\n"), where=str(path)
        )
        side_path = mudb_sidecar.path_for(path)
        sidecar = mudb_sidecar.read(side_path)
        if sidecar is not None:
            placed = mudb_sidecar.apply(found.documents, sidecar, side_path)
        else:
            placed = [(d, mudb_sidecar.default_file(d)) for d in found.documents]
        for doc, name in placed:
            target = out / ident / name
            if target in result.files:  # the second would silently replace the first
                named = side_path if sidecar is not None else path
                raise InputError(
                    f"{named}: two documents go to {target} (the second is {doc.get('id')!r}); "
                    "nothing was written, give each its own file"
                )
            kind = str(doc.get("kind", ""))
            result.files[target] = yamlio.dump_document(doc, modeline(kind, target))
        result.boxes.append(ident)
        result.cards += found.cards
        result.documents += len(placed)
        result.warnings += found.warnings
        result.lossless += found.lossless
    return result


def write_import(result: MudbImport, *, force: bool) -> None:
    atomic.write_new_files(result.files, force=force)


@dataclass
class MudbExport:
    files: list[Path] = field(default_factory=list)
    boxes: dict[str, dict[str, Any]] = field(default_factory=dict)  # file name -> JSON
    newline: dict[str, bool] = field(default_factory=dict)  # file name -> ends with one
    sidecars: dict[str, dict[str, Any]] = field(default_factory=dict)  # file name -> sidecar
    box_ids: dict[str, str] = field(default_factory=dict)  # file name -> box id
    cards: int = 0
    warnings: list[str] = field(default_factory=list)


def group_by_box(documents: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Marvel United documents by box id (a manifest's own id, the others' `box`)."""
    boxes: dict[str, list[dict[str, Any]]] = {}
    for data in documents:
        kind = str(data.get("kind", ""))
        if not kind.startswith("marvel-united/"):
            continue
        ident = data.get("id") if kind == mudb.KINDS["box"] else data.get("box")
        boxes.setdefault(str(ident or "no-box"), []).append(data)
    return boxes


def build(members: list[tuple[dict[str, Any], str]]) -> MudbExport:
    """The database boxes of the documents (each with its file name in the box folder, or
    ""), and each box's sidecar, by output file name, without writing."""
    result = MudbExport()
    names = {id(data): name for data, name in members}
    for ident, group in group_by_box([data for data, _ in members]).items():
        manifest = next((d for d in group if d.get("kind") == mudb.KINDS["box"]), None)
        others = [d for d in group if d is not manifest]
        data, warnings, layout = mudb_box.box_to(manifest, others, ident)
        name = str(mudb.exchange(manifest or {}).get("file") or f"{ident}.json")
        safe_paths.safe_name(name, f"box {ident}: its database file name")  # from the data
        if name in result.boxes:  # a second box would silently replace the first
            raise UsageError(
                f"box {ident}: goes to {name}, as box {result.box_ids[name]} does; "
                "nothing was written, export them into separate --out folders"
            )
        result.box_ids[name] = ident
        newline = mudb.exchange(manifest or {}).get("newline", True) is not False
        result.boxes[name] = data
        result.newline[name] = newline
        result.cards += mudb_box.count_cards(data)
        result.warnings += [f"box {ident}: {w}" for w in warnings]
        again = import_box(data, box=ident, file_name=name, newline=newline, where=name)
        pairs = [(d, names.get(id(d), "")) for d in group]
        sidecar = mudb_sidecar.build(pairs, manifest, layout, again.documents, ident)
        if sidecar is not None:
            result.sidecars[name] = sidecar
            whole = [e["file"] for e in sidecar["documents"] if "document" in e]
            if whole:
                shown = ", ".join(whole[:3]) + (
                    f"... ({len(whole)} in all)" if len(whole) > 3 else ""
                )
                result.warnings.append(
                    f"box {ident}: the database has no place for {shown}; "
                    f"kept whole in {mudb_sidecar.path_for(Path(name)).name}"
                )
    return result


def _name_in_box(doc: Document, roots: dict[str, Path]) -> str:
    folder = roots.get(str(doc.data.get("box") or doc.data.get("id")))
    if folder is not None:
        try:
            return doc.path.resolve().relative_to(folder).as_posix()
        except ValueError:
            pass
    return doc.path.name


def export(documents: list[Document], out: Path) -> MudbExport:
    roots = {
        str(d.data.get("id")): d.path.resolve().parent
        for d in documents
        if d.data.get("kind") == mudb.KINDS["box"]
    }
    result = build([(d.data, _name_in_box(d, roots)) for d in documents])
    for name, data in result.boxes.items():
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        yamlio.atomic_write(target, dump_json(data, newline=result.newline[name]))
        result.files.append(target)
        if name in result.sidecars:
            side = mudb_sidecar.path_for(target)
            yamlio.atomic_write(
                side, mudb_sidecar.HEADER + yamlio.dump_document(result.sidecars[name])
            )
            result.files.append(side)
    return result
