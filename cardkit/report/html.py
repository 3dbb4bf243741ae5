"""build/index.html: one static page over the whole build, readable offline.

Validation diagnostics, every gap grouped by box, the rulebook re-read, and the proof
preview. No scripts, no external resources, no timestamps: the page is reproducible.
"""

from __future__ import annotations

from html import escape

from cardkit.gaps import Gap, summary
from cardkit.model import Report

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafaf7}
header{background:#262c45;color:#fff;padding:18px 28px}
header h1{margin:0 0 6px;font-size:22px}
main{padding:8px 28px 40px;max-width:1400px}
h2{margin-top:32px;border-bottom:2px solid #262c45;padding-bottom:4px}
.stats{display:flex;gap:14px;flex-wrap:wrap;margin:14px 0}
.stat{background:#fff;border:1px solid #ddd;border-radius:8px;padding:10px 16px;min-width:120px}
.stat b{display:block;font-size:24px}
table{border-collapse:collapse;width:100%;background:#fff;margin:8px 0 18px}
th,td{border:1px solid #e1e1e1;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#eef0f6}
tr.error td.sev{color:#b3121b;font-weight:600}
tr.warning td.sev{color:#9a6700}
tr.open td.status{color:#b3121b}
tr.resolved td.status{color:#1a7f37}
code{font-size:12px}
img.preview{max-width:420px;border:1px solid #ccc;background:#fff}
"""


def _head(*names: str) -> str:
    return "<tr>" + "".join(f"<th>{name}</th>" for name in names) + "</tr>"


def _row(cells: list[str], css: str = "") -> str:
    attrs = f' class="{css}"' if css else ""
    return f"<tr{attrs}>" + "".join(cells) + "</tr>"


def _td(text: object, css: str = "") -> str:
    attrs = f' class="{css}"' if css else ""
    return f"<td{attrs}>{escape(str(text))}</td>"


def _stats(report: Report, rows: list[Gap]) -> str:
    items = [
        ("files", report.files_checked),
        ("errors", report.errors),
        ("warnings", report.warnings),
        ("open gaps", sum(g.status == "open" for g in rows)),
        ("resolved gaps", sum(g.status == "resolved" for g in rows)),
    ]
    return (
        '<div class="stats">'
        + "".join(
            f'<div class="stat" id="stat-{k.replace(" ", "-")}"><b>{v}</b>{k}</div>'
            for k, v in items
        )
        + "</div>"
    )


def _diagnostics(report: Report) -> str:
    if not report.diagnostics:
        return "<p>No problems.</p>"
    head = "<tr><th>where</th><th>code</th><th>severity</th><th>message</th></tr>"
    body = "".join(
        _row(
            [
                _td(f"{d.path}:{d.line}:{d.column}"),
                _td(d.code),
                _td(d.severity.value, "sev"),
                _td(d.message),
            ],
            f"diagnostic {d.severity.value}",
        )
        for d in report.sorted()
    )
    return f'<table id="diagnostics">{head}{body}</table>'


def _gaps(rows: list[Gap]) -> str:
    boxes: dict[str, list[Gap]] = {}
    for g in rows:
        boxes.setdefault(g.box or "(no box)", []).append(g)
    out = [f"<p>{escape(summary(rows))}</p>"]
    head = _head("where", "document", "card", "field", "status", "origin", "why")
    for box, members in sorted(boxes.items()):
        out.append(f'<h3 id="box-{escape(box)}">{escape(box)} <small>({len(members)})</small></h3>')
        body = "".join(
            _row(
                [
                    _td(f"{g.path}:{g.line}"),
                    _td(g.document),
                    _td(g.card),
                    _td(g.field),
                    _td(g.status, "status"),
                    _td(g.code or g.origin),
                    _td(g.why),
                ],
                f"gap {g.status}",
            )
            for g in members
        )
        out.append(f'<table class="gaps">{head}{body}</table>')
    return "".join(out)


def render(
    report: Report, rows: list[Gap], imports: list[str], proof: str | None, preview: str | None
) -> str:
    parts = [
        "<!doctype html><html lang=en><head><meta charset=utf-8>",
        "<title>cardkit build</title>",
        f"<style>{STYLE}</style></head><body>",
        "<header><h1>cardkit build</h1>",
        f"<div>{escape(summary(rows))}</div></header><main>",
        _stats(report, rows),
        '<h2 id="validation">Validation</h2>',
        _diagnostics(report),
        '<h2 id="gaps">Gaps</h2>',
        _gaps(rows),
        '<h2 id="rulebooks">Rulebooks re-read from scans/</h2><ul id="imports">',
        "".join(f"<li>{escape(line)}</li>" for line in imports),
        "</ul>",
    ]
    if proof:
        parts.append(
            f'<h2 id="proofs">Proofs</h2><p><a href="{escape(proof)}">{escape(proof)}</a></p>'
        )
        if preview:
            parts.append(f'<img class="preview" src="{escape(preview)}" alt="first proof sheet">')
    parts.append("</main></body></html>\n")
    return "".join(parts)
