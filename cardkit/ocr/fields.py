"""Fields: text read from a region to a typed value, corrected only against known words.

A correction is made only within a strict distance (one edit for words up to six
letters, two beyond; never more than a quarter of the word) and only to a word the
engine was unsure of; every correction is recorded, so the draft says what changed.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from cardkit.ocr.engine import Reading, Word

# Letters tesseract reads in place of digits, for number fields only.
DIGIT_LOOKALIKES = str.maketrans({"O": "0", "o": "0", "D": "0", "l": "1", "I": "1", "|": "1"})
DIGIT_LOOKALIKES.update(str.maketrans({"i": "1", "S": "5", "s": "5", "Z": "2", "z": "2"}))
DIGIT_LOOKALIKES.update(str.maketrans({"B": "8", "g": "9", "G": "6", "A": "4", "T": "7"}))
QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "`": "'"})
SURE = 0.80  # a word read at least this surely is never corrected


@dataclass
class FieldRead:
    field: str
    value: Any  # None when nothing usable was read
    confidence: float  # 0..1
    text: str = ""  # what the engine read, before parsing
    corrections: list[dict[str, str]] = dataclasses.field(default_factory=list)
    box: list[int] | None = None  # [left, top, width, height] on the scan's upright card
    gap: str = ""  # why nothing could be read, when that is known: the draft's gap note
    printed_none: bool = False  # the reader looked and the card prints none (no diagram)


def distance(a: str, b: str, limit: int = 3) -> int:
    """Levenshtein distance, stopping early once it exceeds `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def allowed(word: str) -> int:
    """The strict distance a word of this length may be corrected within."""
    return min(1 if len(word) <= 6 else 2, len(word) // 4)


def closest(word: str, vocabulary: list[str]) -> str | None:
    """The one vocabulary entry within the allowed distance (case-insensitive), if unique."""
    limit = allowed(word)
    if limit == 0:
        return None
    folded = word.casefold()
    hits = {v for v in vocabulary if distance(folded, v.casefold(), limit) <= limit}
    exact = [v for v in hits if v.casefold() == folded]
    if exact:
        return exact[0]
    return hits.pop() if len(hits) == 1 else None


def contains(text: str, keyword: str) -> bool:
    """The keyword's letters appear in the text's letters within the strict distance
    (small caps read as `sivE'ScHEME` still hold SIDE and SCHEME)."""
    letters = "".join(c for c in text.casefold() if c.isalnum())
    key = "".join(c for c in keyword.casefold() if c.isalnum())
    if not key:
        return False
    if key in letters:
        return True
    limit = max(1, allowed(key)) if len(key) >= 4 else 0
    if not limit:
        return False
    # within `limit` edits, one of `limit + 1` pieces of the keyword stands in the text as
    # it is (each edit spoils one piece at most): a text holding none cannot match, and is
    # not searched window by window (most texts hold no keyword)
    step = len(key) / (limit + 1)
    pieces = [key[round(i * step) : round((i + 1) * step)] for i in range(limit + 1)]
    if not any(piece in letters for piece in pieces):
        return False
    for size in (len(key) - 1, len(key), len(key) + 1):
        for start in range(0, max(0, len(letters) - size) + 1):
            if distance(letters[start : start + size], key, limit) <= limit:
                return True
    return False


SHORT_LABEL = 3  # a label this short (`HP`) is matched only as a word of its own


def has_label(text: str, label: str) -> bool:
    """The text holds the label: a short one as a word of its own (the letters of `each
    player` run together hold `hp`), a longer one as contains() finds it."""
    if len(re.sub(r"[^A-Za-z0-9]", "", label)) <= SHORT_LABEL:
        return re.search(rf"(?i)(?<![A-Za-z]){re.escape(label)}(?![A-Za-z])", text) is not None
    return contains(text, label)


def labels_of(options: dict[str, Any]) -> list[str]:
    """A rule's `label` or labels (`label: [Health, HP]`), as given."""
    given = options.get("label") or ""
    return (
        [str(g) for g in given if g] if isinstance(given, list) else [str(given)] if given else []
    )


def label_in(options: dict[str, Any], texts: list[str]) -> str:
    """A rule's `label` as the card prints it: of several (`label: [Health, HP]`, one
    design's word for another's), the one the texts (in reading order) hold first, else
    the first given: a card labelled `HP 3` whose rules text says `loses 1 Health` is
    labelled HP."""
    labels = labels_of(options)
    held = (label for t in texts for label in labels if label and has_label(t, label))
    return next(held, labels[0] if labels else "")


def _match_case(model: str, word: str) -> str:
    if word.isupper():
        return model.upper()
    if word[:1].isupper():
        return model[:1].upper() + model[1:]
    if word.islower():
        return model[:1].lower() + model[1:]
    return model


