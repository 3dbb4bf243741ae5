"""Reading and writing marvelsdb files: pack JSON in, card YAML out, and back again."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit.errors import InputError, UsageError
from cardkit.files import atomic, bounded, safe_paths, yamlio
from cardkit.games.marvel_champions import marvelsdb, marvelsdb_json
from cardkit.model import Document, printable
from cardkit.rulebook.words import slug

CATALOGUES = {"sets.json": "set_code", "packs.json": "pack_code"}


MAX_JSON_BYTES = 64 * 1024 * 1024  # marvelsdb's biggest pack file is ~0.5 MB


def _read_text(path: Path) -> str:
    """A regular file under the cap: a FIFO or /dev/zero is refused, not waited on."""
    return bounded.read_regular(path, MAX_JSON_BYTES, "JSON file").decode("utf-8")


def read_json(path: Path) -> Any:
    try:
        return json.loads(_read_text(path))
    except OSError as err:
        raise InputError(f"{path}: cannot read: {err.strerror}") from None
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not UTF-8 text (byte {err.start})") from None
    except json.JSONDecodeError as err:
        raise InputError(f"{path}:{err.lineno}:{err.colno}: not JSON: {err.msg}") from None


def read_pack(path: Path) -> marvelsdb_json.PackText:
    """A marvelsdb pack file: a JSON list of cards, each with a `code`, and its layout."""
    try:
        text = _read_text(path)
    except OSError as err:
        raise InputError(f"{path}: cannot read: {err.strerror}") from None
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not UTF-8 text (byte {err.start})") from None
    try:
        pack = marvelsdb_json.parse(text)
    except marvelsdb_json.PackSyntaxError as err:
        raise InputError(f"{path}:{err.line}:{err.column}: {err}") from None
    for index, entry in enumerate(pack.cards):
        if not isinstance(entry.card.get("code"), str) or not entry.card["code"]:
            raise InputError(
                f"{path}:{entry.line}:1: card {index + 1} has no code; not a marvelsdb pack file"
            )
    return pack


def read_cards(path: Path) -> list[dict[str, Any]]:
    return [entry.card for entry in read_pack(path).cards]


@dataclass
class MarvelsdbImport:
    out: Path
    files: dict[Path, str] = field(default_factory=dict)
    sets: set[str] = field(default_factory=set)
    cards: int = 0
    kept: dict[str, list[str]] = field(default_factory=dict)  # unknown field -> codes

    def warnings(self) -> list[str]:
        """One line per field cardkit's schema does not name: kept, not lost."""
        return [
            f"{len(codes)} card(s) carry '{name}', a field cardkit's schema does not name "
            f"(e.g. {codes[0]}): kept under marvelsdb.extra and written back by export"
            for name, codes in sorted(self.kept.items())
        ]


def _inside(path: Path, index: int, card: dict[str, Any]) -> None:
    """Paths in imported data stay inside the repository: a planted `provenance.scan`
    (absolute, or climbing with `..`) is refused before anything is written."""
    provenance = card.get("provenance")
    scan = provenance.get("scan") if isinstance(provenance, dict) else None
    problem = safe_paths.path_problem(scan) if isinstance(scan, str) else None
    if problem:
        raise InputError(
            f"{printable(str(path))}: card {index} ({printable(card['code'])}): "
            f"provenance.scan '{printable(str(scan))}' {problem}; imported paths stay inside the "
            "repository, nothing was written"
        )


def _origin(path: Path, index: int, entry: marvelsdb_json.SourceCard, layout: Any) -> Any:
    block: dict[str, Any] = {"file": f"pack/{path.name}", "index": index}
    if entry.escaped:
        block["escaped"] = entry.escaped
    if layout.indent != marvelsdb_json.DEFAULT_INDENT:
        block["indent"] = layout.indent
    if not layout.final_newline:
        block["final_newline"] = False
    return block


