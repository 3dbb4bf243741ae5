"""Gap rows as each document is read: the one walk behind `cardkit gaps`, `gaps.collect`
and the build's gap lists.

Every document's noted and unconfirmed rows come first, as it is met (in the tree's
order); then the inferred rows, by rule and document. They wait in a Spool (on disk past
a run's size) until every rule has seen the tree, since a cross-file rule can still add
a row that folds another. What is held meanwhile: the stream rules' indexes, each
document's (rule, part) pairs that could fold a row, and the rows' order keys. The rules
run through the same step as `validate` (`check.walk.RuleWalk`), over the documents of
the same load -> schema step (`check.validate.schema_valid`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from cardkit.check import validate
from cardkit.check.rules import all_rules
from cardkit.check.walk import RuleWalk
from cardkit.files.spool import Spool
from cardkit.gaps.rows import (
    FIELDS,
    Gap,
    _Rows,
    gives_gaps,
    inferred_row,
    part_of,
    restated,
    restated_codes,
    said_by,
)
from cardkit.model import Diagnostic, Document, json_pointer

OnProblem = Callable[[Diagnostic], None]
Infer = Callable[..., None]  # (its rows, own rows, code, JSON pointer, message[, order])
Order = tuple[int, int, int]  # (rule, place in the tree, as found): how inferred rows sort


def stream(paths: Sequence[Path], on_problem: OnProblem) -> Iterator[Gap]:
    """Gap rows of the schema-valid files under paths, holding one document at a time;
    `on_problem` hears why the others are not read (as `gaps.load` would list them), as
    they are met."""
    yield from rows(validate.schema_valid(validate.collect_files(paths), on_problem))


def rows(
    documents: Iterable[Document], findings: Sequence[Diagnostic] | None = None
) -> Iterator[Gap]:
    """Noted and unconfirmed rows of each document as it comes, then the inferred ones.

    The game rules run over the documents, unless `findings` says what they found (a
    validate report's diagnostics: `build` runs the rules once for both); the inferred
    rows then keep the findings' order. A sequence of documents is held by its caller and
    placed from memory; an iterator's documents are let go, and one that a finding on the
    whole tree points at is read again. One row per field to check: a note whose doubts
    all have per-field rows is not listed again, and an inferred row that restates
    another row of its document folds into it.
    """
    rules = [rule for rule in all_rules() if gives_gaps(rule)]  # the inferred gaps
    walk = RuleWalk(rules) if findings is None else None
    given: dict[str, list[tuple[int, Diagnostic]]] = {}
    for order, finding in enumerate(findings or ()):
        given.setdefault(finding.path, []).append((order, finding))
    restates = restated_codes()
    folding = set().union(*restates.values())  # codes whose rows can fold another
    rank = {rule.code: number for number, rule in enumerate(rules)}
    tree_codes = {rule.code for rule in rules if rule.tree_check is not None}
    index: dict[str, int] = {}  # display path -> place in the tree
    parts: dict[int, set[tuple[str, str]]] = {}
    waiting: Spool[tuple[Order, int, tuple[Any, ...]]] = Spool(
        lambda item: item[0],
        run=5_000,  # a row is ~1.5 KB: hold fewer
    )
    found = iter(range(1 << 62))  # the order findings come in

    def infer(
        per_document: _Rows, own: list[Gap], code: str, where: str, message: str, given: int = 0
    ) -> None:
        row = inferred_row(per_document, code, where, message)
        place = index[row.path]
        if code in folding:
            parts.setdefault(place, set()).add((code, part_of(row)))
        if said_by(row, own):
            return
        if walk is None:  # the findings' own order
            order: Order = (0, 0, given)
        else:  # by rule, then document (a tree rule's findings come as it gives them)
            order = (rank[code], 0 if code in tree_codes else place, next(found))
        waiting.add((order, place, tuple(getattr(row, name) for name in FIELDS)))

    def visit(document: Document) -> list[Gap]:
        index.setdefault(document.display_path, len(index))
        per_document = _Rows(document)
        own = list(per_document.collect())
        if walk is None:
            for order, d in given.get(document.display_path, []):
                infer(per_document, own, d.code, d.pointer, d.message, order)
            return own
        for rule, finding in walk.see(document):
            where = json_pointer(finding.pointer)  # as a diagnostic carries it ("2" -> 2)
            infer(per_document, own, rule.code, where, finding.message)
        walk.done(document)
        return own

    document: Document | None = None
    with validate.collector_paused():
        for document in documents:
            yield from visit(document)
    document = None  # let the last one go before a late finding's document is read
    if walk is not None:
        kept = documents if isinstance(documents, Sequence) else walk.held
        _late(walk, {document.display_path: document for document in kept}, infer)
    for _, place, values in waiting.drain():
        row = Gap(*values)
        if not restated(row, parts.get(place, set()), restates):
            yield row


def _late(walk: RuleWalk, held: dict[str, Document], infer: Infer) -> None:
    """The findings given once the tree is seen, document by document: a document not
    held is read again (its own rows decide which findings they already say)."""
    late: dict[str, list[tuple[str, Any]]] = {}
    for rule, finding in walk.finish({}):
        late.setdefault(finding.document.display_path, []).append((rule.code, finding))
    for path, findings in late.items():
        _place(held.get(path), findings, infer)


def _place(document: Document | None, findings: list[tuple[str, Any]], infer: Infer) -> None:
    """One document's late findings as rows; a document let go is read again, and let go
    again on return, before the next is read."""
    if document is None:
        document = validate.schema_valid_one(findings[0][1].document.path, lambda _: None)
    if document is None:  # changed under us since it was read: nothing to point at
        return
    per_document = _Rows(document)
    own = list(per_document.collect())
    for code, finding in findings:
        infer(per_document, own, code, json_pointer(finding.pointer), finding.message)
