"""Marvel Champions OCR: what a draft needs beyond its template's regions.

- `read_mark`: the main scheme's stage mark (`1A`, `2B`) and threat are set in outlined italics:
  white glyphs with a black outline, which tesseract reads poorly as they are. The
  reader keeps the glyphs' white fill (brighter than the mark's light background), drops
  what touches the crop's edge and specks, undoes the slant, and reads that. The side
  letter is the template's (`side:` on the region): the A and B sides are told apart by
  the B side's dark threat boxes, a surer cue than the outlined letter.
- `finish`: the card code (marvelsdb's) is not printed whole on the card: the pack number
  is not. A scan named after its code (`01097.png`, `01097a.png`) gives it; the side letter
  comes from the stage when the file name has none. Without either, the draft gets a
  placeholder code, marked unconfirmed with a gap note saying why. Inline icons read as
  characters (`1{per_hero}` read `12`) are mapped to the system's icon tokens.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from PIL import Image

from cardkit.ocr import channels, fields, geometry, layout

PLACEHOLDER = "00000"
MARK_HEIGHTS = (90, 60)  # pixels: the mark's crop scaled to each in turn; the surer read wins
SURE_MARK = 0.85  # a read this sure ends the search
MARK_SIZE = (0.45, 0.85)  # the per-hero mark's height, as a share of the number's
PER_HERO = " {per_hero}"  # added to a mark's text where the per-hero mark was seen
DOUBTED = 0.5  # the most a number cut to its box's digits is trusted: it stays unconfirmed


def _fill_parts(
    crop: Image.Image, height: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]]:
    """An outlined mark's fill (its brightest pixels), the crop scaled to `height` pixels:
    the fill (0/255), its components' labels and stats, and those not touching the edge."""
    import cv2

    lightness: np.ndarray[Any, Any] = channels.darkest(np.asarray(crop.convert("RGB")))
    scale = height / max(1, lightness.shape[0])
    lightness = cv2.resize(lightness, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    fill = (lightness >= np.percentile(lightness, 97) - 25).astype(np.uint8) * 255
    count, labels, stats, _ = cv2.connectedComponentsWithStats(fill, connectivity=8)
    rows, columns = fill.shape
    inside = [
        i
        for i in range(1, count)
        if stats[i, 0] > 0
        and stats[i, 1] > 0
        and stats[i, 0] + stats[i, 2] < columns
        and stats[i, 1] + stats[i, 3] < rows
    ]
    return fill, labels, stats, inside


def _mark_glyphs(crop: Image.Image, least: float = 0.75, height: int = 90) -> np.ndarray:
    """Black glyphs on white from an outlined mark: its brightest fill, not touching the edge,
    at least `least` as tall as the tallest glyph (not an icon beside a number), sheared upright."""
    import cv2

    fill, labels, stats, inside = _fill_parts(crop, height)
    tallest = max((int(stats[i, 3]) for i in inside), default=0)
    ink = np.zeros_like(fill)
    for i in inside:
        if stats[i, 3] >= least * tallest:
            ink[labels == i] = 255
    shear = geometry.slant(255 - ink)
    ink = np.pad(ink, ((20, 20), (40, 40)))
    rows = ink.shape[0]
    matrix = np.array([[1, shear, -shear * rows / 2]], dtype=np.float32)
    matrix = np.vstack([matrix, np.array([[0, 1, 0]], dtype=np.float32)])
    upright = cv2.warpAffine(ink, matrix, (ink.shape[1], rows), flags=cv2.INTER_LINEAR)
    result: np.ndarray = 255 - upright
    return result


def per_hero_mark(crop: Image.Image, height: int = 90) -> bool:
    """Whether the per-hero mark stands after the number: a glyph of the mark's fill right
    of the number's tallest glyph, between MARK_SIZE of its height (the mark's head and
    shoulders print joined; a speck or the `+` before a number is no mark)."""
    _, _, stats, inside = _fill_parts(crop, height)
    if not inside:
        return False
    parts = [stats[i] for i in inside]
    number = max(parts, key=lambda s: int(s[3]))
    low, high = MARK_SIZE
    return any(
        low * number[3] <= s[3] <= high * number[3] and s[0] >= number[0] + 0.8 * number[2]
        for s in parts
    )


def read_mark(crop: Image.Image, region: layout.Region, context: layout.ReadContext) -> Any:
    """A mark in outlined glyphs (the threat disc's number, the stage mark), read from the
    glyphs' fill. `parse: int` keeps the first `digits` digits (the per-hero mark beside the
    number is a glyph too); `parse: code` is the stage: its number, and the side letter the
    template gives (`side:`)."""
    best = fields.FieldRead(region.field, None, 0.0)
    least = float(region.options.get("least", 0.75))
    for height in MARK_HEIGHTS:
        glyphs = Image.fromarray(_mark_glyphs(crop, least, height))
        reading = context.engine.read(
            glyphs, "line", key=f"{context.key}@mark{height}/line", whitelist=region.whitelist
        )
        value = _mark_value(reading.text, region)
        confidence = reading.confidence
        if value is not None and _cut(reading.text, region):
            confidence = min(confidence, DOUBTED)  # `10`, or `1` and a mark: unsure which
        if value is not None and confidence > best.confidence:
            best = fields.FieldRead(region.field, value, confidence, reading.text)
        if best.confidence >= SURE_MARK:
            break
    if region.options.get("per_hero") and best.value is not None:
        best.text += PER_HERO if per_hero_mark(crop) else ""
    return best


def _cut(read: str, region: layout.Region) -> bool:
    """More digits were read than the box holds: a number was cut to `digits`."""
    digits = int(region.options.get("digits", 0))
    return region.parse != "code" and bool(digits) and len(re.sub(r"\D", "", read)) > digits


def _mark_value(read: str, region: layout.Region) -> Any:
    text = re.sub(r"[^0-9A-Za-z]", "", read)
    if region.parse == "code":
        side = str(region.options.get("side", ""))
        digit = re.match(r"\d", text)
        return f"{digit.group(0)}{side}" if digit and side else None
    number = fields.number(read if region.parse == "signed" else text, signed=True)
    digits = int(region.options.get("digits", 0))
    if number is not None and digits and len(str(abs(number))) > digits:
        number = int(str(number)[: digits + (number < 0)])
    return number


def _template_side(read: Any) -> str:
    template = getattr(read, "template", None)
    for region in getattr(template, "regions", ()):
        if region.field == "stage" and region.options.get("side"):
            return str(region.options["side"])
    return ""


def inline_icons(document: dict[str, Any], rules: list[dict[str, str]]) -> None:
    """Icons inside the rules text read as characters (`1%`, `12 threat`) written as the
    system's icon tokens (`1{per_hero}`); every change recorded as a correction."""
    text = document.get("text")
    if not isinstance(text, str):
        return
    corrections = []
    for rule in rules:
        pattern = re.compile(f"(?<={rule['after']})(?:{rule['reads']})")
        for found in pattern.finditer(text):
            corrections.append(
                {
                    "field": "text",
                    "read": found.group(0),
                    "corrected": f"{{{rule['icon']}}}",
                    "why": "icon",
                }
            )
        text = pattern.sub(f"{{{rule['icon']}}}", text)
    if corrections:
        document["text"] = text
        provenance = document.setdefault("provenance", {})
        provenance.setdefault("corrections", []).extend(corrections)
    guessed = sorted({c["read"] for c in corrections if c["read"].isdigit()})
    if guessed:  # a digit may be a digit: `15 threat` is fifteen, or 1 and the mark
        if "text" not in document.setdefault("unconfirmed", []):
            document["unconfirmed"].append("text")
        document.setdefault("gaps", []).append(
            {
                "note": f"a digit read as the per-hero mark ({', '.join(guessed)} before a "
                "word the mark stands by): check the card",
                "fields": ["text"],
                "status": "open",
            }
        )


def _per_hero_fields(document: dict[str, Any], read: Any) -> None:
    """`<field>_fixed` for each number whose region looks for the per-hero mark
    (`per_hero: true`): false where the mark was seen after the number, true where not."""
    template = getattr(read, "template", None)
    looked = {r.field for r in getattr(template, "regions", ()) if r.options.get("per_hero")}
    for field in getattr(read, "fields", ()):
        if field.field in looked and field.value is not None and field.field in document:
            document[f"{field.field}_fixed"] = PER_HERO not in field.text


HIT_POINTS = re.compile(r"(?i)HIT\s*P[O0]INTS\W*(\d{1,2})(\S?)")
MARK_READ = 0.5  # the per-hero mark told from the footer's characters: never sure


def _hit_points_mark(document: dict[str, Any], read: Any) -> None:
    """A villain's per-hero hit points, from the footer line the whole-card read gave: the
    mark printed after the number is read as one more character glued to it (`HIT POINTS
    222`, `12%`), and a flat number as the number alone. A character is not a glyph seen,
    so the value is trusted at MARK_READ: unconfirmed, with a note saying what was read."""
    if document.get("type_code") != "villain" or "health" not in document:
        return
    if "health_per_hero" in document or getattr(read, "grammar", None) is None:
        return
    for line in getattr(read, "lines", ()):
        found = HIT_POINTS.search(line.text)
        if found is None or fields.number(found.group(1)) != document["health"]:
            continue
        per_hero = bool(found.group(2))
        document["health_per_hero"] = per_hero
        document.setdefault("unconfirmed", []).append("health_per_hero")
        document.setdefault("provenance", {}).setdefault("confidences", {})["health_per_hero"] = (
            MARK_READ
        )
        said = "a character after the number: the per-hero mark" if per_hero else "no mark"
        document.setdefault("gaps", []).append(
            {
                "note": f"health_per_hero: the footer reads `{found.group(0)}` ({said}); "
                "check the mark against the card",
                "fields": ["health_per_hero"],
                "status": "open",
            }
        )
        return


def finish(document: dict[str, Any], read: Any) -> None:
    _per_hero_fields(document, read)
    _hit_points_mark(document, read)
    sets = layout.template_sets()
    if "marvel-champions" in sets:
        inline_icons(document, list(sets["marvel-champions"].data.get("inline_icons", [])))
    stem = read.frame.name.split("#")[0]
    found = re.fullmatch(r"(\d{5})([a-f]?)", stem.casefold())
    stage = str(document.get("stage", ""))
    side = stage[-1:] if re.fullmatch(r"\d[AB]", stage) else _template_side(read)
    side = side.casefold()
    if found:
        code = found.group(1) + (found.group(2) or side)
    else:
        code = PLACEHOLDER + side
        document.setdefault("unconfirmed", []).append("code")
        document.setdefault("gaps", []).append(
            {
                "note": "the card code is not printed on the card; name the scan after its "
                "marvelsdb code (01097a.png) or fill it in",
                "fields": ["code"],
                "status": "open",
            }
        )
    document["code"] = code
    if found:  # cardkit's id is the code; a placeholder code keeps the scan's own id (unique)
        document["id"] = code