def plan_import(paths: list[Path], out: Path, *, box: str | None = None) -> MarvelsdbImport:
    """One YAML file per card, `OUT/<set>/<code>.yaml`, from marvelsdb pack files."""
    from cardkit.rulebook.importer import modeline

    if box is not None and slug(box) != box:
        raise UsageError(f"--box '{box}' is not an id: use lower-case letters, digits and dashes")
    result = MarvelsdbImport(out)
    seen: dict[str, Path] = {}
    known = marvelsdb.known_fields()
    for path in paths:
        pack = read_pack(path)
        for index, entry in enumerate(pack.cards, start=1):
            card = entry.card
            _inside(path, index, card)
            where = _origin(path, index, entry, pack.layout)
            doc = marvelsdb.document_from_card(card, box=box, origin=where)
            if doc["id"] in seen:
                raise InputError(
                    f"{path}:{entry.line}:1: card {card['code']} is also in {seen[doc['id']]}"
                )
            seen[doc["id"]] = path
            for name in card:
                if name not in known:
                    result.kept.setdefault(name, []).append(str(card["code"]))
            folder = marvelsdb.set_folder(card)
            target = out / folder / f"{doc['id']}.yaml"
            result.files[target] = yamlio.dump_document(doc, modeline(marvelsdb.KIND, target))
            result.sets.add(folder)
            result.cards += 1
    return result


def write_import(result: MarvelsdbImport, *, force: bool) -> None:
    atomic.write_new_files(result.files, force=force)


@dataclass
class MarvelsdbExport:
    files: list[Path] = field(default_factory=list)
    cards: int = 0  # written
    cards_in: int = 0  # card documents given
    decks: int = 0
    problems: list[str] = field(default_factory=list)  # `path:line:col: message`
    warnings: list[str] = field(default_factory=list)


def _where(doc: Document, pointer: tuple[str | int, ...]) -> str:
    line, column = doc.locate(pointer)
    return f"{doc.display_path}:{line}:{column}"


def _entry(doc: Document) -> marvelsdb.PackEntry:
    """The card's pack entry; ValueError (the reason) when it cannot be written as JSON."""
    entry = marvelsdb.pack_entry(doc.data)
    code = entry.card.get("code")
    if not isinstance(code, str) or not code:
        raise ValueError("it has no code")
    try:
        json.dumps(entry.card, allow_nan=False)
    except (TypeError, ValueError) as err:  # a YAML date, .inf: no JSON value
        raise ValueError(f"a value is not JSON ({err})") from None
    return entry


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


def pack_texts(documents: list[Document]) -> tuple[dict[str, str], MarvelsdbExport]:
    """Each pack file's text from the card documents, in the source's order and layout."""
    result = MarvelsdbExport()
    groups: dict[str, list[marvelsdb.PackEntry]] = {}
    layouts: dict[str, list[dict[str, Any]]] = {}
    for doc in documents:
        if doc.kind != marvelsdb.KIND:
            continue
        result.cards_in += 1
        if not _safe_pack(doc, result):
            continue
        try:
            entry = _entry(doc)
        except ValueError as err:
            result.problems.append(f"{_where(doc, ())}: card '{doc.id}' not written: {err}")
            continue
        name = marvelsdb.entry_file(doc.data, entry.card)
        groups.setdefault(name, []).append(entry)
        layouts.setdefault(name, []).append(doc.data)
    texts: dict[str, str] = {}
    for name, members in sorted(groups.items()):
        members.sort(key=lambda e: e.place)
        layout = marvelsdb.layout_of(layouts[name])
        texts[name] = marvelsdb_json.dump(((e.card, e.escaped) for e in members), layout)
        result.cards += len(members)
    return texts, result


def export(
    documents: list[Document],
    out: Path,
    *,
    catalogues: Path | None = None,
    lookup: list[Path] | None = None,
) -> MarvelsdbExport:
    """Pack files for the card documents, a deck file per decklist.

    Each card goes back to the pack file and place it came from (`marvelsdb.file`,
    `marvelsdb.index`); a card that cannot be written is a problem naming it, and the
    rest are written. `catalogues` is a marvelsdb folder whose sets.json and packs.json
    give the entries to copy for the exported sets and packs; `lookup` adds marvelsdb
    pack files whose cards decklists may name.
    """
    texts, result = pack_texts(documents)
    writes: dict[Path, str] = {out / name: text for name, text in texts.items()}
    cards = marvelsdb.cards_from_documents(d.data for d in documents)
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
