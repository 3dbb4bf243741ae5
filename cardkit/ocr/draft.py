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

from cardkit.ocr import grammar, layout
from cardkit.ocr.pipeline import CardRead, Options

NOT_READ = "not read from the scan"  # compare.NOT_READ: `--check` reports these

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


def _refused(document: dict[str, Any]) -> None:
    """A value read that the kind's schema refuses (a Move of 14) is not written: the field
    is left out, unconfirmed, with a gap note giving what was read and why it was refused."""
    from cardkit.schemas import registry as schemas

    if document["kind"] not in schemas.kinds():
        return
    read = set(document.get("provenance", {}).get("confidences", {}))
    for error in schemas.detailed_validator(document["kind"]).iter_errors(document):
        path = "/".join(str(p) for p in error.path)
        if path not in read:
            continue
        parent: Any = document
        for part in list(error.path)[:-1]:
            parent = parent[part]
        value = parent.pop(error.path[-1], None)
        document["provenance"]["confidences"].pop(path, None)  # not read: not compared
        listed = document.setdefault("unconfirmed", [])
        if path not in listed:
            listed.append(path)
        document.setdefault("gaps", []).append(
            {
                "note": f"{path}: read as {value!r}, which a card cannot print "
                f"({error.message}): {NOT_READ}",
                "fields": [path],
                "status": "open",
            }
        )


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


def _finish_hook(system: str) -> Any:
    sets = layout.template_sets()
    spec = sets[system].data.get("finish") if system in sets else None
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
    if read.grammar is not None:
        document["kind"] = read.grammar.kind.kind
    document["id"] = slug(frame.name)
    if template is None and read.grammar is None:
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
    if read.grammar is not None:
        _from_grammar(document, read.grammar, options, confidences, unconfirmed, gaps)
        corrections += read.grammar.corrections
        gaps += read.grammar.gaps
    notes: list[str] = []
    if template is not None and not template.has_text:
        notes.append(
            f"This face ({template.fixed.get('face', template.name)}) prints no rules text; "
            "none was read or invented."
        )
    if template is None and read.grammar is None:
        notes.append("No OCR template fits this scan: its text is kept verbatim in kept_text.")
    if read.kept_text.strip():  # every line read that no field holds, in reading order
        document["kept_text"] = [line for line in read.kept_text.splitlines() if line.strip()]
    _put(document, unconfirmed=unconfirmed, gaps=gaps, notes=notes)
    provenance: dict[str, Any] = {"scan": scan, "sha256": frame.sha256}
    if frame.index is not None and frame.format == "PDF":
        provenance["page"] = frame.index
    provenance.update(
        {
            "engine": engine,
            "engine_version": engine_version,
            "template": template.ident
            if template
            else (f"grammar {read.grammar.kind.ident}" if read.grammar else "none"),
            "language": language,
            "drafted": drafted,
            "mean_confidence": round(_mean_confidence(read, template, confidences), 3),
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
    system = template.system if template else (read.grammar.kind.system if read.grammar else "")
    hook = _finish_hook(system) if system else None
    if hook is not None:
        hook(document, read)
    if template is None or template.has_text:
        printed_none = {f.field for f in read.fields if f.printed_none}
        _not_read(document, system or None, printed_none)
    _doubt(document, read)
    _refused(document)
    _unread_required(document)
    return document


def _from_grammar(
    document: dict[str, Any],
    reading: grammar.Reading,
    options: Options,
    confidences: dict[str, float],
    unconfirmed: list[str],
    gaps: list[dict[str, Any]],
) -> None:
    for key, value in reading.kind.fixed.items():
        _set(document, key, value)
    for name, value in reading.values.items():
        _set(document, name, value)
        confidence = reading.confidences.get(name, 0.0)
        confidences[name] = round(confidence, 3)
        if confidence < options.threshold:
            unconfirmed.append(name)
            gaps.append(
                {
                    "note": f"OCR confidence {round(confidence * 100)}% for {name}: "
                    "check it against the card",
                    "fields": [name],
                    "status": "open",
                }
            )


def _has(document: dict[str, Any], path: str) -> bool:
    node: Any = document
    for part in path.split("/"):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return node not in (None, "", [])


def _not_read(
    document: dict[str, Any], system: str | None, printed_none: set[str] | None = None
) -> None:
    """Silence is a bug: every field the system's grammar expects on the draft's kind that
    the scan did not yield is unconfirmed, with a gap note saying it was not read. An
    expected `a|b` is yielded by either (a master plan's text becomes its effects or its
    movement); a field a reader saw the card print none of (no diagram) is not silence."""
    expected: list[str] = []
    for kinds in grammar.grammars().values():
        for kind in kinds:
            if kind.kind == document["kind"] and (system is None or kind.system == system):
                expected += [e for e in kind.expects if e not in expected]
    missing = [
        e.split("|")[0]
        for e in expected
        if not any(_has(document, part) for part in e.split("|"))
        and not any(part in (printed_none or set()) for part in e.split("|"))
    ]
    if not missing:
        return
    listed = document.setdefault("unconfirmed", [])
    listed += [m for m in missing if m not in listed]
    document.setdefault("gaps", []).append(
        {"note": f"{', '.join(missing)}: {NOT_READ}", "fields": missing, "status": "open"}
    )


def _doubt(document: dict[str, Any], read: CardRead) -> None:
    """A kind the evidence does not clearly decide is unconfirmed, its runner-up named."""
    decision = read.decision
    if decision is None or decision.sure:
        return
    listed = document.setdefault("unconfirmed", [])
    if "kind" not in listed:
        listed.append("kind")
    document.setdefault("gaps", []).append(
        {"note": decision.note(), "fields": ["kind"], "status": "open"}
    )


def render(document: dict[str, Any], scan: str) -> str:
    from cardkit.files import yamlio
    from cardkit.model import printable

    # the scan's name is data: escaped, a line break in it cannot end the comment
    return yamlio.dump_document(document, DRAFT_HEADER.format(scan=printable(scan)))


def _mean_confidence(read: Any, template: Any, confidences: dict[str, float]) -> float:
    """A template's fields' mean, as read; a grammar read's over the fields it wrote (its
    fields are not the template's, which had said 0% for a well-read card)."""
    if template is not None or not confidences:
        return float(read.mean_confidence)
    return sum(confidences.values()) / len(confidences)
