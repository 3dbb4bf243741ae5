"""The card's kind chosen on evidence: every kind of every candidate system scored on the
whole-card read (and the best template's probe score), the card read each way up until
some kind's headings are found (decide.py weighs the candidates)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image

from cardkit.ocr import decide, geometry, grammar, layout, line_finder, page
from cardkit.ocr.engine import OcrEngine, Reading
from cardkit.ocr.intake import Frame
from cardkit.ocr.region_reader import ACCEPT, KEYWORD

if TYPE_CHECKING:
    from cardkit.ocr.pipeline import Options


def systems_in_path(path: Path, names: list[str]) -> tuple[str, ...]:
    """A folder on the scan's path named after a system (`scans/villainous/...`) names it."""
    parts = {part.casefold().replace("_", "-") for part in path.resolve().parts[:-1]}
    return tuple(name for name in names if name in parts)


# a way up's read: evidence seen, upright, worth, lines, card, turn, kinds, read in full
Found = tuple[int, bool, float, list[page.Line], Image.Image, int, list[grammar.Kind], bool]
Weighed = tuple[decide.Decision | None, grammar.Kind | None, list[page.Line], Image.Image, int]


def weigh(
    frame: Frame,
    engine: OcrEngine,
    options: Options,
    chosen: list[layout.TemplateSet],
    level: Image.Image,
    level_turn: int,
    turns: list[int],
    best: tuple[float, layout.Template, int, Image.Image, str] | None,
    reader_variant: str = "",
    reader_cache: tuple[Reading, ...] = (),
    sure: bool = False,
    probed: dict[str, tuple[float, bool, str, str, int]] | None = None,
    early: dict[int, list[page.Line]] | None = None,
) -> Weighed:
    """Every kind of every candidate system scored on the card's whole-card read (see
    decide.py); the grammar kind to read the card by, when one wins with evidence. The
    card is read stood up as its text's axis says, then (while no kind's headings are
    found) the other ways up: a square card's axis is a guess. When no kind's headings are
    read at all, the lines found by shape (line_finder.py) are added. `probed` holds each
    kind's best template probe (and the way up it was read): every kind is a candidate,
    not only the best template's; once words read across the card, a template probed with
    the card on its side is none (its regions were read across the lines). `early`: a way
    up's first read, read already (pipeline.read_frame, before it probed the other ways up)."""
    hinted = set(options.systems or systems_in_path(frame.source, [s.system for s in chosen]))
    every = [k for s in chosen for k in grammar.grammars().get(s.system, ()) if k.rules]
    found: Found | None = None
    best_first = 0.0  # the worth of the best first read of a way up
    read_across: list[int] = []  # the ways up whose first read ran across the card
    read_down: list[int] = []  # ... and those read surely, in lines running down it
    tried: list[Found] = []
    for turn in turns:
        card = geometry.rotate(level, (turn - level_turn) % 360)
        kinds = [k for k in every if grammar.shape_fits(k, card.width, card.height)]
        if found is not None and not kinds:
            continue
        if any((turn - other) % 180 for other in read_across):
            # a quarter turn from a way up read across: tesseract reads the same words in
            # lines down the card (never across, on the design samples), which cannot win
            continue
        if any((turn - other) % 360 == 180 for other in read_down):
            # half a turn from a way up read surely down the card: the same lines, upside
            # down, read down it too and less surely (0.23-0.43 after 0.86-0.96 on designs)
            continue
        key = f"{frame.name}/{turn}{reader_variant}"
        lines = early[turn] if early and turn in early else page.first_read(card, engine, key)
        first = sum(ln.confidence * len(ln.text) for ln in lines)
        across = upright(lines)
        sure_upright = surely_across(lines)
        if across:
            read_across.append(turn)
        elif surely_upright(lines):
            read_down.append(turn)
        # a card read on its side is not read again (this way up is wrong), nor one read
        # less surely than a way up read before (upside down, the same lines read worse)
        # (not on a large card: measured there with places, a real location lost its text)
        full = across and (first >= best_first or max(card.size) >= page.LARGE)
        best_first = max(best_first, first)
        if full:
            lines = page.read_more(card, engine, key, lines)
            across = upright(lines)
        seen = max((len(grammar.evidence(k, lines)) for k in kinds), default=0)
        if not across:
            seen = 0  # lines read down the card: tesseract read it on its side
        worth = sum(ln.confidence * len(ln.text) for ln in lines)
        # a way up whose lines run across the card beats one read down it, however much
        # the engine read turned (it reads a card on its side as well as upright)
        tried.append((seen, across, worth, lines, card, turn, kinds, full))
        if found is None or (seen, across, worth) > found[:3]:
            found = tried[-1]
        if seen or not every or sure_upright:
            break  # (read across and surely: upside down or on its side reads no truer)
    assert found is not None
    _, _, _, lines, card, turn, kinds, full = found
    if not full:  # every way up read on its side: the one kept is read in full
        lines = page.read_more(card, engine, f"{frame.name}/{turn}{reader_variant}", lines)
    if kinds and not any(grammar.evidence(k, lines, signs=False) for k in kinds):
        # no kind's headings read (a sign is no heading: a numbered title beside a MOVE
        # label on a dark band the page read missed): the engine's layout analysis may
        # have taken a sparse card for a picture; the lines found by shape, each read
        # alone, are added. With no way up read across, each way up read is tried so
        # (a sparse card's junk read on its side says nothing of its way up)
        others = [] if found[1] else [t for t in tried if t is not found and t[6]]
        for _, _, _, some, turned, quarter, fitting, _ in [found, *others]:
            key = f"{frame.name}/{quarter}/lines"
            more = line_finder.merged(some, line_finder.read_lines(turned, engine, key, some))
            if any(grammar.evidence(k, more, signs=False) for k in fitting):
                # kept only where they read a kind's label: else art read as words
                lines, card, turn, kinds = more, turned, quarter, fitting
                break
    # what the templates' regions read counts as evidence too (a coloured header the
    # whole-card read missed), though only the page's lines are given to fields
    heard = lines + [
        page.Line(" ".join(w.text for w in ln), 1.0, (0, 0, 1, 1), 1.0)
        for reading in reader_cache
        for ln in reading.lines
    ]
    # the template first: a tie goes to it (where a template fits its design it reads
    # better than the grammar; the grammar wins only with more evidence)
    candidates = []
    across = upright(lines)

    def sideways(rotation: int) -> bool:
        return across and (rotation - turn) % 180 != 0

    if best is not None and not sideways(best[2]):
        template = best[1]
        score = min(1.0, best[0] / (ACCEPT + KEYWORD))
        score += decide.HINT if template.system in hinted else 0
        # a keyword read, as the probe said (its score alone says nothing: regions read at
        # 0.69 with no keyword score as much as a keyword read unsurely)
        own = (probed or {}).get(template.kind)
        keyword = sure or bool(own and own[2] == template.ident and own[1])
        what = f"its probe regions read at {best[0]:.2f}" + (
            f", a keyword of {', '.join(template.keywords)} read"
            if keyword
            else f", no keyword of {', '.join(template.keywords)}"
        )
        candidates.append(decide.Candidate(template.ident, template.kind, score, what, keyword))
    for other, (read, said, ident, system, rotation) in (probed or {}).items():
        if best is not None and other == best[1].kind and not sideways(best[2]):
            continue  # the best template's kind is in already: every other kind's best too
        if sideways(rotation):
            continue
        score = min(1.0, read / (ACCEPT + KEYWORD)) + (decide.HINT if system in hinted else 0)
        what = f"its probe regions read at {read:.2f}" + (", a keyword read" if said else "")
        candidates.append(decide.Candidate(ident, other, score, what, said))
    # read down the card, its labels say nothing
    shapes = _structures(card, kinds, tuple(lines)) if across else set()

    # a kind whose shape does not fit, whose own labels are read across the card (a strip
    # location printing END OF TURN), is a candidate too, MISFIT lower: never a sure kind
    labelled = {
        k.ident: labels_read
        for k in (every if across else [])
        if k not in kinds and (labels_read := grammar.evidence(k, heard, signs=False))
    }
    misfit = [k for k in every if k.ident in labelled]
    evidence_of = {  # each kind's headings read, and its structures found
        kind.ident: (grammar.evidence(kind, heard) if across else [])
        + [STRUCTURE_NAMES[s] for s in kind.structures if s in shapes]
        for kind in kinds
    }
    evidence_of.update(labelled)

    def share(kind: grammar.Kind) -> float:
        return min(1.0, len(evidence_of[kind.ident]) / max(1, len(kind.evidence)))

    for kind in kinds + misfit:
        seen_here = evidence_of[kind.ident]
        score = share(kind) - (MISFIT if kind in misfit else 0)
        score += decide.HINT if kind.system in hinted else 0
        what = f"read {', '.join(seen_here)}" if seen_here else "none of its headings read"
        if kind in misfit:
            what += f", though its shape does not fit (width/height {card.width / card.height:.2f}"
            what += f", the kind's {kind.aspect:.2f})"
        ident = f"grammar {kind.ident}"
        candidates.append(decide.Candidate(ident, kind.kind, score, what, bool(seen_here)))
    decision = decide.decide(candidates)
    if decision and any(f"grammar {k.ident}" == decision.best.ident for k in misfit):
        decision = decide.Decision(replace(decision.best, evidenced=False), decision.runner_up)
    pool = kinds + misfit
    won = next((k for k in pool if decision and f"grammar {k.ident}" == decision.best.ident), None)
    evidenced = share(won) if won else 0.0
    if won is not None and (not across or evidenced < decide.LEAST):
        won = None
    if (
        won is not None
        and not won.always
        and sure
        and decision
        and candidates[0].kind == won.kind
        and template_fits(candidates[0], decision)
    ):
        # the template of a known design read its keyword and files the card under the
        # grammar's kind: it reads that design better (templates sharpen, kinds stay)
        return decision, None, lines, card, turn
    if won is None and decision is not None:  # a template decided the kind: a kind its
        # grammar reads on any design (`reads: grammar`) is read so, not by the template
        won = next((k for k in kinds if k.always and k.kind == decision.best.kind), None)
    return decision, won, lines, card, turn


