"""The rules framework: checks that schemas cannot express.

Each rule has a stable code, a severity and a one-line doc. Document rules see one
schema-valid document. Stream rules see the tree one document at a time and keep only
what they need (an index of ids, a count per box) until `finish`, so validating a tree
holds one document at a time, whatever its size. Tree rules see every schema-valid
document at once: simplest to write, but the whole tree is then held in memory.
Game systems register their rules from their own folder (see `cardkit.systems`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from cardkit.model import Document, Pointer, Severity


@dataclass(frozen=True, slots=True)
class DocumentRef:
    """A document already let go: enough to point at it, re-reading the file if asked."""

    path: Path
    display_path: str

    def locate(self, pointer: Pointer, *, key: bool = False) -> tuple[int, int]:
        try:
            info = self.path.stat()
            return _locator(self.path, info.st_mtime_ns, info.st_size)(pointer, key=key)
        except OSError:
            return (1, 1)


@lru_cache(maxsize=16)
def _locator(path: Path, mtime_ns: int, size: int) -> Callable[..., tuple[int, int]]:
    """One parse per file for the findings a rule gives once the tree is seen (they come
    file by file); keyed by size and time so an edited file is read again."""
    from cardkit.files import yamlio

    try:
        return yamlio.Locator(yamlio.read_text(path))
    except yamlio.YamlProblem:
        return lambda *_, **__: (1, 1)


def ref(document: Document) -> DocumentRef:
    return DocumentRef(document.path, document.display_path)


@dataclass(frozen=True)
class Finding:
    document: Document | DocumentRef
    pointer: Pointer
    message: str


class Collector(Protocol):
    """One run of a stream rule: sees each valid document once, then finishes."""

    def see(self, document: Document) -> Iterable[Finding]: ...

    def finish(self, outside_ids: dict[tuple[str, str], str]) -> Iterable[Finding]: ...


@dataclass
class Tree:
    """What tree rules see: the valid documents, and ids of files not validated this run."""

    documents: list[Document]
    outside_ids: dict[tuple[str, str], str] = field(default_factory=dict)  # (system, id) -> kind


DocumentCheck = Callable[[Document], Iterable[tuple[Pointer, str]]]
TreeCheck = Callable[[Tree], Iterable[Finding]]


@dataclass(frozen=True)
class Rule:
    code: str
    severity: Severity
    doc: str
    system: str
    kinds: frozenset[str] | None = None
    restates: frozenset[str] = frozenset()  # codes whose finding on the same part says it all
    document_check: DocumentCheck | None = None
    tree_check: TreeCheck | None = None
    collector: Callable[[], Collector] | None = None

    def applies_to(self, document: Document) -> bool:
        return self.kinds is None or document.kind in self.kinds

    def run(self, tree: Tree) -> Iterator[Finding]:
        if self.collector is not None:
            collector = self.collector()
            found = [f for document in tree.documents for f in collector.see(document)]
            found += collector.finish(tree.outside_ids)
            order = {d.display_path: i for i, d in enumerate(tree.documents)}
            # in the tree's order, as a rule that walks the documents would give them
            yield from sorted(found, key=lambda f: order.get(f.document.display_path, -1))
            return
        if self.tree_check is not None:
            yield from self.tree_check(tree)
            return
        assert self.document_check is not None
        for document in tree.documents:
            if self.applies_to(document):
                for pointer, message in self.document_check(document):
                    yield Finding(document, pointer, message)


RULES: dict[str, Rule] = {}


def _register(rule: Rule) -> None:
    if rule.code in RULES:
        raise ValueError(f"rule code {rule.code} registered twice")
    RULES[rule.code] = rule


def document_rule(
    code: str,
    severity: Severity,
    doc: str,
    *,
    system: str,
    kinds: Iterable[str] | None = None,
    restates: Iterable[str] = (),
) -> Callable[[DocumentCheck], DocumentCheck]:
    """Register a check; `restates`: codes whose finding on the same part says it already."""

    def register(check: DocumentCheck) -> DocumentCheck:
        kind_set = frozenset(kinds) if kinds is not None else None
        rule = Rule(code, severity, doc, system, kind_set, frozenset(restates), check)
        _register(rule)
        return check

    return register


def tree_rule(
    code: str, severity: Severity, doc: str, *, system: str, restates: Iterable[str] = ()
) -> Callable[[TreeCheck], TreeCheck]:
    def register(check: TreeCheck) -> TreeCheck:
        _register(Rule(code, severity, doc, system, restates=frozenset(restates), tree_check=check))
        return check

    return register


def stream_rule(
    code: str, severity: Severity, doc: str, *, system: str, restates: Iterable[str] = ()
) -> Callable[[Callable[[], Collector]], Callable[[], Collector]]:
    """Register a class (or factory) whose instances are Collectors: one per run."""

    def register(factory: Callable[[], Collector]) -> Callable[[], Collector]:
        rule = Rule(code, severity, doc, system, restates=frozenset(restates), collector=factory)
        _register(rule)
        return factory

    return register


def all_rules() -> list[Rule]:
    from cardkit import systems

    systems.load()
    return sorted(RULES.values(), key=lambda rule: rule.code)


# A system's reader of its gap notes: (document data, note text, address of the part
# holding the note) -> (each field address the note doubts -> the sentence doubting it,
# the sentences whose doubt no field of the data holds). `cardkit gaps` cites and folds by it.
NoteReader = Callable[[dict[str, Any], str, str], tuple[dict[str, str], list[str]]]
NOTE_READERS: dict[str, NoteReader] = {}


def note_reader(system: str) -> Callable[[NoteReader], NoteReader]:
    def register(reader: NoteReader) -> NoteReader:
        NOTE_READERS[system] = reader
        return reader

    return register


def reader_for(system: str) -> NoteReader | None:
    from cardkit import systems

    systems.load()
    return NOTE_READERS.get(system)
