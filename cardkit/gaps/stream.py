"""`cardkit gaps` over a tree of any size: the rows of each document as it is read.

The same rows, in the same order, as `gaps.collect` over the whole tree: every document's
noted and unconfirmed rows (in the tree's order), then the inferred rows by rule and
document. Each document's own rows are given while it is alive; its inferred rows wait
in a Spool (on disk past a run's size) until every rule has seen the tree, since a
cross-file rule can still add a row that folds another. What is held meanwhile: the
stream rules' indexes, each document's (rule, part) pairs that could fold a row, and the
rows' order keys.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from cardkit.check import validate
from cardkit.check.rules import Finding, all_rules
from cardkit.files.spool import Spool
from cardkit.gaps.rows import (
    FIELDS,
    Gap,
    _Rows,
    collect,
    gives_gaps,
    inferred_row,
    load,
    part_of,
    restated,
    restated_codes,
    said_by,
)
from cardkit.model import Diagnostic, Document, json_pointer

OnProblem = Callable[[Diagnostic], None]


def stream(paths: Sequence[Path], on_problem: OnProblem) -> Iterator[Gap]:
    """Gap rows of the schema-valid files under paths; `on_problem` hears why the others
    are not read (as `gaps.load` would list them), as they are met."""
    rules = [rule for rule in all_rules() if gives_gaps(rule)]  # the inferred gaps
    if any(rule.tree_check is not None for rule in rules):  # a rule that needs every document
        documents, problems = load(list(paths))
        for problem in problems:
            on_problem(problem)
        yield from collect(documents)
        return
    restates = restated_codes()
    folding = set().union(*restates.values())  # codes whose rows can fold another
    rank = {rule.code: index for index, rule in enumerate(rules)}
    collectors = [(rule, rule.collector()) for rule in rules if rule.collector is not None]
    index: dict[str, int] = {}  # display path -> place in the tree
    parts: dict[int, set[tuple[str, str]]] = {}
    waiting: Spool[tuple[int, int, tuple[Any, ...]]] = Spool(
        lambda item: (item[0], item[1]),
        run=5_000,  # a row is ~1.5 KB: hold fewer
    )

    def infer(per_document: _Rows, own: list[Gap], code: str, finding: Finding) -> None:
        where = json_pointer(finding.pointer)  # as a diagnostic carries it (keys "2" -> 2)
        row = inferred_row(per_document, code, where, finding.message)
        place = index[row.path]
        if code in folding:
            parts.setdefault(place, set()).add((code, part_of(row)))
        if not said_by(row, own):
            waiting.add((rank[code], place, tuple(getattr(row, name) for name in FIELDS)))

    document: Document | None = None
    with validate.collector_paused():
        for document in validate.schema_valid(validate.collect_files(paths), on_problem):
            index.setdefault(document.display_path, len(index))
            per_document = _Rows(document)
            own = list(per_document.collect())
            yield from own
            for rule in rules:
                if rule.document_check is not None and rule.applies_to(document):
                    for pointer, message in rule.document_check(document):
                        infer(per_document, own, rule.code, Finding(document, pointer, message))
            for rule, collector in collectors:
                for finding in collector.see(document):
                    infer(per_document, own, rule.code, finding)
    late: dict[str, list[tuple[str, Finding]]] = {}  # findings on documents let go
    for rule, collector in collectors:
        for finding in collector.finish({}):
            late.setdefault(finding.document.display_path, []).append((rule.code, finding))
    for findings in late.values():
        # the same name: the main loop's last document is let go before this one is read
        document = validate.schema_valid_one(findings[0][1].document.path, lambda _: None)
        if document is None:  # changed under us since it was read: nothing to point at
            continue
        per_document = _Rows(document)
        own = list(per_document.collect())
        for code, finding in findings:
            infer(per_document, own, code, finding)
    for _, place, values in waiting.drain():
        row = Gap(*values)
        if not restated(row, parts.get(place, set()), restates):
            yield row
