"""A grammar reading made sharper from the card's image, after the whole-card read: a title
re-read from its band, fields a hint template reads better, a lone number beside its label,
and the placement diagram's slots (slots.py)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PIL import Image

from cardkit.ocr import channels, fields, grammar, grammar_lines, layout, page
from cardkit.ocr.engine import OcrEngine

if TYPE_CHECKING:
    from cardkit.ocr.pipeline import Reader

DOUBTED_NUMBER = 0.5  # the most a number read round its label is trusted: it stays unconfirmed
SURE_GLYPH = 0.95  # a lone glyph read one way at every grey level, as the page read it
SURE_NUMBER = 0.7  # a number read round its label this surely ends the search


def title_band(reading: grammar.Reading, card: Image.Image, engine: OcrEngine, key: str) -> None:
    """A title the whole-card read missed, read again from the card's top band alone (at
    half size on a large card: display type in a banner reads better so, without the art
    around it). A title rule with `reread: 0.9` also has a title read less surely than
    that read again, and a dark band (light type on a banner) read turned over too, whole
    and as the banner's rows alone; there the surest wordy line wins, never a line of
    three words or more the rules text holds."""
    for rule in reading.kind.rules:
        if rule.how != "title":
            continue
        if rule.options.get("banner"):
            _banner_title(reading, rule, card, engine, key)
        again = float(rule.options.get("reread", 0.0))
        if rule.field in reading.values and reading.confidences.get(rule.field, 0.0) >= again:
            continue
        share = float(rule.options.get("share", 0.2))
        band = card.convert("RGB").crop((0, 0, card.width, max(1, round(card.height * share))))
        at = 0.5 if max(card.size) >= page.LARGE else 1.0
        text = " ".join(str(v) for f, v in reading.values.items() if f != rule.field)
        read = _band_reads(band, at, engine, f"{key}/title-band", turned=again > 0)
        parts = [replace(ln, text=grammar.title_part(ln, ln.text)[0]) for ln in read]
        lines = [
            ln
            for ln in parts
            if sum(c.isalpha() for c in ln.text) >= 3 and not (again and _rules_line(ln.text, text))
        ]
        if rule.field in reading.values:  # the page read's own title competes
            sure = reading.confidences[rule.field]
            lines.append(page.Line(str(reading.values[rule.field]), sure, (0, 0, 1, 1), 1.0))
        if not lines:
            continue
        best = max(lines, key=lambda ln: ln.confidence * _wordy(ln.text))
        if best.confidence < page.LEAST_CONFIDENCE:
            continue
        reading.values[rule.field] = grammar.strip_marks(
            best.text, bool(rule.options.get("number"))
        )
        reading.confidences[rule.field] = best.confidence
        if best.box != (0, 0, 1, 1) and best not in reading.lines:
            # the title is a line of the card: its number is no lone value (a Move), and
            # where it stands no number is looked for
            reading.lines.append(best)
        if rule.field in reading.unread:
            reading.unread.remove(rule.field)


def _banner_title(
    reading: grammar.Reading, rule: grammar.Rule, card: Image.Image, engine: OcrEngine, key: str
) -> None:
    """A title rule with `banner: true`: the row of display capitals in the top band read
    alone (banner.py); it takes the field when the page read none or read it less surely
    (the page's line is then kept, not lost)."""
    from cardkit.ocr import banner

    share = float(rule.options.get("share", 0.2))
    found = banner.read_title(card, share, engine, key)
    if found is None:
        return
    before = reading.values.get(rule.field)
    if before is not None and found.confidence <= reading.confidences.get(rule.field, 0.0):
        return
    if isinstance(before, str) and before:
        reading.kept.insert(0, before)
    reading.values[rule.field] = grammar.strip_marks(found.text)
    reading.confidences[rule.field] = found.confidence
    if rule.field in reading.unread:
        reading.unread.remove(rule.field)


def _rules_line(line: str, text: str) -> bool:
    """A band line of three words or more that the rules text holds: not the title."""
    stripped = grammar.strip_marks(line)
    return len(stripped.split()) >= 3 and stripped in text


def _band_reads(
    band: Image.Image, at: float, engine: OcrEngine, key: str, turned: bool
) -> list[page.Line]:
    import numpy as np

    from cardkit.ocr import outlines

    array = np.asarray(band)
    # without the thin outlines round words: a title in a pill outline reads as nothing
    grey = outlines.erase(Image.fromarray(channels.darkest(array)))
    small = grey.resize((max(1, round(grey.width * at)), max(1, round(grey.height * at))))
    lines = page.lines_of(engine.read(small, "block", key=key), at)
    dark = np.asarray(band.convert("L")) < page.DARK_BACKGROUND
    if not turned or dark.mean() < 0.2:
        return lines  # a light band: no banner to turn over
    over = Image.fromarray(255 - channels.brightest(array))
    lines += page.lines_of(engine.read(over, "auto", key=f"{key}-turned"), 1.0)
    rows = np.flatnonzero(dark.mean(axis=1) > 0.5)  # the banner's rows (not the frame's)
    if len(rows):
        strip = 255 - channels.brightest(array[rows[0] : rows[-1] + 1])
        strip = np.pad(strip, 20, constant_values=int(np.median(strip)))
        read = engine.read(Image.fromarray(strip), "line", key=f"{key}-banner")
        lines += page.lines_of(read, 1.0)
    return lines


def sharpen(
    reading: grammar.Reading,
    reader: Reader,
    card: Image.Image,
    turn: int,
    templates: layout.TemplateSet,
) -> None:
    """A hint template of the kind's name (`hint: true` in ocr.yaml) reads its regions on
    the card: a field the grammar did not yield, or yielded less surely, takes that read.
    (A template sharpens a known design; the grammar reads any.)"""
    for template in templates.templates:
        if not template.hint or template.name != reading.kind.name:
            continue
        for region in template.regions:
            for read in reader.read_region(card, region, turn, template, templates):
                if read.value is None or read.confidence <= 0:
                    continue
                if read.confidence > reading.confidences.get(read.field, -1.0):
                    value = read.value
                    reading.values[read.field] = (
                        grammar.strip_marks(value) if isinstance(value, str) else value
                    )
                    reading.confidences[read.field] = read.confidence
                    reading.sharpened.append(read.field)
                    if read.field in reading.unread:
                        reading.unread.remove(read.field)


def near_numbers(reading: grammar.Reading, card: Image.Image, engine: OcrEngine, key: str) -> None:
    """A `near` number the page read missed (a large digit in a disc reads as a picture):
    the squares left of, above, right of and below its label, each read as one word of
    digits; the surest lone number wins, its confidence as read (a doubtful digit stays
    unconfirmed: a digit read so is trusted at most DOUBTED_NUMBER)."""
    for rule in reading.kind.rules:
        label = reading.labels.get(rule.field)
        if (
            rule.how == "near"
            and label is not None
            and _glyph(reading, rule.field, label, card, engine, key)
        ):
            continue
        if rule.how == "near" and rule.field in reading.values:
            # the page read's own lone digit by its label: as doubtful as one read round it
            sure = reading.confidences.get(rule.field, 0.0)
            reading.confidences[rule.field] = min(sure, DOUBTED_NUMBER)
        if rule.how != "near" or label is None or rule.field in reading.values:
            continue
        side = round(grammar.NEAR * label.box[3])
        lx, ly = (round(v) for v in label.centre)
        squares = [  # above and left first: where a value's label usually stands
            (lx - side // 2, label.box[1] - side),
            (label.box[0] - side, ly - side // 2),
            (label.box[0] + label.box[2], ly - side // 2),
            (lx - side // 2, label.box[1] + label.box[3]),
        ]
        best: tuple[float, int | str] | None = None
        for number, (x, y) in enumerate(squares):
            box = (max(0, x), max(0, y), min(card.width, x + side), min(card.height, y + side))
            if box[2] - box[0] < side // 2 or box[3] - box[1] < side // 2:
                continue
            region = layout.Region(field=rule.field, box=(0, 0, 1, 1), mode="word")
            prepared = layout.prepare(card.crop(box), region, card.height)
            read = engine.read(prepared, "word", key=f"{key}/near{number}", whitelist="0123456789*")
            text = read.text.strip()
            if grammar.NUMBER.fullmatch(text) and (best is None or read.confidence > best[0]):
                best = (read.confidence, "*" if text == "*" else int(text))
                if read.confidence >= SURE_NUMBER:
                    break
        if best is not None:
            reading.values[rule.field] = best[1]
            # a lone digit read out of its disc or badge is often read surely and wrong
            # (the disc's edge as a 1): never sure enough to stand unconfirmed-free
            reading.confidences[rule.field] = min(best[0], DOUBTED_NUMBER)
            if rule.field in reading.unread:
                reading.unread.remove(rule.field)


def unlabelled_numbers(
    reading: grammar.Reading, card: Image.Image, engine: OcrEngine, key: str
) -> None:
    """A `near` number whose label was not read at all (a Move value on a disc with no
    word by it): the largest lone number on the card that stands clear of every line, chosen
    as a `number` rule's unlabelled value is (numbers.largest_lone: read at LONE or better),
    doubted (at most DOUBTED_NUMBER), with a gap note saying how it was found; none found,
    the field stays "not read"."""
    from cardkit.ocr import numbers

    rules = [
        r
        for r in reading.kind.rules
        if r.how == "near" and r.field not in reading.values and r.field not in reading.labels
    ]
    if not rules:
        return
    found = [n for n in numbers.find(card, reading.lines, engine, f"{key}/unlabelled") if n.text]
    chosen = numbers.largest_lone(found)  # as a `number` rule's value with no label by it
    if chosen is not None:
        value, sure, box, how = chosen[0].text, chosen[1], chosen[0].box, "number"
    else:  # a glyph in a disc, read alone (a `*`, a 0 the number reader doubts)
        glyph = _unlabelled_glyph(reading, card, engine, key)
        if glyph is None:
            return
        value, sure, box, how = glyph.text, glyph.confidence, glyph.box, "glyph"
    for rule in rules:
        reading.values[rule.field] = "*" if value == "*" else int(value)
        reading.confidences[rule.field] = min(sure, DOUBTED_NUMBER)
        if rule.field in reading.unread:
            reading.unread.remove(rule.field)
        label = fields.label_in(rule.options, [])
        reading.gaps.append(
            {
                "note": f"{rule.field}: {label} not read; {value} is the largest lone "
                f"{how} on the card (at {box[0]}, {box[1]}): check it",
                "fields": [rule.field],
                "status": "open",
            }
        )


def _unlabelled_glyph(
    reading: grammar.Reading, card: Image.Image, engine: OcrEngine, key: str
) -> Any:
    """The largest lone glyph on the card, read the same at every grey level it stands
    out at (glyphs.py), measured against the card's type height; else None."""
    from cardkit.ocr import glyphs

    heights = sorted(ln.height for ln in reading.lines if grammar_lines.letters(ln.text) >= 3)
    if not heights:
        return None
    boxes = [ln.box for ln in reading.lines]
    text = heights[(len(heights) - 1) // 2]  # the lower middle: the text's, not a title's
    glyph = glyphs.unlabelled_glyph(card, text, boxes, engine, f"{key}/lone")
    return glyph if glyph is not None and glyph.agreed else None


def _glyph(
    reading: grammar.Reading,
    field: str,
    label: page.Line,
    card: Image.Image,
    engine: OcrEngine,
    key: str,
) -> bool:
    """A `near` number as the lone large glyph by its label, read alone (glyphs.py). Sure
    when every grey level read it one way, surely, and the page read (if it read a lone
    number there) read the same; doubted (at most DOUBTED_NUMBER) otherwise. False when
    no glyph was found or read: the page read's number and the squares are next."""
    from cardkit.ocr import glyphs

    words = [
        box
        for ln in reading.lines
        for text, box in ([(w.text, w.box) for w in ln.words] or [(ln.text, ln.box)])
        if sum(c.isalpha() for c in text) >= 2
    ]
    glyph = glyphs.lone_glyph(card, label.box, words, engine, f"{key}/{field}")
    if glyph is None or not glyph.text:
        return False
    value: int | str = "*" if glyph.text == "*" else int(glyph.text)
    page_read = reading.values.get(field)
    sure = glyph.agreed and page_read in (None, value)
    reading.values[field] = value
    reading.confidences[field] = SURE_GLYPH if sure else min(glyph.confidence, DOUBTED_NUMBER)
    if page_read not in (None, value):
        reading.gaps.append(
            {
                "note": f"{field}: the large glyph by its label reads {value}, the card's "
                f"whole read {page_read}: check it against the card",
                "fields": [field],
                "status": "open",
            }
        )
    if field in reading.unread:
        reading.unread.remove(field)
    return True


def flag_marks(reading: grammar.Reading, card: Image.Image, engine: OcrEngine, key: str) -> None:
    """A `flag` with `mark: true` the lines did not hold: a mark on the card holding its
    word (read inside it), or shaped with `points` points (a starburst), unsurely."""
    from cardkit.ocr import marks

    for rule in reading.kind.rules:
        if rule.how != "flag" or not rule.options.get("mark") or rule.field in reading.values:
            continue
        word, points = str(rule.options["word"]), int(rule.options.get("points", 0))
        found = marks.look_for(card, word, points, engine, f"{key}/{rule.field}")
        if found is None:
            continue
        present, confidence, seen = found
        reading.values[rule.field] = present
        reading.confidences[rule.field] = confidence
        if confidence < 0.9:
            reading.gaps.append(
                {
                    "note": f"{rule.field}: {seen}, its word not read: check it on the card",
                    "fields": [rule.field],
                    "status": "open",
                }
            )
        if rule.field in reading.unread:
            reading.unread.remove(rule.field)


DOUBTED_PLACE = 0.6  # a placement read as a likeness (the system's own icons), or every slot empty


def placement(reading: grammar.Reading, card: Image.Image, box: Any = None) -> None:
    """A `slots` field: the placement read from the image (slots.py), its icons named by
    the box's palette (palette.py; the system's own icons when the box has none: then
    written doubted, a likeness). Written only when every slot is named and every icon
    matches a token; else its counts go into a gap note and the field stays unconfirmed,
    not read."""
    from cardkit.ocr import palette, slots, tokens

    for rule in reading.kind.rules:
        if rule.how != "slots":
            continue
        if tokens.colourless(card):
            continue  # tokens are told by colour: a grey scan says nothing of them
        named = box if box is not None else palette.builtin(reading.kind.system)
        found = slots.read_placement(card, named, slots.words_of(reading.lines))
        if found is None:
            continue
        valid = {"left", "villain", "right"}
        if found.sure and all(s.name in valid for s in found.slots):
            reading.values[rule.field] = found.place() or "none"
            reading.confidences[rule.field] = slots.SURE
            if rule.field in reading.unread:
                reading.unread.remove(rule.field)
            doubt = ""
            if not any(s.found for s in found.slots):
                # a diagram is drawn to place tokens ("No tokens placed." is printed as
                # words): every slot read empty is more likely icons lost in a photo
                doubt = (
                    f"{len(found.slots)} slots found and every one read empty: check the "
                    "card for its tokens"
                )
            elif box is None:
                # named by cardkit's own proxy icons on a card the grammar read (another
                # design's icons): a likeness, not the box's tokens; written, doubted
                doubt = (
                    f"icons named by {reading.kind.system}'s own icons ({found.described()}), "
                    "no box palette given: check them, or give the box's (cardkit ocr "
                    "--palette, cardkit palette)"
                )
            if doubt:
                reading.confidences[rule.field] = DOUBTED_PLACE
                reading.gaps.append(
                    {"note": f"{rule.field}: {doubt}", "fields": [rule.field], "status": "open"}
                )
            continue
        if found.gapped:
            why = "a slot's room between two of them, where none was found"
        elif not found.villain_known:
            why = "the Villain's slot not told"
        elif any("unknown" in s.icons for s in found.slots):
            why = f"an icon matches no token of the palette ({named.source or 'given'})"
            if box is None:  # another design's icons: the box's own palette names them
                why += "; a box palette (cardkit ocr --palette, cardkit palette) may"
        else:
            why = "a slot beyond the three named ones"
        reading.gaps.append(
            {
                "note": f"{rule.field}: {len(found.slots)} slots counted ({found.described()}), "
                f"{why}: name the tokens from the card",
                "fields": [rule.field],
                "status": "open",
            }
        )


def _wordy(text: str) -> int:
    """Letters in words of three letters or more: a name, not specks of art."""
    return sum(len(w) for w in re.findall(r"[A-Za-z'’]{3,}", text))
