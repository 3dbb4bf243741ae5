"""Marvel United OCR: the region readers `ocr.yaml` names, and the finishing step.

Readers (called as reader(crop, region, context), see cardkit/ocr/layout.py):
- `read_place`: the placement diagram's token counts per slot (cardkit/ocr/tokens.py);
- `read_mark`: whether an icon (BAM!) is printed in the region;
- `read_rules`: the rules text under the diagram (the diagram and the BAM! mark are cut
  off first: where they sit depends on the card);
- `read_sections`: a Dashboard's headed sections, in one or two columns;
- `read_table`: the unlabeled player-count table (a row of Hero counts over a row of values).

`finish` turns what was read as printed ("Klaw 3", "Move 2", "Name: text") into the
fields of the card kinds, with the importer's grammar for placements and movement.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import cv2
import numpy as np
from PIL import Image

from cardkit.ocr import fields, layout, tokens
from cardkit.ocr.boxes import runs
from cardkit.ocr.engine import Reading

NONE_PLACED = re.compile(r"no\s+tokens\s+placed\.?", re.IGNORECASE)
STARS = ("*", "+", "x", "X", "#", "%")  # how tesseract reads the printed "*"
MOVE = re.compile(r"^\s*M[a-z0]*\s*(?P<value>\d{1,2}|\S)\s*$")  # "Move 3", "Move *"
HEALTH_BAR = re.compile(r"^\W*\d*\W*Health\b\W*", re.IGNORECASE)  # the bar read with the text
DECK = re.compile(r"\s+[·•\-–.]\s+")  # "Klaw · Master Plan": the villain, then the deck
EFFECT = re.compile(r"^(?P<name>[A-Z0-9][^:.]{0,48}?[^:.\s]):\s+(?P<text>\S.*)$")


def _palette(context: Any) -> tokens.Palette:
    return tokens.load_palette(str(context.template.system))


GREY = "the scan has no colour, and tokens and marks are told by their colour: "


def read_place(crop: Image.Image, region: Any, context: Any) -> fields.FieldRead:
    if tokens.colourless(context.card):
        return fields.FieldRead(region.field, None, 0.0, gap=GREY + "count them on the card")
    reading = tokens.count_tokens(crop, _palette(context), (0.0, 0.0, 1.0, 1.0))
    described = "; ".join(
        f"{c.slot}: {c.count} {c.token} ({c.confidence:.2f})" for c in reading.counts
    )
    if reading.frames is None or not reading.counts:
        seen = described or "no placement diagram"
        return fields.FieldRead(region.field, None, 0.0, seen, printed_none=reading.frames is None)
    return fields.FieldRead(region.field, reading.place(), reading.confidence, described)


def read_stat(crop: Image.Image, region: Any, context: Any) -> fields.FieldRead:
    """A value printed on a bar (Health): read only where the region is a bar set off from
    the card's face, so a card without one gives nothing rather than a digit of its text."""
    face = float(np.median(np.asarray(context.card.convert("L"))))
    bar = float(np.median(np.asarray(crop.convert("L"))))
    if abs(face - bar) < 60:
        return fields.FieldRead(region.field, None, 0.0, "no bar")
    reading = _ocr(crop, region, context)
    value, fixes = fields.parse(region.parse, reading, [], region.field)
    confidence = reading.confidence if value is not None else 0.0
    return fields.FieldRead(region.field, value, confidence, reading.text, fixes)


def read_mark(crop: Image.Image, region: Any, context: Any) -> fields.FieldRead:
    name = str(region.options.get("icon", "bam"))
    if tokens.colourless(context.card):
        return fields.FieldRead(region.field, None, 0.0, gap=GREY + f"look for {name} on the card")
    least = float(region.options.get("least", 0.5))  # the icon's height / the region's, at least
    present, confidence, _ = tokens.find_mark(crop, _palette(context), name, None, least)
    return fields.FieldRead(region.field, present, confidence, name if present else "")


def _ocr(crop: Image.Image, region: Any, context: Any, key: str = "") -> Reading:
    prepared = layout.prepare(crop, region, context.card.height)
    reading: Reading = context.engine.read(
        prepared, region.mode, key=context.key + key, whitelist=region.whitelist
    )
    return reading


