"""Which kind a card is, from evidence, with honest doubt.

Every candidate is scored on the same scale (0..1, plus a hint): a template by how well
its probe regions read (1 when one of its keywords was read surely), a grammar kind by
the share of its printed headings and labels found on the card, if its shape fits. A
system the user named (`--system`), or a folder on the scan's path, adds HINT to its
kinds: evidence, not a verdict. When the best does not beat the runner-up by MARGIN, the
draft lists `kind` as unconfirmed and its gap note names the runner-up and the evidence;
so it does when the best read nothing of its own (no keyword, no heading): a system's hint
and a template's probe reading some text decide no kind.
"""

from __future__ import annotations

from dataclasses import dataclass

HINT = 0.25  # a system named by --system or by a folder on the scan's path
MARGIN = 0.25  # the best must beat the runner-up by this much to be sure
LEAST = 0.5  # a grammar kind needs at least this much evidence to be read by


@dataclass(frozen=True)
class Candidate:
    ident: str  # `system/template` or `system/grammar-kind`
    kind: str  # the document kind it files the card under
    score: float
    evidence: str  # what was seen, in words
    evidenced: bool = True  # something of its own was read (a keyword, a heading): a kind
    # that wins by a hint and a probe's reading alone is no sure kind


@dataclass(frozen=True)
class Decision:
    best: Candidate
    runner_up: Candidate | None

    @property
    def sure(self) -> bool:
        if not self.best.evidenced:
            return False
        return self.runner_up is None or self.best.score - self.runner_up.score >= MARGIN

    def note(self) -> str:
        other = self.runner_up
        if other is None:
            return (
                f"kind not sure: read as {self.best.kind} ({self.best.ident}: "
                f"{self.best.evidence}), and nothing else was read: check the card's kind"
            )
        if not self.best.evidenced:
            return (
                f"kind not sure: read as {self.best.kind} ({self.best.ident}, score "
                f"{self.best.score:.2f}: {self.best.evidence}), none of its own labels read; "
                f"runner-up {other.kind} ({other.ident}, score {other.score:.2f}: "
                f"{other.evidence}): check the card's kind"
            )
        return (
            f"kind not sure: read as {self.best.kind} ({self.best.ident}, score "
            f"{self.best.score:.2f}: {self.best.evidence}), but {other.kind} ({other.ident}, "
            f"score {other.score:.2f}: {other.evidence}) is close: check the card's kind"
        )


def decide(candidates: list[Candidate]) -> Decision | None:
    """The best candidate and its runner-up of another kind (two templates of one kind,
    the two sides of a scheme, do not make the kind unsure)."""
    ranked = sorted(candidates, key=lambda c: -c.score)
    if not ranked:
        return None
    best = ranked[0]
    other = next((c for c in ranked[1:] if c.kind != best.kind), None)
    return Decision(best, other)
