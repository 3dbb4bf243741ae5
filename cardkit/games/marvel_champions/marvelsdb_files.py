"""Reading and writing marvelsdb files: pack JSON in, card YAML out, and back again."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit.errors import InputError, UsageError
from cardkit.files import bounded, safe_paths, yamlio
from cardkit.games.marvel_champions import marvelsdb
from cardkit.model import Document, printable
from cardkit.rulebook.words import slug

CATALOGUES = {"sets.json": "set_code", "packs.json": "pack_code"}


MAX_JSON_BYTES = 64 * 1024 * 1024  # marvelsdb's biggest pack file is ~0.5 MB


def read_json(path: Path) -> Any:
    try:  # a regular file under the cap: a FIFO or /dev/zero is refused, not waited on
        return json.loads(bounded.read_regular(path, MAX_JSON_BYTES, "JSON file").decode("utf-8"))
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not UTF-8 text (byte {err.start})") from None
    except json.JSONDecodeError as err:
        raise InputError(f"{path}:{err.lineno}:{err.colno}: not JSON: {err.msg}") from None


def read_cards(path: Path) -> list[dict[str, Any]]:
    """A marvelsdb pack file: a JSON list of cards, each with a `code`."""
    data = read_json(path)
    if not isinstance(data, list):
        raise InputError(f"{path}:1:1: not a marvelsdb pack file (a JSON list of cards)")
    for index, card in enumerate(data):
        if not isinstance(card, dict) or not isinstance(card.get("code"), str):
            raise InputError(f"{path}: card {index + 1} has no code; not a marvelsdb pack file")
    return data


@dataclass
class MarvelsdbImport:
    out: Path
    files: dict[Path, str] = field(default_factory=dict)
    sets: set[str] = field(default_factory=set)


def plan_import(paths: list[Path], out: Path, *, box: str | None = None) -> MarvelsdbImport:
    """One YAML file per card, `OUT/<set>/<code>.yaml`, from marvelsdb pack files."""
    from cardkit.rulebook.importer import modeline

    if box is not None and slug(box) != box:
        raise UsageError(f"--box '{box}' is not an id: use lower-case letters, digits and dashes")
    result = MarvelsdbImport(out)
    seen: dict[str, Path] = {}
    for path in paths:
        for index, card in enumerate(read_cards(path)):
            _inside(path, index, card)
            doc = marvelsdb.document_from_card(card, box=box)
            if doc["id"] in seen:
                raise InputError(f"{path}: card {card['code']} is also in {seen[doc['id']]}")
            seen[doc["id"]] = path
            folder = marvelsdb.set_folder(card)
            target = out / folder / f"{doc['id']}.yaml"
            result.files[target] = yamlio.dump_document(doc, modeline(marvelsdb.KIND, target))
            result.sets.add(folder)
    return result


def _inside(path: Path, index: int, card: dict[str, Any]) -> None:
    """Paths in imported data stay inside the repository: a planted `provenance.scan`
    (absolute, or climbing with `..`) is refused before anything is written."""
    provenance = card.get("provenance")
    scan = provenance.get("scan") if isinstance(provenance, dict) else None
    problem = safe_paths.path_problem(scan) if isinstance(scan, str) else None
    if problem:
        raise InputError(
            f"{printable(str(path))}: card {index + 1} ({printable(card['code'])}): "
            f"provenance.scan '{printable(str(scan))}' {problem}; imported paths stay inside the "
            "repository, nothing was written"
        )


def write_import(result: MarvelsdbImport, *, force: bool) -> None:
    clashes = [path for path in result.files if path.exists()]
    if clashes and not force:
        raise UsageError(
            f"{len(clashes)} file(s) already exist, e.g. {clashes[0]}; nothing was written "
            "(use --force to overwrite, --dry-run to see the plan)"
        )
    for path, text in result.files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        yamlio.atomic_write(path, text)


@dataclass
class MarvelsdbExport:
    files: list[Path] = field(default_factory=list)
    cards: int = 0
    decks: int = 0
    problems: list[str] = field(default_factory=list)  # `path:line:col: message`
    warnings: list[str] = field(default_factory=list)


def _where(doc: Document, pointer: tuple[str | int, ...]) -> str:
    line, column = doc.locate(pointer)
    return f"{doc.display_path}:{line}:{column}"


def _safe_pack(doc: Document, result: MarvelsdbExport) -> bool:
    """A card whose pack_code is no safe file name (`../../../x`) is a problem, not a path."""
    pack = doc.data.get("pack_code") if doc.kind == marvelsdb.KIND else None
    problem = safe_paths.name_problem(str(pack)) if pack is not None else None
    if problem:
        result.problems.append(
            f"{_where(doc, ('pack_code',))}: pack_code '{printable(str(pack))}' {problem}: "
            "not used as a file name, card not exported"
        )
    return problem is None


def export(
    documents: list[Document],
    out: Path,
    *,
    catalogues: Path | None = None,
    lookup: list[Path] | None = None,
) -> MarvelsdbExport:
    """Pack files for the card documents, a deck file per decklist.

    `catalogues` is a marvelsdb folder whose sets.json and packs.json give the entries
    to copy for the exported sets and packs; `lookup` adds marvelsdb pack files whose
    cards decklists may name.
    """
    result = MarvelsdbExport()
    documents = [d for d in documents if _safe_pack(d, result)]
    cards = marvelsdb.cards_from_documents(d.data for d in documents)
    result.cards = len(cards)
    writes: dict[Path, str] = {
        out / name: marvelsdb.dump(members) for name, members in marvelsdb.pack_files(cards).items()
    }
    if catalogues is not None:
        for name, key in CATALOGUES.items():
            entries = read_json(catalogues / name)
            if isinstance(entries, list):
                writes[out / name] = marvelsdb.dump(
                    marvelsdb.catalogue_entries(cards, entries, key)
                )
    known = cards + [card for path in lookup or [] for card in read_cards(path)]
    for doc in documents:
        if doc.kind != marvelsdb.DECKLIST_KIND:
            continue
        deck = marvelsdb.deck_from_decklist(doc.data, known)
        result.problems += [f"{_where(doc, p)}: {message}" for p, message in deck.problems]
        result.warnings += [f"{_where(doc, p)}: {message}" for p, message in deck.warnings]
        writes[out / "decks" / f"{doc.id}.json"] = json.dumps(deck.deck, indent=2) + "\n"
        result.decks += 1
    for path, text in writes.items():  # each name checked again as the path is built
        path = safe_paths.child(out, *path.relative_to(out).parts, what="a marvelsdb file name")
        path.parent.mkdir(parents=True, exist_ok=True)
        yamlio.atomic_write(path, text)
        result.files.append(path)
    return result