STRUCTURE_NAMES = {"placement": "a placement diagram"}
MISFIT = 0.5  # taken from the score of a kind whose shape does not fit the card


def _structures(
    card: Image.Image, kinds: list[grammar.Kind], lines: tuple[page.Line, ...] = ()
) -> set[str]:
    """The `structures` of the kinds found on the card: a placement diagram is a row of
    three or four alike slots, or of two with the Villain's marked (two alike boxes alone
    are any card's pair of panels)."""
    wanted = {s for k in kinds for s in k.structures}
    found = set()
    if "placement" in wanted:
        from cardkit.ocr import slots

        if slots.diagram_found(card, slots.words_of(lines)):
            found.add("placement")
    return found


def upright(lines: list[page.Line]) -> bool:
    """The lines of words run across the card (a lone digit, an icon read as a letter
    stand as tall as wide either way: a placement diagram's icons say nothing, and
    neither does a read with no word of three letters)."""
    wordy = [ln for ln in lines if sum(c.isalpha() for c in ln.text) >= 3]
    # with no word of three letters read, nothing says the lines run across (`ke`, `wo`
    # read off a sparse card on its side would forbid the upright ways a look)
    return page.stands_upright(wordy) if wordy else False


UPRIGHT_CONFIDENCE = 0.75  # a first read across the card this sure stands it upright ...
UPRIGHT_LETTERS = 15  # ... when it read this many letters: upside down, the same card's
# words read at 0.07-0.62 (most below 0.45), upright at 0.78-0.97 (Marvel United designs);
# on its side tesseract reads the same words as upright, but in lines running down the card


def surely_upright(lines: list[page.Line]) -> bool:
    """The card's first read stands it upright beyond doubt (its lines running across it;
    or, running down it, on its side): the other ways up are not read."""
    letters = sum(sum(c.isalpha() for c in ln.text) for ln in lines)
    if letters < UPRIGHT_LETTERS:
        return False
    weighed = sum(ln.confidence * sum(c.isalpha() for c in ln.text) for ln in lines)
    return weighed / letters >= UPRIGHT_CONFIDENCE


def surely_across(lines: list[page.Line]) -> bool:
    """The first read runs across the card, surely: the card stands upright this way up
    (weigh reads no other way up; read_frame probes no other way up)."""
    return upright(lines) and surely_upright(lines)


def template_fits(template: decide.Candidate, decision: decide.Decision) -> bool:
    """A template that read its keyword (`sure`) is the design's when the grammar of the
    same kind beat it by less than the margin that makes a kind sure: a probe read on a
    phone photo scores low, though its keyword was found where the design prints it."""
    return decision.best.score - template.score < decide.MARGIN
