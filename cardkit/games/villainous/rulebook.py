"""A Disney Villainous user manual, as raw PDF text, -> documents.

The reader follows the manual's structure, not its sentences (the rules are written
down in docs/transcription-format.md, "Villainous user manual"):

1. residue: lines of digits only, and whatever precedes the board, are kept verbatim;
2. the board: lines in capitals, up to the villain's name in possessive capitals
   (`NAME’S`) over the objective heading; the line that repeats the name is the
   mover's spot, the others are the four locations, in order;
3. the objective: the lines after that heading, up to the end of its first sentence;
4. the reference: entries, each a short heading line followed by body lines;
5. the setup page: the illustration's labels and step numbers, then the steps.

Every line is either read into a field or kept verbatim in `kept_text`; what the
layout leaves ambiguous is marked unconfirmed, with a gap note saying why.
"""

from __future__ import annotations

import itertools
import re
import statistics
from dataclasses import dataclass, field
from typing import Any

from cardkit.games.villainous import NAME
from cardkit.rulebook import generic, words

SYSTEM = NAME
LOCATIONS = 4  # every Villainous board has four locations
HEADING_WORDS = 8  # a heading line has at most this many words
_END = (".", "!", "?")
_RESIDUE = re.compile(r"[\d ]+")
_CAPITALS = re.compile(r"[A-Z][A-Z’' ]*")
_LABELLED = re.compile(r"[A-Z][a-z]+:")  # "Note: ..." starts a paragraph of its own


@dataclass
class _Lines:
    lines: list[str]
    used: set[int] = field(default_factory=set)

    def text(self, index: int) -> str:
        return self.lines[index].strip() if 0 <= index < len(self.lines) else ""

    def next_filled(self, index: int) -> int:
        """The first non-blank line at or after `index` (len(lines) if none)."""
        while index < len(self.lines) and not self.text(index):
            index += 1
        return index

    def take(self, start: int, stop: int) -> list[str]:
        taken = [self.text(i) for i in range(start, stop) if self.text(i)]
        self.used.update(range(start, stop))
        return taken

    def kept(self) -> list[str]:
        return [line for i, line in enumerate(self.lines) if i not in self.used and line.strip()]


def _title_case(text: str) -> str:
    return " ".join(w.capitalize() if w.isupper() else w for w in text.replace("’", "'").split())


def _join(lines: list[str]) -> str:
    return " ".join(line.strip() for line in lines)


def _residue(line: str) -> bool:
    return bool(_RESIDUE.fullmatch(line))


def _capitals(line: str) -> bool:
    return bool(_CAPITALS.fullmatch(line)) and any(c.isalpha() for c in line)


def _ends_sentence(line: str) -> bool:
    return line.rstrip().endswith(_END)


def _heading_shaped(line: str) -> bool:
    return (
        bool(line)
        and (line[0].isupper() or line[0] in '“"‘')
        and len(line.split()) <= HEADING_WORDS
        and not line.endswith((*_END, ":", ",", ";"))
    )


def _body(line: str) -> bool:
    return bool(line) and (_ends_sentence(line) or len(line.split()) > HEADING_WORDS)


# -- the board ---------------------------------------------------------------


def _split_evenly(line: str, parts: int) -> list[str] | None:
    found = line.split()
    if parts < 1 or len(found) % parts:
        return None
    size = len(found) // parts
    return [" ".join(found[i : i + size]) for i in range(0, len(found), size)]


def _board(src: _Lines) -> tuple[dict[str, Any], str, int, list[str]]:
    """The board, the villain's name, the line after the objective heading, the residue."""
    start = next((i for i, line in enumerate(src.lines) if _capitals(line.strip())), len(src.lines))
    heading = next(
        (
            i
            for i in range(start, len(src.lines) - 1)
            if _capitals(src.text(i))
            and src.text(i).endswith(("’S", "'S"))
            and _capitals(src.text(src.next_filled(i + 1)))
        ),
        None,
    )
    if heading is None:
        raise ValueError("no villain's name in possessive capitals over an objective heading")
    name = src.text(heading)[:-2]
    lines = [i for i in range(start, heading) if src.text(i)]
    places = [src.text(i) for i in lines if src.text(i) != name]
    if len(places) < LOCATIONS and places:
        widest = max(range(len(places)), key=lambda k: len(places[k].split()))
        split = _split_evenly(places[widest], LOCATIONS - len(places) + 1)
        if split:
            places[widest : widest + 1] = split
    residue = [src.text(i) for i in range(start) if _residue(src.text(i))]
    src.take(start, heading)
    locations = [{"name": _title_case(place), "locked": False} for place in places]
    board = {
        "locations": locations,
        "unconfirmed": [f"locations/{i}/locked" for i in range(len(locations))],
    }
    return board, _title_case(name), src.next_filled(heading + 1) + 1, residue


