"""Effect names printed without the colon the grammar's `rest` rule splits them at
(`names: true`): a name on a line of its own (`Entangle`, then its text), or run into its
text with a full stop or a dash (`Citizen V. Discard ...`, `On the Run — If ...`). Each
gets its colon, so the system's finishing step reads `Name: text` whatever the design
printed."""

from __future__ import annotations

import re

NAME_WORDS = 5  # an effect's name printed on a line of its own: this many words at most
CONNECTORS = {"of", "the", "a", "an", "and", "in", "on", "to", "for", "with"}


# "Citizen V. Discard ...", "On the Run — If ...": a full stop, or a dash between spaces
# (a name may end with `!` before its dash: "Defend, My Monsters! — Until ...")
RUN_IN = re.compile(r"^(?P<name>[^.:!?—–]+?)(?:\.|!?\s+[—–-])\s+(?=[A-Z\"'“])")

DASH_ENDED = re.compile(r"^(?P<name>[^.:!?—–]+?)(?P<bang>!?)\s+[—–-]$")  # "Entangle —"

# "NEGATIVE ZONE PATROLS Until the next ...": a name set in capitals (small capitals read
# as capitals) run into its sentence with no mark between them; the sentence opens with a
# capital and a small letter
CAPS_RUN = re.compile(r"^(?P<name>(?:[A-Z][A-Z'’,!&-]*\s+)*[A-Z][A-Z'’,!&-]+)\s+(?=[A-Z][a-z])")
CAPS_LETTERS = 6  # a run in capitals this long at least (`BAM!`, `KO`, `HYDRA` are no names)
# ... of NAME_WORDS words at most: a longer run is a sentence printed in capitals


def _cased(name: str) -> str:
    """A name read in capitals, written as the system's data writes names: each word
    capitalised, the connectors in lower case after the first (`Hammer of Skirn`); a name
    with small letters in it as read (`KO Blast`, `Call the HYDRA Agents`: a term printed
    in capitals)."""
    if any(c.islower() for c in name):
        return name
    out = []
    for k, word in enumerate(name.split()):
        low = word.lower()
        if any(c.islower() for c in word) or sum(c.isalpha() for c in word) < 2:
            out.append(word)
        elif k and low.strip(",!") in CONNECTORS:
            out.append(low)
        else:
            out.append("-".join(part[:1] + part[1:].lower() for part in word.split("-")))
    return " ".join(out)


# small capitals read partly as capitals and small letters: a name in capitals goes on
# through capitalised words ending with `!` (`DEFEND, My Monsters! Until ...`)
BANG_ENDED = re.compile(r"^(?P<more>(?:[A-Z][\w'’,-]*\s+){0,3}[A-Z][\w'’,-]*!)\s+(?=[A-Z][a-z])")


def _titled(words: list[str]) -> bool:
    """A name's words: capitalised (connectors aside), at most NAME_WORDS, 3+ letters (a
    comma inside it, `Surface, My Monsters!`, is the name's own)."""
    letters = sum(c.isalpha() for w in words for c in w)
    return (
        0 < len(words) <= NAME_WORDS
        and letters >= 3
        and words[0][:1].isupper()
        and all(w[:1].isupper() or w[:1].isdigit() or w in CONNECTORS for w in words)
        and words[-1] not in CONNECTORS  # `Each Hero in`, broken off its sentence, is none
    )


def named(texts: list[str]) -> list[str]:
    """An effect's name without a colon gets the colon the other designs print: a short
    title-case line with no end stop (an exclamation mark ends a name, not when a word in
    capitals ends a line of two words: `Then BAM!`), followed by a line that opens with a
    capital (`Entangle`, then its text), or a
    title-case phrase run into its text with a full stop or a dash between spaces at the
    start of a paragraph (`Citizen V. Discard ...`, `On the Run — If ...`; a sentence of
    rules text has words in lower case)."""
    out = list(texts)
    for k, text in enumerate(texts):
        words = text.split()
        after_stop = k == 0 or texts[k - 1].rstrip()[-1:] in ".!?:"
        ended = DASH_ENDED.match(text.strip())  # the text goes on on the next line
        if after_stop and ended and _titled(ended["name"].split()):
            out[k] = _cased(ended["name"].rstrip() + ended["bang"]) + ":"
            continue
        run_in = RUN_IN.match(text)
        if after_stop and run_in and _titled(run_in["name"].split()):
            bang = "!" if text[run_in.end("name") :].startswith("!") else ""
            out[k] = _cased(run_in["name"].rstrip() + bang) + ": " + text[run_in.end() :]
            continue
        capitals = CAPS_RUN.match(text)
        letters = sum(c.isalpha() for c in capitals["name"]) if capitals else 0
        short = capitals is not None and len(capitals["name"].split()) <= NAME_WORDS
        if after_stop and capitals and letters >= CAPS_LETTERS and short:
            name, rest = _cased(capitals["name"]), text[capitals.end() :]
            more = BANG_ENDED.match(rest)
            if more and len(name.split()) + len(more["more"].split()) <= NAME_WORDS:
                name, rest = f"{name} {_cased(more['more'])}", rest[more.end() :]
            out[k] = name + ": " + rest
            continue
        if k == len(texts) - 1 or text.rstrip()[-1:] in ".,;:?":
            continue
        if text.rstrip().endswith("!") and len(words) < 3 and words[-1].rstrip("!").isupper():
            continue  # `Surprise Attack!` is a name; `Then BAM!`, a flag word's, is not
        if _titled(words) and after_stop and texts[k + 1][:1].isupper():
            out[k] = _cased(text.rstrip()) + ":"
    return out