def read_rules(crop: Image.Image, region: Any, context: Any) -> fields.FieldRead:
    """The text below the placement diagram and the BAM! mark, whichever is lower."""
    palette = _palette(context)
    top_band = crop.crop((0, 0, crop.width, round(crop.height * 0.45)))
    cut = 0
    frames = tokens.find_diagram(top_band)
    if frames is not None:
        cut = frames[1] + 2
    present, _, bottom = tokens.find_mark(top_band, palette, "bam", (0.0, 0.0, 0.3, 1.0), 0.08)
    if present:
        cut = max(cut, round(bottom * top_band.height) + 2)
    body = crop.crop((0, cut, crop.width, crop.height))
    reading = _ocr(body, region, context)
    vocabulary = context.templates.vocabularies.get(region.vocabulary, [])
    value, fixes = fields.parse(region.parse, reading, list(vocabulary), region.field)
    return fields.FieldRead(region.field, value, reading.confidence, reading.text, fixes)


def _ink(crop: Image.Image, contrast: float = 0.3) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Pixels clearly darker than the paper (or lighter, on a dark card): text and rules."""
    grey = np.asarray(crop.convert("L"), dtype=np.float32)
    paper = float(np.median(grey)) if grey.size else 255.0
    return np.asarray(np.abs(grey - paper) > contrast * max(paper, 255 - paper))


def _columns(crop: Image.Image) -> list[tuple[int, int]]:
    """Text columns: split at a wide blank gutter in the middle of the region, if any."""
    ink = _ink(crop)
    if ink.shape[0] == 0 or ink.shape[1] == 0:
        return []
    blank = ink.mean(axis=0) < 0.002
    width = crop.width
    gutter_min = max(3, round(width * 0.02))
    run_start = None
    best: tuple[int, int] | None = None
    for x in range(round(width * 0.3), round(width * 0.7)):
        if blank[x] and run_start is None:
            run_start = x
        elif not blank[x] and run_start is not None:
            if x - run_start >= gutter_min and (best is None or x - run_start > best[1] - best[0]):
                best = (run_start, x)
            run_start = None
    if best is None:
        return [(0, width)]
    return [(0, best[0]), (best[1], width)]


def _heading(line: str, headings: dict[str, str]) -> tuple[str, str] | None:
    """(field, rest of the line) when a line opens with one of the Dashboard's headings."""
    words = line.split()
    for label, key in headings.items():
        size = len(label.split())
        if len(words) < size:
            continue
        head = " ".join(words[:size])
        if fields.closest(head, [label]) == label or head.casefold() == label.casefold():
            return key, " ".join(words[size:]).lstrip("-–: ").strip()
    return None


def read_sections(crop: Image.Image, region: Any, context: Any) -> fields.FieldRead:
    headings = {str(k): str(v) for k, v in dict(region.options.get("headings", {})).items()}
    sections: dict[str, Any] = {}
    current: list[str] | None = None
    confidences: list[float] = []
    texts = []
    for index, (left, right) in enumerate(_columns(crop)):
        reading = _ocr(crop.crop((left, 0, right, crop.height)), region, context, f"#{index}")
        confidences.append(reading.confidence)
        texts.append(reading.text)
        for words in reading.lines:
            line = " ".join(w.text for w in words)
            found = _heading(line, headings)
            if found is not None:
                key, rest = found
                current = []
                sections[key] = (rest, current)
            elif current is not None:
                current.append(line)
    value: dict[str, Any] = {}
    for key, (rest, lines) in sections.items():
        text = fields.join_lines("\n".join(lines))
        if key == "villainous_plot":
            value[key] = {"name": rest, "text": text} if rest else {"text": text}
        elif text:
            value[key] = text
    confidence = sum(confidences) / len(confidences) if confidences else 0.0
    return fields.FieldRead(region.field, value or None, confidence, "\n".join(texts))