def _objective(src: _Lines, start: int) -> tuple[str, int]:
    end = start
    while end < len(src.lines) and not _ends_sentence(src.text(end)):
        end += 1
    return _join(src.take(start, end + 1)), end + 1


# -- the reference -----------------------------------------------------------


def _starts_entry(src: _Lines, index: int) -> bool:
    """A heading line whose body follows, at most one page label line later."""
    if not _heading_shaped(src.text(index)):
        return False
    after = src.next_filled(index + 1)
    if _heading_shaped(src.text(after)):
        after = src.next_filled(after + 1)
    return _body(src.text(after))


def _paragraphs(lines: list[str]) -> str | list[str]:
    paragraphs: list[str] = []
    for line in lines:
        if not paragraphs or _LABELLED.match(line):
            paragraphs.append(line)
        else:
            paragraphs[-1] += " " + line
    return paragraphs if len(paragraphs) > 1 else paragraphs[0]


def _reference(src: _Lines, start: int) -> tuple[list[dict[str, Any]], int]:
    """Entries while a heading line is followed by body lines; a page label is kept."""
    entries: list[dict[str, Any]] = []
    index = src.next_filled(start)
    while index < len(src.lines) and _starts_entry(src, index):
        title = src.take(index, index + 1)[0]
        body = src.next_filled(index + 1)
        if not _body(src.text(body)):  # a page label between heading and body: kept verbatim
            body = src.next_filled(body + 1)
        end = body
        while end < len(src.lines) and (_body(src.text(end)) or not src.text(end)):
            end += 1
        entries.append({"title": title, "text": _paragraphs(src.take(body, end))})
        index = src.next_filled(end)
    return entries, index


# -- the setup page ----------------------------------------------------------


def _label(line: str) -> bool:
    """An illustration label: every word capitalised (or a parenthesis), no sentence."""
    return (
        bool(line)
        and not _ends_sentence(line)
        and not any(mark in line for mark in ",;:")
        and all(w[0].isupper() or not w[0].isalpha() for w in line.split())
    )


def _candidates(src: _Lines, start: int) -> list[int]:
    """Lines that may begin a step: a capital after a line that ended a sentence."""
    found: list[int] = []
    previous = ""
    for index in range(start, len(src.lines)):
        line = src.text(index)
        if not line or _residue(line):
            continue
        if not found or (_ends_sentence(previous) and line[0].isupper()):
            found.append(index)
        previous = line
    return found


def _steps_from(src: _Lines, first: int, count: int, stop: int) -> list[list[int]]:
    """The step runs: `count` of them, the split with the most even line counts.

    Steps sit in boxes of about the same size; where a step holds several sentences
    the text alone cannot tell its sentences from the next step's, so runs are merged
    into the split whose steps have the most even line counts.
    """
    starts = [i for i in _candidates(src, first) if i < stop]

    def filled(a: int, b: int) -> list[int]:
        return [i for i in range(a, b) if src.text(i) and not _residue(src.text(i))]

    best: tuple[float, list[list[int]]] | None = None
    for chosen in itertools.combinations(starts[1:], max(count - 1, 0)):
        bounds = [starts[0], *chosen, stop]
        runs = [filled(a, b) for a, b in itertools.pairwise(bounds)]
        spread = statistics.pvariance([len(run) for run in runs]) if len(runs) > 1 else 0.0
        if best is None or spread < best[0]:
            best = (spread, runs)
    return best[1] if best else []


def _numbering(src: _Lines, before: int, start: int) -> tuple[list[int], int]:
    """The illustration's step numbers (the last run of one-number lines before the
    steps) and the line after them, the illustration's heading."""
    run: list[int] = []
    for index in range(before - 1, start - 1, -1):
        line = src.text(index)
        if line.isdigit():
            run.insert(0, index)
        elif line and run:
            break
    return [int(src.text(i)) for i in run], (run[-1] + 1 if run else start)


def _span(numbers: list[int]) -> str:
    if numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 1:
        return f"steps {numbers[0]} to {numbers[-1]}"
    return "steps " + ", ".join(map(str, numbers))


