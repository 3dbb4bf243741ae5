"""Grammar-first reading: the lines of a whole-card read given to fields by what every
card of a kind prints, not by where a template would have drawn it.

A system may ship `grammar.yaml` beside its `ocr.yaml` (format: docs/ocr.md). Each kind
names its evidence (headings and labels printed on every card of the kind: `END OF TURN`,
`HIT POINTS`; signs, lines built as only it builds them: `Lizard 9`), its shape, the
fields it expects, and per field one rule:

- `title`: the first line with three letters or more in the card's top `share`, no
  sentence in it (`Blast. Move each Hero` is rules text under a title not read) and two
  numbers at most (`Health 10 12 13` is a table's row), up to a space wider than three
  type heights (a table beside a Dashboard's name stays for the rest); with `bottom: true`
  and none there, the lowest line of capitals in the bottom band (a strip's name), or of
  type `taller` than the text (a name on a band at the card's foot) (read at
  least `least` surely, when given; a lone speck at its end dropped; with `number: true` a
  lone digit there is kept: a card number);
- `pattern`: the first line matching a regular expression; the value is its first group
  (`number: true` makes it an int); only the matched part of the line is used up;
- `lines`: the consecutive lines matching an expression (a trait line);
- `span`: the lines from one matching `start` to one matching `end` (flavour in quotes);
- `after`: the lines after a heading (the heading itself is not text) up to the next
  heading or a line another field took;
- `flag`: true when a short line holds the `word` (a BAM! printed as a word, not the word
  inside a sentence); with `mark: true` also when a mark (a patch of a strong colour of
  its own: a tag, a starburst) holds it, or has at least `points` points (marks.py);
- `near`: a lone number (0-99 or `*`) within a few heights of its `label` (a Move value by
  MOVE): the page read's own line, else the engine reads the squares round the label;
- `slots`: the placement diagram, from the image (slots.py): slots found against the card's
  background, icons counted per slot and named by the palette's colours;
- `rest`: every line no field took and no `drop` pattern names, read at least `least`
  surely (art read as words is unsure), in reading order; a line of type far taller than
  the rest's, read unsurely, is icons or a diagram read as letters: kept, not text. With
  `names: true` an effect's name printed on a line of its own without a colon gets one.

Fields are taken in the order written. A line left over is kept (`kept_text`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from cardkit.ocr import (
    effect_names,
    fields,
    grammar_labels,
    grammar_lines,
    lines_read,
    numbers,
    sections,
)
from cardkit.ocr.grammar_kinds import RULES as RULES
from cardkit.ocr.grammar_kinds import Kind as Kind
from cardkit.ocr.grammar_kinds import Rule as Rule
from cardkit.ocr.grammar_kinds import grammars as grammars
from cardkit.ocr.grammar_labels import (
    before_label,
    bottom_title,
    flag_word,
    inline,
    is_heading,
    label_word,
    labelled,
    only_label,
)
from cardkit.ocr.grammar_lines import strip_marks as strip_marks
from cardkit.ocr.grammar_lines import title_part as title_part
from cardkit.ocr.page import LEAST_CONFIDENCE, Line

SHAPE_SLACK = 0.12  # a card's width/height may differ this much from its kind's
FLAG_SLACK = 6  # ... a flag's word (`Venom 1 BAM!`, not `Location. Then BAM!`): `slack`
TITLE_LARGER = 1.1  # a title found outside its band is set this much larger than the text
NEAR = 4.0  # a `near` number stands within this many label heights of its label
NUMBER = re.compile(r"\d{1,2}|\*")  # a lone number (or the star of a Move *)
LONE_BAR = re.compile(r"(?<=\s)[{(]?\|[})]?(?=\s)")  # `| card`: the digit 1 read as a bar


@dataclass
class Reading:
    kind: Kind
    values: dict[str, Any]
    confidences: dict[str, float]
    kept: list[str]
    unread: list[str]  # expected fields the lines did not yield
    corrections: list[dict[str, str]] = field(default_factory=list)
    sharpened: list[str] = field(default_factory=list)  # fields a hint template read
    labels: dict[str, Line] = field(default_factory=dict)  # a `near` field's label, found
    gaps: list[dict[str, Any]] = field(default_factory=list)  # what a reader saw, unsurely
    lines: list[Line] = field(default_factory=list)  # the lines read from (refining looks)


def evidence(kind: Kind, lines: list[Line], signs: bool = True) -> list[str]:
    """The kind's headings and labels found among the lines: on a short line of their own
    (a label, a footer's `... / HIT POINTS 11`), not inside a sentence (`move the Villain`
    is no MOVE label); and its signs, by name: a title sign is matched by the first line
    with three letters or more, up to a wide space (`Fixer ... HP 3` is no `Lizard 9`),
    without its stray end marks (`signs=False`: labels only)."""
    found = [e for e in kind.evidence if any(grammar_labels.labels(line.text, e) for line in lines)]
    top = next((ln for ln in lines if grammar_lines.letters(ln.text) >= 3), None)
    first = title_part(top, top.text)[0] if top is not None else ""
    for name, pattern, title in kind.signs if signs else ():
        texts = [strip_marks(first, number=True)] if title else [ln.text for ln in lines]
        if any(pattern.search(text) for text in texts):
            found.append(name)
    return found


def shape_fits(kind: Kind, width: int, height: int) -> bool:
    return abs(width / height - kind.aspect) / kind.aspect <= SHAPE_SLACK


def read(
    kind: Kind, lines: list[Line], card_height: int, diagram: list[tuple[int, ...]] | None = None
) -> Reading:
    """The kind's fields from the lines (in reading order), by its rules; `diagram`: the
    placement slots' boxes (left, top, right, bottom), where a line is icons read as
    letters, kept, never rules text."""
    lines = grammar_lines.rejoined(lines)
    left = [line.text for line in lines]  # what is not used up yet; "" when all of it is
    values: dict[str, Any] = {}
    confidences: dict[str, float] = {}

    corrections: list[dict[str, str]] = []
    labels: dict[str, Line] = {}

    def take(field_name: str, picked: list[int], value: Any) -> None:
        if value in (None, "", []):
            return
        if isinstance(value, str) and LONE_BAR.search(value):
            # a lone `|` between words is the digit 1 of a sans body font
            fixed = LONE_BAR.sub("1", value)
            corrections.append(
                {"field": field_name, "read": value, "corrected": fixed, "why": "digit"}
            )
            value = fixed
        values[field_name] = value
        confidences[field_name] = min(lines[i].confidence for i in picked) if picked else 0.0

    for rule in kind.rules:
        o = rule.options
        if rule.how == "title":
            share = float(o.get("share", 0.2))
            # `taller`: a title set larger than the body (its type this many times the
            # lines' median), so a rules line under a title the read missed is not taken;
            # `least`: a card's edge or art read as letters is unsure
            taller = float(o.get("taller", 0.0)) * grammar_lines.median_height(lines)
            # (never a line read under LEAST_CONFIDENCE: a skewed card's edge read as junk)
            least = max(float(o.get("least", 0.0)), LEAST_CONFIDENCE)
            for i, line in enumerate(lines):
                if line.box[1] > share * card_height:
                    break
                if line.confidence < least or (
                    line.height < taller and not grammar_lines.set_apart(lines, i)
                ):
                    continue
                if lines_read.SENTENCE.search(left[i]) or len(re.findall(r"\d+", left[i])) > 2:
                    continue  # a name is no sentence, nor a row of three numbers (a rules
                    # line under a title not read; a table's row `Health 10 12 13`; a
                    # villain's `Rhino 1 14`, its stage and hit points beside it, is a name)
                head, rest = before_label(kind, *title_part(line, left[i]))
                named = head and not is_heading(kind, head) and not labelled(kind, head)
                named = named and not only_label(kind, head)
                if named and grammar_lines.letters(head) >= 3 and not flag_word(kind, head):
                    take(rule.field, [i], strip_marks(head, bool(o.get("number"))))
                    left[i] = rest
                    break
            if rule.field not in values:  # none in the band (a photo read whole, the
                # card lower in it): the first line built as the kind's titles are built,
                # set larger than the text (a rules line may end in a number too)
                large = TITLE_LARGER * grammar_lines.median_height(lines)
                for i, text in enumerate(left):
                    titled = any(p.search(strip_marks(text, True)) for _, p, t in kind.signs if t)
                    if (
                        text
                        and titled
                        and lines[i].confidence >= least
                        and lines[i].height >= large
                    ):
                        take(rule.field, [i], strip_marks(text, bool(o.get("number"))))
                        left[i] = ""
                        break
            if rule.field not in values and o.get("bottom"):
                band = card_height - share * card_height
                larger = taller or TITLE_LARGER * grammar_lines.median_height(lines)
                at = bottom_title(kind, lines, left, band, least, larger)
                if at is not None:  # up to a wide space (`Venom T-Rex   Health 5`)
                    head, rest = before_label(kind, *title_part(lines[at], left[at]))
                    take(rule.field, [at], strip_marks(head, bool(o.get("number"))))
                    left[at] = rest
        elif rule.how == "pattern":
            pattern = re.compile(str(o["pattern"]))
            for i, text in enumerate(left):
                match = pattern.search(text)
                if match is None:
                    continue
                value: Any = (match.group(1) if match.groups() else match.group(0)).strip()
                if o.get("number"):
                    value = fields.number(value)
                take(rule.field, [i], value)
                left[i] = (text[: match.start()] + " " + text[match.end() :]).strip()
                break
        elif rule.how == "lines":
            pattern = re.compile(str(o["pattern"]))
            picked = [i for i, text in enumerate(left) if text and pattern.search(text)]
            run = [i for n, i in enumerate(picked) if n == 0 or i == picked[n - 1] + 1]
            take(rule.field, run, " ".join(strip_marks(left[i]) for i in run))
            for i in run:
                left[i] = ""
        elif rule.how == "span":
            start, end = re.compile(str(o["start"])), re.compile(str(o["end"]))
            first = next((i for i, t in enumerate(left) if t and start.search(t)), None)
            if first is not None:
                run = [first]
                while not end.search(left[run[-1]]) and run[-1] + 1 < len(left):
                    if not left[run[-1] + 1]:
                        break
                    run.append(run[-1] + 1)
                quoted = grammar_lines.join([strip_marks(left[i]) for i in run])
                take(rule.field, run, quoted.strip("\"“”' "))
                for i in run:
                    left[i] = ""
        elif rule.how == "after":
            picked = []
            for i, text in enumerate(left):
                if picked and (not text or is_heading(kind, text)):
                    break
                if not picked and text and is_heading(kind, text):
                    left[i] = ""
                    picked = [-1]
                    continue
                if picked:
                    picked.append(i)
            picked = [i for i in picked if i >= 0]
            take(rule.field, picked, grammar_lines.join([left[i] for i in picked]))
            for i in picked:
                left[i] = ""
        elif rule.how in sections.RULES:
            for name, picked, parts, sure in sections.read(o, lines, left):
                take(name, picked, grammar_lines.join(parts))
                if name in confidences:
                    confidences[name] = sure  # the section's own words, not its lines'
        elif rule.how in numbers.RULES:
            # read from the image (numbers.py); the label alone on its line is used up,
            # and so are a table's rows the page read as text
            if rule.how == "table":
                heads = [str(h) for h in o.get("heads", [])]
                for i in grammar_lines.table_rows(lines, left, heads):
                    left[i] = ""
                for i, text in enumerate(left):
                    if text and only_label(kind, text):
                        left[i] = ""  # a row's label alone (`Heroes`): the table's
            printed = fields.label_in(o, left)
            for i, text in enumerate(left):
                found = inline(text, printed) if printed and rule.how == "number" else None
                if found and rule.field not in values:  # `5 Health` on a bar: read as text
                    take(rule.field, [i], int(found.group(1) or found.group(2)))
                    rest = (text[: found.start()] + " " + text[found.end() :]).strip()
                    left[i] = rest if any(c.isalnum() for c in rest) else ""  # a pill's `(`
                    continue
                if (
                    printed
                    and text
                    and fields.has_label(text, printed)
                    and grammar_lines.letters(text) <= len(printed) + 2
                ):
                    left[i] = ""
        elif rule.how == "slots":
            continue  # read from the image by the pipeline (slots.py), not from lines
        elif rule.how == "flag":
            word = str(o["word"])
            for i, text in enumerate(left):
                # the word as a mark's label, not inside a sentence ("... Then BAM!", or
                # "activates their" then "BAM!." ending the sentence on the next line)
                if lines_read.ends_sentence(lines, i, text):
                    continue
                if text and grammar_labels.labels(text, word, int(o.get("slack", FLAG_SLACK))):
                    take(rule.field, [i], True)
                    if is_heading(kind, text) or len(strip_marks(text)) <= len(word) + 3:
                        left[i] = ""
                    break
        elif rule.how == "near":
            # a lone number beside its label (a large Move value by MOVE): the page read's
            # own line when it holds one; else the engine reads round the label (pipeline)
            # the label on a short line, not `Move clockwise ...`; spelt right first, and
            # a near miss not on a line another field took (a title `Mole Man 2`)
            printed = fields.label_in(o, [ln.text for ln in lines])
            at_label = [i for i, t in enumerate(lines) if grammar_labels.labels(t.text, printed)]
            spelt = [i for i in at_label if grammar_labels.spelt(lines[i].text, printed)]
            label = next(iter(spelt or [i for i in at_label if left[i]]), None)
            if label is None:
                continue
            labels[rule.field] = label_word(lines[label], printed)
            reach = NEAR * labels[rule.field].box[3]
            lx, ly = labels[rule.field].centre
            for i, text in enumerate(left):
                x, y = lines[i].centre
                if NUMBER.fullmatch(text.strip()) and abs(x - lx) + abs(y - ly) <= 2 * reach:
                    take(rule.field, [i], _number_value(text.strip()))
                    left[i] = ""
                    break
            alone = len(re.sub(r"[^A-Za-z]", "", left[label])) <= len(printed) + 2
            if alone and fields.has_label(left[label], printed):
                left[label] = ""  # the label alone on its line: used up, not rules text
        else:  # rest
            drops = [re.compile(d) for d in kind.drop]
            least = float(o.get("least", 0.0))  # surer than this: art read as words is not
            sizes = sorted(lines[i].height for i, text in enumerate(left) if text)
            usual = sizes[len(sizes) // 2] if sizes else 0.0
            fit = [
                i
                for i, text in enumerate(left)
                if text
                and lines[i].confidence >= LEAST_CONFIDENCE
                and not lines_read.pictured(lines[i], usual)
                and not lines_read.inside(lines[i], diagram or [])
                and not lines_read.icon_letters(text)
                and not is_heading(kind, text)
                and not labelled(kind, text)  # `ALTERNATIVE END OF TURN`: a heading, kept
                and not any(d.search(text) for d in drops)
            ]
            picked = [i for i in fit if lines[i].confidence >= least]
            picked = sorted(picked + grammar_lines.within_paragraph(lines, fit, picked))
            texts = [left[i] for i in picked]
            if o.get("names"):
                texts = effect_names.named(texts)
            take(rule.field, picked, grammar_lines.join(texts))
            for i in picked:
                left[i] = ""
    kept = [text for text in left if text.strip()]
    unread = [name for name in kind.expects if name not in values]
    return Reading(
        kind, values, confidences, kept, unread, corrections, labels=labels, lines=list(lines)
    )


def _number_value(text: str) -> int | str:
    return "*" if text == "*" else int(text)