def correct_words(
    reading: Reading, vocabulary: list[str], field_name: str
) -> tuple[str, list[dict[str, str]]]:
    """The reading's text with unsure words snapped to vocabulary words; the corrections."""
    known = {v.casefold() for v in vocabulary}
    lines, corrections = [], []
    for line in reading.lines:
        if _noise_line(line):
            continue
        words = []
        for word in line:
            text = word.text
            if noise(word.text, word.confidence):
                continue
            core = text.strip(".,;:!?()'\"’")
            if (
                vocabulary
                and word.confidence < SURE
                and core.isalpha()
                and core.casefold() not in known
            ):
                found = closest(core, vocabulary)
                if found:
                    fixed = _match_case(found, core)
                    corrections.append(
                        {"field": field_name, "read": core, "corrected": fixed, "why": "vocabulary"}
                    )
                    text = text.replace(core, fixed)
            words.append(text)
        lines.append(" ".join(words))
    return "\n".join(lines), corrections


def noise(text: str, confidence: float) -> bool:
    """A speck or ornament read as a mark: no letter or digit, or one odd letter, read unsurely."""
    if not any(c.isalnum() for c in text):
        return confidence < 0.6 or text not in {"-", "—", "–", "&", ":", "/", "•"}
    core = text.strip(".,;:!?()'\"’‘“”»«")
    return len(core) == 1 and core not in "aAI0123456789" and confidence < 0.5


def paragraphs(reading: Reading) -> list[Reading]:
    """The reading cut where the space between two lines is clearly more than usual."""
    lines = reading.lines
    if len(lines) < 2:
        return [reading]
    spans = [
        (min(w.box[1] for w in line), max(w.box[1] + w.box[3] for w in line)) for line in lines
    ]
    heights = sorted(bottom - top for top, bottom in spans)
    usual = heights[len(heights) // 2]
    gaps = [spans[i + 1][0] - spans[i][1] for i in range(len(spans) - 1)]
    small = sorted(gaps)[: max(1, len(gaps) // 2)]
    normal_gap = small[-1] if small else 0
    out: list[list[Word]] = [list(lines[0])]
    for gap, line in zip(gaps, lines[1:], strict=True):
        if gap > normal_gap + 0.45 * usual:
            out.append([])
        out[-1].extend(line)
    return [Reading(tuple(words)) for words in out]


def _noise_line(line: list[Word]) -> bool:
    """A line of a few short marks read unsurely: an icon or ornament, not text."""
    letters = sum(sum(c.isalnum() for c in w.text) for w in line)
    mean = sum(w.confidence for w in line) / len(line)
    return letters <= 4 and mean < 0.5


def join_lines(text: str) -> str:
    """Lines of one paragraph to one line: hyphenated breaks joined, spaces single."""
    text = re.sub(r"(\w)-\n(\w)", r"\1\2", text)
    return re.sub(r"\s+", " ", text).strip()


def clean_line(text: str) -> str:
    """A one-line field: single spaces, no stray marks at the ends; an apostrophe glued to
    the last word's letters is the word's own (`Takin'`, `Thanos'`), not a stray mark,
    unless a quote opens the line (then it closes it)."""
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) <= 1:
        return text
    cleaned = text.strip(" .,:;|_-~'\"‘’“”").strip()
    elided = re.search(r"[A-Za-z](['’])$", text)
    if elided and cleaned and text.endswith(cleaned + elided.group(1)) and text[0] not in "'‘\"“":
        cleaned += elided.group(1)
    return cleaned


def number(text: str, signed: bool = False) -> int | None:
    """The number a cost, strength or move region shows; letters that look like digits mapped."""
    compact = re.sub(r"\s+", "", text)
    if not compact:
        return None
    # a number region holds a number or two: map lookalikes only in that short a reading
    mapped = compact.translate(DIGIT_LOOKALIKES) if len(compact) <= 3 else compact
    found = re.search(r"([+\-–]?)(\d+)", mapped)
    if not found:
        return None
    value = int(found.group(2))
    if signed and found.group(1) in ("-", "–"):
        value = -value
    return value


def snap(text: str, vocabulary: list[str]) -> tuple[str, list[dict[str, str]]]:
    """A whole field snapped to one vocabulary entry (a card type), within the strict distance.

    Marks without a letter or digit (ornaments read as `»`) are dropped first."""
    line = clean_line(" ".join(w for w in text.split() if any(c.isalnum() for c in w)))
    if not vocabulary or not line:
        return line, []
    best, best_d = None, 99
    for entry in vocabulary:
        d = distance(line.casefold(), entry.casefold(), 3)
        if d < best_d:
            best, best_d = entry, d
    if best is not None and best_d <= allowed(best):
        if best.casefold() == line.casefold():
            return best, []
        return best, [{"read": line, "corrected": best, "why": "vocabulary"}]
    return line, []


PARSERS = ("text", "line", "paragraphs", "int", "signed", "vocabulary", "code")


def parse(
    kind: str, reading: Reading, vocabulary: list[str], field_name: str
) -> tuple[Any, list[dict[str, str]]]:
    """A reading to a value of the field's kind (`parse:` in the template)."""
    if kind in ("int", "signed"):
        return number(reading.text, signed=kind == "signed"), []
    if kind == "vocabulary":
        value, fixes = snap(reading.text, vocabulary)
        return value or None, [{"field": field_name, **fix} for fix in fixes]
    text, fixes = correct_words(reading, vocabulary, field_name)
    if kind == "line":
        return clean_line(text) or None, fixes
    if kind == "code":
        compact = re.sub(r"[^0-9A-Za-z]", "", text.translate(QUOTES))
        return compact or None, fixes
    return join_lines(text) or None, fixes
