"""Drafts: what the pipeline read, as a document of the template's kind.

Every field carries its confidence in `provenance.confidences`; a field read less surely
than the threshold is listed in `unconfirmed` and gets a gap note "OCR confidence N%".
Nothing is invented: a region that read nothing leaves its field out, a face without
rules text says so in a note, and a scan no template fits keeps its text in `kept_text`.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

from cardkit.ocr import layout
from cardkit.ocr.pipeline import CardRead, Options

DRAFT_HEADER = (
    "# Drafted by cardkit ocr from {scan}.\n"
    "# Check every field against the card; `unconfirmed` lists the ones read unsurely.\n"
)


def slug(text: str) -> str:
    value = re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")
    return value or "card"


def _set(document: dict[str, Any], path: str, value: Any) -> None:
    parts = path.split("/")
    node = document
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = value


def _unread_required(document: dict[str, Any]) -> None:
    """A card front whose required fields were not read is filed as `face: art`, with a note
    and a gap naming them: the draft still validates, and nothing is invented for them."""
    from cardkit.schemas import registry as schemas

    if document.get("face") or document["kind"] not in schemas.kinds():
        return
    errors = schemas.detailed_validator(document["kind"]).iter_errors(document)
    missing = sorted(
        {str(e.message).split("'")[1] for e in errors if e.validator == "required" and not e.path}
    )
    if not missing:
        return
    document["face"] = "art"
    names = ", ".join(missing)
    document.setdefault("notes", []).append(
        f"Not read: {names}, which a card front needs; filed as face: art until a person "
        "fills them in and removes `face`."
    )
    document.setdefault("gaps", []).append(
        {
            "note": f"OCR read no {names}: fill it in from the card",
            "fields": missing,
            "status": "open",
        }
    )


def _put(target: dict[str, Any], **values: Any) -> None:
    """Set each key whose value is not empty: a draft carries no empty lists."""
    target.update({key: value for key, value in values.items() if value})


def _finish_hook(template: layout.Template) -> Any:
    sets = layout.template_sets()
    spec = sets[template.system].data.get("finish") if template.system in sets else None
    return layout.reader(str(spec)) if spec else None


def build(
    read: CardRead,
    *,
    scan: str,
    engine: str,
    engine_version: str,
    language: str,
    options: Options,
    drafted: str | None = None,
) -> dict[str, Any]:
    """The draft document for one card read."""
    frame = read.frame
    template = read.template
    drafted = drafted or datetime.date.today().isoformat()
    document: dict[str, Any] = {}
    shape = template or read.fallback
    document["kind"] = shape.kind if shape else "unknown"
    document["id"] = slug(frame.name)
    if template is None:
        document["face"] = "art"  # no rules text was recognised: nothing required is invented
    confidences: dict[str, float] = {}
    regions: dict[str, list[int]] = {}
    corrections: list[dict[str, str]] = []
    unconfirmed: list[str] = []
    gaps: list[dict[str, Any]] = []
    if template is not None:
        for key, value in template.fixed.items():
            _set(document, key, value)
        for field in read.fields:
            if field.value is None and field.gap:  # not read, and the reader knows why
                gaps.append({"note": field.gap, "fields": [field.field], "status": "open"})
            if field.value is None or field.field.split("/")[-1].startswith("_"):
                continue  # nothing read, or a probe-only region (a type line the kind implies)
            _set(document, field.field, field.value)
            confidences[field.field] = round(field.confidence, 3)
            if field.box:
                regions[field.field] = field.box
            corrections += field.corrections
            if field.confidence < options.threshold:
                unconfirmed.append(field.field)
                gaps.append(
                    {
                        "note": f"OCR confidence {round(field.confidence * 100)}% for "
                        f"{field.field}: check it against the card",
                        "fields": [field.field],
                        "status": "open",
                    }
                )
    notes: list[str] = []
    if template is not None and not template.has_text:
        notes.append(
            f"This face ({template.fixed.get('face', template.name)}) prints no rules text; "
            "none was read or invented."
        )
    if template is None:
        notes.append("No OCR template fits this scan: its text is kept verbatim in kept_text.")
        if read.kept_text.strip():
            document["kept_text"] = [line for line in read.kept_text.splitlines() if line.strip()]
    _put(document, unconfirmed=unconfirmed, gaps=gaps, notes=notes)
    provenance: dict[str, Any] = {"scan": scan, "sha256": frame.sha256}
    if frame.index is not None and frame.format == "PDF":
        provenance["page"] = frame.index
    provenance.update(
        {
            "engine": engine,
            "engine_version": engine_version,
            "template": template.ident if template else "none",
            "language": language,
            "drafted": drafted,
            "mean_confidence": round(read.mean_confidence, 3),
            "settings": {
                "rotation": read.rotation,
                "skew": read.skew,
                "threshold": options.threshold,
                **{k: v for k, v in read.settings.items() if k not in ("skew",)},
            },
        }
    )
    if frame.index is not None and frame.format != "PDF":
        provenance["settings"]["frame"] = frame.index
    _put(provenance, confidences=confidences, regions=regions, corrections=corrections)
    document["provenance"] = provenance
    hook = _finish_hook(template) if template is not None else None
    if hook is not None:
        hook(document, read)
    _unread_required(document)
    return document


def render(document: dict[str, Any], scan: str) -> str:
    from cardkit.files import yamlio
    from cardkit.model import printable

    # the scan's name is data: escaped, a line break in it cannot end the comment
    return yamlio.dump_document(document, DRAFT_HEADER.format(scan=printable(scan)))
