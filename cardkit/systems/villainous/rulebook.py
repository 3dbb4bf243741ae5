"""A Disney Villainous user manual, as raw PDF text, -> documents.

The text is layout noise around a few facts: the villain's board (locations in
order), the objective, the setup steps, the starting Power by seat and the rules
reference. Every line is either read into a field or kept verbatim in `kept_text`;
what the noise leaves ambiguous is marked unconfirmed, with a gap note saying why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

SYSTEM = "villainous"
REFERENCE_TITLES = (
    "Ending the Game",
    "Realm",
    "Locked Locations",
    "“Playing” Cards and “Moving” Cards",
    "“Revealing” Cards and “Looking at” Cards",
    "“Finding” a Hero",
)
# Setup step openings, in the order the manual's text gives them.
STEP_OPENINGS = (
    "Each player chooses",
    "Place your Board",
    "Draw a starting hand",
    "If the right-most",
    "Shuffle your Villain",
    "Shuffle your Fate",
    "Place the Power Tokens",
    "Choose a player to go first",
)
SEAT_WORDS = {"first": [1], "second": [2], "third and fourth": [3, 4], "fifth and sixth": [5, 6]}
POWER_WORDS = {"any": 0, "one": 1, "two": 2, "three": 3}


@dataclass
class _Lines:
    lines: list[str]
    used: set[int] = field(default_factory=set)

    def find(self, text: str, start: int = 0) -> int:
        for index in range(start, len(self.lines)):
            if self.lines[index].strip() == text:
                return index
        raise ValueError(f"the manual has no line {text!r}")

    def take(self, start: int, stop: int) -> list[str]:
        taken = [self.lines[i] for i in range(start, stop) if self.lines[i].strip()]
        self.used.update(range(start, stop))
        return taken

    def kept(self) -> list[str]:
        return [line for i, line in enumerate(self.lines) if i not in self.used and line.strip()]


def _title_case(text: str) -> str:
    return " ".join(w.capitalize() if w.isupper() else w for w in text.replace("’", "'").split())


def _join(lines: list[str]) -> str:
    return " ".join(line.strip() for line in lines)


def _board(src: _Lines) -> tuple[dict[str, Any], str, str]:
    first = src.find("JOLLY ROGER")
    villain_line = src.find("CAPTAIN HOOK", first)
    others = src.lines[villain_line + 1]
    names = [src.lines[first].strip(), *_split_caps(others)]
    src.take(first, villain_line + 2)
    locations = [{"name": _title_case(n), "locked": False} for n in names]
    board = {
        "locations": locations,
        "unconfirmed": [f"locations/{i}/locked" for i in range(len(locations))],
    }
    objective_start = src.find("OBJECTIVE")
    end = src.find("Ending the Game", objective_start)
    objective = _join(src.take(objective_start + 1, end))
    return board, _title_case(src.lines[villain_line]), objective


def _split_caps(line: str) -> list[str]:
    """'SKULL ROCK MERMAID LAGOON HANGMAN’S TREE' -> three two-word names."""
    words = line.split()
    return [" ".join(words[i : i + 2]) for i in range(0, len(words), 2)]


def _reference(src: _Lines) -> list[dict[str, Any]]:
    starts = [src.find(title) for title in REFERENCE_TITLES]
    stop = src.find("Cauldron of")
    entries = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else stop
        src.take(start, start + 1)
        body = [line for line in src.take(start + 1, end) if line.strip() != "Reference"]
        if index == 0:
            src.used.discard(src.find("Reference"))  # a page label, kept verbatim
        paragraphs: list[str] = []
        for line in body:
            if line.startswith("Note:") or not paragraphs:
                paragraphs.append(line.strip())
            else:
                paragraphs[-1] += " " + line.strip()
        entries.append(
            {
                "title": src.lines[start].strip(),
                "text": paragraphs if len(paragraphs) > 1 else paragraphs[0],
            }
        )
    return entries


def _setup(src: _Lines) -> dict[str, Any]:
    starts = []
    cursor = src.find("Setup")
    for opening in STEP_OPENINGS:
        cursor = next(i for i in range(cursor, len(src.lines)) if src.lines[i].startswith(opening))
        starts.append(cursor)
    steps = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else src.find("Lock Token", start)
        text_lines = [
            line
            for line in src.lines[start:end]
            if line.strip() and not re.fullmatch(r"[\d ]+", line)
        ]
        src.used.update(i for i in range(start, end) if src.lines[i] in text_lines)
        steps.append({"n": index + 1, "text": _join(text_lines)})
    for step in steps[2:5]:
        step["unconfirmed"] = ["n"]
    labels_start, labels_end = src.find("Setup"), starts[0]
    labels = [line.strip() for line in src.take(labels_start + 1, labels_end)]
    seats = _power_by_seat(str(steps[-1]["text"]))
    return {"steps": steps, "power_by_seat": {"seats": seats}, "labels": labels}


def _power_by_seat(text: str) -> dict[str, int]:
    seats: dict[str, int] = {}
    pattern = (
        r"The (first|second|third and fourth|fifth and sixth) players? "
        r"(?:each )?(?:does not start with|takes?) (any|one|two|three) Power"
    )
    for who, amount in re.findall(pattern, text):
        for seat in SEAT_WORDS[who]:
            seats[str(seat)] = POWER_WORDS[amount]
    return dict(sorted(seats.items()))


def parse(text: str, box: str, source: str) -> list[dict[str, Any]]:
    src = _Lines(text.splitlines())
    board, name, objective = _board(src)
    reference = _reference(src)
    setup = _setup(src)
    villain_id = re.sub(r"[^a-z0-9]+", "-", name.lower().replace("'", "")).strip("-")
    gap_board = {
        "note": "the board's lock marks and the stray numbers printed above it (10, 3, 1 1 2, 3) "
        "are layout residue of the PDF; which location carries a lock symbol cannot be read "
        "from the text.",
        "deck": "board",
        "fields": ["board/locations/*/locked"],
        "status": "open",
    }
    gap_steps = {
        "note": "the setup illustration numbers its steps 1, 2, 5, 3, 4 in layout order; steps 3 "
        "to 5 are numbered here in the order their text appears, not confirmed against the "
        "printed page.",
        "deck": "setup",
        "fields": ["steps/*/n"],
        "cards": [3, 4, 5],
        "status": "open",
    }
    base = {"source": {"file": source}}
    documents = [
        {
            "kind": f"{SYSTEM}/villain",
            "id": villain_id,
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
            "gaps": [gap_steps],
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
    corpus = set(_words(" ".join(_strings(documents))))
    return [line for line in text.splitlines() if any(w not in corpus for w in _words(line))]


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [str(value)]