def _setup(src: _Lines, start: int) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The setup document and, if the illustration numbers steps out of order, a gap note."""
    filled = [i for i in range(start, len(src.lines)) if src.text(i)]
    sentence_ends = [i for i in filled if _ends_sentence(src.text(i))]
    if not sentence_ends:
        raise ValueError("the setup page has no steps")
    first = sentence_ends[0]  # step 1 runs back from its first full stop to the labels
    while first - 1 >= start and src.text(first - 1) and not _label(src.text(first - 1)):
        first -= 1
    order, after = _numbering(src, first, start)
    heading = src.next_filled(after)
    labels = src.take(src.next_filled(heading + 1), first)
    last = sentence_ends[-1]
    residue = [
        int(n) for i in filled if i > first and _residue(src.text(i)) for n in src.text(i).split()
    ]
    total = max([*order, *residue], default=0)
    steps: list[dict[str, Any]] = []
    for number, run in enumerate(_steps_from(src, first, total, last + 1), start=1):
        src.used.update(run)
        steps.append({"n": number, "text": _join([src.text(i) for i in run])})
    moved = [k + 1 for k, n in enumerate(order) if n != k + 1 and k < len(steps)]
    for n in moved:
        steps[n - 1]["unconfirmed"] = ["n"]
    seats = _power_by_seat(str(steps[-1]["text"])) if steps else {}
    setup = {"steps": steps, "power_by_seat": {"seats": seats}, "labels": labels}
    if not moved:
        return setup, None
    gap = {
        "note": f"the setup illustration numbers its steps {', '.join(map(str, order))} in "
        f"layout order; {_span(moved)} are numbered here in the order their text appears, not "
        "confirmed against the printed page.",
        "deck": "setup",
        "fields": ["steps/*/n"],
        "cards": moved,
        "status": "open",
    }
    return setup, gap


_SEAT_SENTENCE = re.compile(
    r"The ((?:\w+)(?: and \w+)?) players? (?:each )?(?:does not start with|takes?) (\w+) Power"
)


def _power_by_seat(text: str) -> dict[str, int]:
    """ "The third and fourth players each take two Power": seats by ordinal, Power by number."""
    seats: dict[str, int] = {}
    for who, amount in _SEAT_SENTENCE.findall(text):
        power = 0 if amount == "any" else words.number(amount)
        for ordinal in who.split(" and "):
            seat = words.ordinal(ordinal)
            if seat is not None and power is not None:
                seats[str(seat)] = power
    return dict(sorted(seats.items()))


def detects(text: str) -> bool:
    """A Villainous manual names both of a villain's decks."""
    return "Villain Deck" in text and "Fate" in text


def warnings(documents: list[dict[str, Any]]) -> list[str]:
    return []


render = None  # the manual is raw layout text: there is no export back to it


def _words(text: str) -> list[str]:
    return re.findall(r"[\w'’“”]+", text.casefold().replace("’", "'"))


def unrepresented(text: str, documents: list[dict[str, Any]]) -> list[str]:
    """Source lines with a word that appears in no field of the documents."""
    corpus = set(_words(" ".join(generic.strings(documents))))
    return [line for line in text.splitlines() if any(w not in corpus for w in _words(line))]


def parse(text: str, box: str, source: str) -> list[dict[str, Any]]:
    src = _Lines(text.splitlines())
    board, name, after_heading, residue = _board(src)
    objective, after = _objective(src, after_heading)
    reference, after = _reference(src, after)
    setup, gap_steps = _setup(src, after)
    gap_board = {
        "note": "the board's lock marks and the stray numbers printed above it "
        f"({', '.join(residue)}) are layout residue of the PDF; which location carries a lock "
        "symbol cannot be read from the text.",
        "deck": "board",
        "fields": ["board/locations/*/locked"],
        "status": "open",
    }
    base = {"source": {"file": source}}
    documents = [
        {
            "kind": f"{SYSTEM}/villain",
            "id": words.slugify(name),
            "name": name,
            **base,
            "board": board,
            "objective": objective,
            "gaps": [gap_board],
        },
        {
            "kind": f"{SYSTEM}/setup",
            "id": f"{box}-setup",
            "name": "Setup",
            **base,
            **setup,
            **({"gaps": [gap_steps]} if gap_steps else {}),
        },
        {
            "kind": f"{SYSTEM}/rules-reference",
            "id": f"{box}-reference",
            "name": "Reference",
            **base,
            "entries": reference,
        },
    ]
    kept = src.kept()
    if kept:
        documents[0]["kept_text"] = kept
    return documents
