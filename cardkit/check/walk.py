"""The rules step of every pipeline: a set of rules over documents met one at a time.

`validate` and `gaps` both walk the schema-valid documents (`validate.schema_valid`)
through a `RuleWalk`: document rules and stream rules see each document while it is
alive; once the walk is over, stream rules finish and tree rules see the documents
held for them. The walk holds a document only when a tree rule needs the whole tree
or its caller asks (`keep`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from cardkit.check.rules import Finding, Rule, Tree
from cardkit.model import Document

Found = tuple[Rule, Finding]


class RuleWalk:
    def __init__(self, rules: Sequence[Rule], *, keep: bool = False) -> None:
        self.per_document = [rule for rule in rules if rule.document_check is not None]
        self.collectors = [(rule, rule.collector()) for rule in rules if rule.collector]
        self.whole_tree = [rule for rule in rules if rule.tree_check is not None]
        self.holds = keep or bool(self.whole_tree)
        self.held: list[Document] = []

    def see(self, document: Document) -> list[Found]:
        """What the rules find in one document while it is alive (document rules in rule
        order, then the stream rules' findings so far)."""
        found: list[Found] = []
        for rule in self.per_document:
            if rule.applies_to(document):
                assert rule.document_check is not None
                for pointer, message in rule.document_check(document):
                    found.append((rule, Finding(document, pointer, message)))
        for rule, collector in self.collectors:
            found.extend((rule, finding) for finding in collector.see(document))
        return found

    def done(self, document: Document) -> None:
        """The caller is through with a document (its findings placed): held if needed,
        without its parse nodes (a held document re-reads its file to place a finding)."""
        if self.holds:
            self.held.append(document)
            document.locate.release()  # type: ignore[attr-defined]

    def finish(self, outside: dict[tuple[str, str], str]) -> Iterator[Found]:
        """What is found once every document is seen: stream rules, then tree rules.
        `outside`: (system, id) -> kind of files not walked, for references into them."""
        for rule, collector in self.collectors:
            for finding in collector.finish(outside):
                yield rule, finding
        for rule in self.whole_tree:
            for finding in rule.run(Tree(self.held, outside)):
                yield rule, finding
