"""What the review page shows: the open gaps of the repository, grouped by card.

Each file is read once per version (its content hash): a change on disk re-reads only
that file, and the game rules (the inferred gaps) run again over the documents held.
A gap row goes to the proxy card whose place in the document holds the field (the
longest pointer that starts its address); a row about the document as a whole (a note
over several cards, a rule's finding on a list) goes to the document itself, unless the
document is one card (an OCR draft: its `kind` doubted, its card's fields), which then
holds every row: one item per card.

Everything the page may ask for is looked up here by the names this module gave out
(a card's id); no path from a request is ever opened.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit.errors import CardkitError
from cardkit.gaps.rows import Gap
from cardkit.model import Document
from cardkit.render.content import ProofCard


@dataclass
class Entry:
    """One file as last read."""

    path: Path
    etag: str
    document: Document | None = None
    problem: str = ""  # why the file is not reviewable (not YAML, not valid)
    cards: list[ProofCard] = field(default_factory=list)


@dataclass
class Card:
    """A card of the page: a proxy card (or a whole document) and its gap rows."""

    id: str  # path#address of the card in its document ("" for the document)
    entry: Entry
    card: ProofCard | None
    pointer: tuple[Any, ...]
    rows: list[Gap] = field(default_factory=list)


@dataclass
class Snapshot:
    version: str
    cards: dict[str, Card]
    problems: list[str]
    etags: dict[str, str]


def _hash(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()[:20]


def text_etag(text: str) -> str:
    return _hash(text.encode("utf-8"))


class Repository:
    """The files under `paths`, read again when they change; `root` bounds what is served."""

    def __init__(self, paths: list[Path], root: Path) -> None:
        self.paths = paths
        self.root = root.resolve()
        self.lock = threading.Lock()
        self.entries: dict[str, Entry] = {}  # by path as shown
        self.stamps: dict[str, tuple[tuple[int, int, int], str]] = {}
        self.latest: Snapshot | None = None

    def files(self) -> list[Path]:
        from cardkit.check.validate import collect_files

        return collect_files(self.paths)

    def etag(self, path: Path) -> str:
        """The file's content hash, computed again only when its stat changed."""
        info = os.stat(path)
        stamp = (info.st_ino, info.st_size, info.st_mtime_ns)
        known = self.stamps.get(str(path))
        if known is not None and known[0] == stamp:
            return known[1]
        digest = _hash(path.read_bytes())
        self.stamps[str(path)] = (stamp, digest)
        return digest

    def etags(self) -> dict[str, str]:
        found = {}
        with self.lock:
            for path in self.files():
                try:
                    found[str(path)] = self.etag(path)
                except OSError:
                    continue  # gone meanwhile: the next look says so
        return found

    def snapshot(self) -> Snapshot:
        """The cards with gaps, as the files are now (the same object while none changed)."""
        etags = self.etags()
        version = _hash("\n".join(f"{p} {e}" for p, e in sorted(etags.items())).encode())
        with self.lock:
            if self.latest is not None and self.latest.version == version:
                return self.latest
            for name in list(self.entries):
                if name not in etags:
                    del self.entries[name]
            for name, etag in etags.items():
                entry = self.entries.get(name)
                if entry is None or entry.etag != etag:
                    self.entries[name] = _read(Path(name), etag)
            self.latest = _assemble(version, list(self.entries.values()), etags)
            return self.latest


def _read(path: Path, etag: str) -> Entry:
    from cardkit.check.validate import schema_valid_one
    from cardkit.model import Diagnostic, printable
    from cardkit.render import content

    entry = Entry(path, etag)
    problems: list[Diagnostic] = []
    loaded = schema_valid_one(path, problems.append)  # the load -> schema step of validate
    if loaded is None:
        problem = problems[0]
        where = f"{problem.path}:{problem.line}:{problem.column}"
        entry.problem = printable(f"{where}: {problem.code} {problem.message}")
        return entry
    entry.document = loaded
    entry.cards = content.collect([loaded])
    return entry


def _pointer(document: Document, row: Gap) -> tuple[Any, ...]:
    from cardkit import addresses

    for address in (row.address, row.field.split(",")[0].strip()):
        if not address or "*" in address:
            continue
        try:
            return addresses.resolve(document.data, address)[0]
        except (CardkitError, KeyError, IndexError, TypeError):  # gone: the document's row
            continue
    return ()


def _assemble(version: str, entries: list[Entry], etags: dict[str, str]) -> Snapshot:
    from cardkit.gaps import rows as gaps

    documents = [e.document for e in entries if e.document is not None]
    rows: dict[str, list[Gap]] = {}
    for row in gaps.collect(documents) if documents else []:  # the rules run over them all
        rows.setdefault(row.path, []).append(row)
    cards: dict[str, Card] = {}
    for entry in entries:
        doc = entry.document
        if doc is None:
            continue
        for row in rows.get(doc.display_path, []):
            pointer = _pointer(doc, row)
            holding = [
                c for c in entry.cards if c.pointer and pointer[: len(c.pointer)] == c.pointer
            ]
            best = max(holding, key=lambda c: len(c.pointer), default=None)
            if best is None and len(entry.cards) == 1:
                best = entry.cards[0]  # a one-card document (a draft): the card is it all
            where = best.pointer if best is not None else ()
            ident = f"{doc.display_path}#{_address(doc, where)}"
            holder = cards.setdefault(ident, Card(ident, entry, best, where))
            holder.rows.append(row)
    problems = [e.problem for e in entries if e.problem]
    return Snapshot(version, cards, problems, etags)


def _address(document: Document, pointer: tuple[Any, ...]) -> str:
    from cardkit import addresses

    if not pointer:
        return ""
    try:
        return addresses.address_of(document.data, pointer)
    except (KeyError, IndexError, TypeError):
        return "/".join(map(str, pointer))