def _strokes(crop: Image.Image) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """Ink against its own surroundings (0/255): faint rules and unevenly lit paper alike."""
    grey = np.asarray(crop.convert("L"))
    if float(np.median(grey)) < 128:
        grey = 255 - grey
    block = max(15, (min(grey.shape) // 4) | 1)
    return np.asarray(
        cv2.adaptiveThreshold(
            grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 12
        )
    )


def _rule_lines(mask: np.ndarray[Any, np.dtype[np.uint8]], across: bool, length: int) -> list[int]:
    """The middle of each rule: rows (or columns, `across`) holding a straight run of ink at
    least `length` long (text and digits hold none)."""
    kernel = np.ones((length, 1) if across else (1, length), np.uint8)
    lines = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel) > 0
    found = np.asarray(lines.any(axis=0 if across else 1), dtype=bool)
    return [(a + b) // 2 for a, b in runs(found)]


def _bands(crop: Image.Image) -> list[tuple[int, int]]:
    """The rows of a ruled table: the stretches between its horizontal rules."""
    mask = _strokes(crop)
    rules = _rule_lines(mask, False, max(8, crop.width // 8))
    edges = [-1, *rules, crop.height]
    return [(a + 2, b - 1) for a, b in itertools.pairwise(edges) if b - a > 8]


def _cells(band: Image.Image) -> list[tuple[int, int]]:
    """The cells of one table row: the stretches between its vertical rules (none: [])."""
    mask = _strokes(band)
    rules = _rule_lines(mask, True, max(6, round(band.height * 0.7)))
    return [(a + 2, b - 1) for a, b in itertools.pairwise(rules) if b - a > 6]


def read_table(crop: Image.Image, region: Any, context: Any) -> fields.FieldRead:
    """A row of Hero counts over a row of values, read cell by cell between the rules (a row
    read whole runs spaced digits together: `5 6 7` as `567`), or whole where no rules are."""
    rows: list[list[str]] = []
    sure: list[float] = []
    texts = []
    bands = [crop.crop((0, top, crop.width, bottom)) for top, bottom in _bands(crop)]
    ruled = [(band, _cells(band)) for band in bands]
    if any(cells for _, cells in ruled):  # the table's own rows: the stretches above and
        ruled = [(band, cells) for band, cells in ruled if cells]  # below hold no cells
    for index, (band, cells) in enumerate(ruled):
        readings = [
            _ocr(band.crop((left, 0, right, band.height)), region, context, f"#{index}.{number}")
            for number, (left, right) in enumerate(cells)
        ] or [_ocr(band, region, context, f"#{index}")]
        numbers = [n for r in readings for n in re.findall(r"\d+", r.text)]
        texts.append(" ".join(r.text for r in readings))
        if numbers:
            rows.append(numbers)
            sure.append(min(r.confidence for r in readings if r.text.strip()))
    if len(rows) < 2:
        return fields.FieldRead(region.field, None, 0.0, "\n".join(texts))
    heroes, values = rows[0], rows[1]
    table: dict[str, int | None] = {}
    for index, count in enumerate(heroes):
        table[count] = int(values[index]) if index < len(values) else None
    confidence = min(sure[:2]) * (1.0 if len(heroes) == len(values) else 0.5)
    return fields.FieldRead(region.field, {"heroes": table}, confidence, "\n".join(texts))


# ---------------------------------------------------------------- finishing


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-") or "villain"


def _rename(document: dict[str, Any], old: str, new: str | None) -> None:
    """Move a field's bookkeeping (confidence, box, unconfirmed, gap notes) to its new path."""
    provenance = document.get("provenance", {})
    for key in ("confidences", "regions"):
        table = provenance.get(key, {})
        if old in table:
            value = table.pop(old)
            if new:
                table[new] = value
    if old in document.get("unconfirmed", []):
        document["unconfirmed"].remove(old)
        if new:
            document["unconfirmed"].append(new)
        if not document["unconfirmed"]:
            del document["unconfirmed"]
    for gap in document.get("gaps", []):
        if old in gap.get("fields", []):
            gap["fields"] = [new if f == old else f for f in gap["fields"] if new or f != old]
    if "gaps" in document:
        document["gaps"] = [g for g in document["gaps"] if g.get("fields")]
        if not document["gaps"]:
            del document["gaps"]


def _split_title(title: str) -> tuple[str, int | None, str]:
    """(villain, card number, what follows the number): a title read with a mark beside
    it ("Blastaar 1 \"Oo.": the Move disc's edge) keeps the name and number; the rest is
    kept as read, not part of either."""
    found = re.fullmatch(
        r"(?P<name>.*?[A-Za-z].*?\S)\s+(?P<n>\d{1,2})(?P<rest>(\s.*)?)", title.strip()
    )
    if not found:
        return title.strip(), None, ""
    return found["name"], int(found["n"]), found["rest"].strip()


def _keyword(text: str, keyword: str, fixes: list[dict[str, str]], field: str) -> str:
    """The text with its first word read as `keyword` when it is within the strict distance
    of it ("Mave clockwise"); the change is recorded in `fixes`."""
    first = text.split(" ", 1)[0]
    if first == keyword or fields.closest(first, [keyword]) != keyword:
        return text
    fixes.append({"field": field, "read": first, "corrected": keyword, "why": "vocabulary"})
    return keyword + text[len(first) :]


def _rules(card: dict[str, Any], text: str, fixes: list[dict[str, str]]) -> None:
    """Movement sentence, "No tokens placed.", named effects and the rest, from the text."""
    if NONE_PLACED.search(text):
        text = NONE_PLACED.sub("", text).strip()
        card.setdefault("place", "none")
    if card.get("move") in ("*", None):
        text = _keyword(text, "Move", fixes, "card/movement")
    if card.get("move") in ("*", None) and text.startswith("Move"):
        sentence, dot, rest = text.partition(". ")
        card["movement"] = sentence.rstrip(".") + "."  # the text's last sentence keeps its own
        text = rest.strip() if dot else ""
    if not text:
        return
    found = EFFECT.match(text)
    if found and len(found["name"].split()) <= 6:
        card["effects"] = [{"name": found["name"], "text": found["text"]}]
    else:
        card["effects"] = [{"text": text}]


def _unsure(document: dict[str, Any], field: str, why: str) -> None:
    document.setdefault("unconfirmed", []).append(field)
    document.setdefault("gaps", []).append({"note": why, "fields": [field], "status": "open"})


def _printed(read: Any, field: str) -> str:
    """What the engine read for a field, before its parser tidied it ("Move *")."""
    return next((str(f.text) for f in getattr(read, "fields", []) if f.field == field), "")


def _masterplan(document: dict[str, Any], title: str, read: Any) -> str:
    card = document.setdefault("card", {})
    name, number, rest = _split_title(title)
    if rest:
        document.setdefault("kept_text", []).insert(0, rest)
    if number is not None:
        card["n"] = number
        _rename(document, "title", "card/n")
    else:
        _rename(document, "title", None)
        card["n"] = 1  # the schema needs a number: a placeholder, marked and noted
        _unsure(document, "card/n", "the card number was not read from the title; fill it in")
    move = MOVE.match(_printed(read, "card/move") or str(card.get("move", "")))
    value = move["value"].translate(fields.DIGIT_LOOKALIKES) if move else ""
    if isinstance(card.get("move"), int) or card.get("move") == "*":
        pass  # read as a number by the grammar (a large lone number by MOVE)
    elif value.isdigit() or value in STARS:
        card["move"] = int(value) if value.isdigit() else "*"
    elif "move" in card:
        del card["move"]
        _rename(document, "card/move", None)
    text = str(card.pop("text", "") or "")
    fixes: list[dict[str, str]] = []
    _rules(card, text, fixes)
    if fixes:
        document.setdefault("provenance", {}).setdefault("corrections", []).extend(fixes)
    for key in ("effects", "movement"):
        if key in card:
            provenance = document.get("provenance", {})
            if "card/text" in provenance.get("confidences", {}):
                provenance["confidences"][f"card/{key}"] = provenance["confidences"]["card/text"]
            if "card/text" in document.get("unconfirmed", []):
                _unsure(document, f"card/{key}", f"OCR confidence low for card/{key}")
    _rename(document, "card/text", None)
    return name


def finish(document: dict[str, Any], read: Any) -> None:
    """Printed forms to the card kinds' fields; the villain named from the card's footer."""
    kind = str(document.get("kind", ""))
    deck = str(document.pop("deck", ""))
    _rename(document, "deck", None)
    title = str(document.pop("title", ""))
    parts = DECK.split(deck, maxsplit=1)
    owner = parts[0].strip() if len(parts) == 2 else ""
    if kind == "marvel-united/masterplan-card":
        name = _masterplan(document, title, read)
        owner = owner or name
    elif kind == "marvel-united/threat-card":
        card = document.get("card", {})
        text = HEALTH_BAR.sub("", str(card.get("text", "")), count=1).strip()
        if text:
            card["text"] = text
    else:
        owner = owner or title
        _rename(document, "title", None)
    if owner:  # a draft stands alone: villain_ref would name a document it cannot see
        document.setdefault("provenance", {})["villain"] = owner  # `ocr --assemble` groups by it
        document.setdefault("notes", []).append(
            f"Villain as printed on the card: {owner} (id `{slug(owner)}`); "
            "set villain_ref when the draft joins that villain's files."
        )
