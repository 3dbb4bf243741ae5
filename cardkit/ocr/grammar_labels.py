"""How a grammar kind's labels, headings and titles are told among a card's lines
(grammar.py reads by them): a label on a short line of its own, not inside a sentence; a
heading; a flag word alone; a title cut before a label of its card; a number printed
beside its label; a title at the card's foot."""

from __future__ import annotations

import re

from cardkit.ocr import fields, lines_read
from cardkit.ocr.grammar_kinds import Kind
from cardkit.ocr.grammar_lines import strip_marks
from cardkit.ocr.page import Line

LABEL_SLACK = 12  # a label's line holds at most this many letters more than the label
SHORT_LABEL = 5  # a label this short is matched inexactly only on a line of its own


def labels(text: str, label: str, slack: int = LABEL_SLACK) -> bool:
    letters = len(re.sub(r"[^A-Za-z]", "", text))
    size = len(re.sub(r"[^A-Za-z]", "", label))
    if letters > size + slack or not fields.contains(text, label) or sentence(text, label):
        return False
    if size <= SHORT_LABEL and _among_words(text, label):
        return False
    # a short label misread by a letter is one only alone on its line: inside a longer
    # one a near miss is another word (`Mole Man 2` is no MOVE)
    return size > SHORT_LABEL or letters <= size + 2 or spelt(text, label)


def _among_words(text: str, label: str) -> bool:
    """A short label's word set in small letters among other words of three letters or
    more, not in capitals (`Double Move`, an effect's name): a word of the text, not the
    printed label (a label printed in capitals stays one beside words: `Fixer HP 3`, `Then
    BAM!`; and so does one beside a flag word read on its line: `2 BAM! Move`)."""
    words = [w.strip("()[]{}|:.,;") for w in text.split()]
    own = [w for w in words if w.casefold() == label.casefold().strip(":")]
    others = [
        w for w in words if w not in own and sum(c.isalpha() for c in w) >= 3 and not w.isupper()
    ]
    return bool(own and others) and not any(w.isupper() for w in own)


def sentence(text: str, label: str) -> bool:
    """The label's word, not in capitals, opens a sentence: the word after it is in small
    letters (`Move the Hero ...`, the words beside an effect's name tag, is no MOVE label;
    `VILLAIN jz`, the label printed in capitals with a speck read after it, is one)."""
    words = text.split()
    size = len(label.split())
    for n in range(len(words) - size):
        own = " ".join(words[n : n + size])
        if own.casefold().strip(":") == label.casefold():
            return not own.isupper() and words[n + size][:1].islower()
    return False


def spelt(text: str, label: str) -> bool:
    letters = "".join(c for c in text.casefold() if c.isalnum())
    return "".join(c for c in label.casefold() if c.isalnum()) in letters


def bottom_title(
    kind: Kind, lines: list[Line], left: list[str], below: float, least: float, taller: float
) -> int | None:
    """With `bottom: true` and no title in the top band: the lowest line in the bottom
    band set in capitals (a strip card prints its name at the bottom) or, with `taller`,
    set that much larger than the text (a design that prints every name on a band at the
    card's foot), no sentence, no label, no flag word."""
    for i in range(len(lines) - 1, -1, -1):
        line, text = lines[i], left[i]
        if line.box[1] + line.box[3] < below:  # its foot in the band
            break
        letters = [c for c in text if c.isalpha()]
        capitals = len(letters) >= 3 and sum(c.isupper() for c in letters) >= 0.8 * len(letters)
        larger = bool(taller) and len(letters) >= 3 and line.height >= taller
        # ... and opening with a capital, with no end stop: a name, not a paragraph's last
        # line set taller by its inline icons (`between op, ax. and AX.`)
        larger = larger and letters[0].isupper() and not text.rstrip().endswith(".")
        if not (capitals or larger) or line.confidence < least:
            continue
        if lines_read.SENTENCE.search(text) or flag_word(kind, text):
            continue
        if not is_heading(kind, text) and not labelled(kind, text):
            return i
    return None


def inline(text: str, printed: str) -> re.Match[str] | None:
    """A number printed beside its label on one line (`5 Health` on a bar, `(Heath 5` in a
    pill read as the label misspelt by a letter, as has_label allows)."""
    spellings = {printed}
    for token in text.split():
        bare = token.strip("()[]{}|:.,;")
        if bare and fields.has_label(bare, printed) and len(bare) <= len(printed) + 1:
            spellings.add(bare)
    for spelt in sorted(spellings, key=lambda s: s != printed):
        word = rf"(?<![A-Za-z]){re.escape(spelt)}(?![A-Za-z])"
        found = re.search(rf"(?i)(\d{{1,2}})\W*{word}|{word}\W*(\d{{1,2}})", text)
        if found:
            return found
    return None


def rule_labels(kind: Kind) -> list[str]:
    """The labels the kind's number rules read by (`Health`, `HP`, `MOVE`), and the row
    labels its tables print (`labels: [Heroes, Health]`)."""
    return [
        label
        for r in kind.rules
        if r.how in ("number", "near", "table")
        for label in fields.labels_of(r.options) + [str(x) for x in r.options.get("labels", [])]
    ]


def only_label(kind: Kind, text: str) -> bool:
    """The line is one of the kind's rule labels alone (a table's `Heroes` over its
    counts): no title, and no rules text."""
    bare = text.strip().strip("()[]{}|:.,;").casefold()
    return bool(bare) and any(bare == label.casefold() for label in rule_labels(kind))


def before_label(kind: Kind, head: str, rest: str) -> tuple[str, str]:
    """A title cut before a word that is one of the kind's number labels, that on (a
    name holds no label of its card: `Venom T-Rex (Heath 5`, the Health pill beside the
    name read into its line, is `Venom T-Rex`, then `(Heath 5`)."""
    labels = rule_labels(kind)
    words = head.split()
    for n in range(1, len(words)):
        if any(fields.has_label(words[n], label) for label in labels):
            return " ".join(words[:n]), " ".join([*words[n:], rest]).strip()
    return head, rest


def flag_word(kind: Kind, text: str) -> bool:
    """The line is one of the kind's flag words alone (a BAM! tag over the title)."""
    words = [str(r.options["word"]) for r in kind.rules if r.how == "flag" and "word" in r.options]
    return any(strip_marks(text).casefold() == w.casefold() for w in words)


def labelled(kind: Kind, text: str) -> bool:
    """The line holds one of the kind's longer labels, as evidence() counts one
    (`ALTERNATIVE END OF TURN`): no title, and no rules text. (A short one, MOVE, counts
    inside `Move clockwise.`: only _is_heading's line of its own is one.)"""
    return any(
        len(re.sub(r"[^A-Za-z]", "", e)) > SHORT_LABEL and labels(text, e) for e in kind.evidence
    )


def is_heading(kind: Kind, text: str) -> bool:
    """The line is one of the kind's headings (a few letters more at most), by the label
    rule: a short heading misread by a letter is one only alone on its line (`Mole Man 2`
    is a title, not MOVE)."""
    letters = re.sub(r"[^A-Za-z]", "", text)
    return any(
        labels(text, e, slack=3) and len(letters) <= len(re.sub(r"[^A-Za-z]", "", e)) + 3
        for e in kind.evidence
    )


def label_word(line: Line, label: str) -> Line:
    """The label's own word, with its box, when the line kept its words: a label read on
    one line with other things (`(1) MOVE`) stands where its word does, its size its own."""
    for word in line.words:
        if len(label.split()) == 1 and fields.contains(word.text, label):
            return Line(word.text, line.confidence, word.box, word.box[3], (word,))
    return line
