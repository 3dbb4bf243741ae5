"""build/index.html: one static page over the whole build, readable offline.

Validation diagnostics; every gap in one table filtered by box, group (as the games
group their documents, labelled with their word: villain), field, origin and free text
(cardkit/site/html_script.py: inline script, no network, the filter kept in the address);
a thumbnail of each card with its unconfirmed fields named and outlined; the rulebook
re-read; and the proof preview. Each gap and card links to its file, its
`path:line` shown. No external resources, no timestamps: the page is reproducible.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from html import escape

from cardkit.gaps.rows import Gap, summary
from cardkit.model import Report
from cardkit.site.html_script import SCRIPT
from cardkit.site.html_script import STYLE as FILTER_STYLE
from cardkit.site.thumbs import Thumb

Link = Callable[[str], str]  # a card file's path as shown -> its href from the page

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
    return "<tr>" + "".join(f"<th>{escape(name)}</th>" for name in names) + "</tr>"


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


def _field_key(field: str) -> str:
    """What the field filter offers: the field's own name (`place` of
    `masterplan/cards/3/place`), so one choice finds it on every card."""
    return field.rsplit("/", 1)[-1]


def _where(path: str, line: int, link: Link) -> str:
    where = escape(f"{path}:{line}")
    return f'<a class="where" href="{escape(link(path))}" title="open {where}">{where}</a>'


def _select(key: str, label: str, values: Counter[str], param: str = "") -> str:
    """A filter; `param` is its name in the page's address when it is not `key`."""
    options = "".join(
        f'<option value="{escape(v)}">{escape(v)} ({n})</option>' for v, n in sorted(values.items())
    )
    named = f' data-param="{escape(param)}"' if param and param != key else ""
    return (
        f'<label>{escape(label)}<select id="f-{key}"{named}><option value="">all</option>'
        f"{options}</select></label>"
    )


def group_label(rows: Sequence[Gap], thumbs: Sequence[Thumb]) -> str:
    """The games' word for a group, over the rows and cards that have one ("villain");
    several games with different words show them all; none: "group"."""
    words = {g.group_label for g in rows if g.game_group and g.group_label}
    words |= {t.group_label for t in thumbs if t.group and t.group_label}
    return " / ".join(sorted(words)) or "group"


def _filters(rows: Sequence[Gap], thumbs: Sequence[Thumb]) -> str:
    boxes = Counter(g.box for g in rows if g.box) + Counter(t.box for t in thumbs if t.box)
    groups = Counter(g.game_group for g in rows if g.game_group)
    groups += Counter(t.group for t in thumbs if t.group)
    label = group_label(rows, thumbs)
    # one game's word names the filter in the address too (#villain=klaw), as it always did
    param = label if label.isidentifier() else "group"
    return (
        '<div class="filters" id="filters">'
        + _select("box", "box", boxes)
        + _select("group", label, groups, param)
        + _select("field", "field", Counter(_field_key(g.field) for g in rows if g.field))
        + _select("origin", "origin", Counter(g.origin for g in rows))
        + '<label>text<input id="f-q" type="search" placeholder="any word"></label>'
        + '<button id="f-clear" type="button">clear</button><span id="shown"></span></div>'
    )


def _gaps(rows: Sequence[Gap], link: Link, label: str) -> str:
    out = []
    head = _head("where", "box", label, "document", "card", "field", "status", "origin", "why")
    body = []
    for g in sorted(rows, key=lambda g: (g.box, g.path, g.line)):
        data = {
            "box": g.box,
            "group": g.game_group,
            "field": _field_key(g.field),
            "origin": g.origin,
        }
        attrs = "".join(f' data-{k}="{escape(v)}"' for k, v in data.items())
        body.append(
            f'<tr class="gap {g.status}"{attrs}><td>{_where(g.path, g.line, link)}</td>'
            + "".join(_td(value) for value in (g.box, g.game_group, g.document, g.card, g.field))
            + _td(g.status, "status")
            + _td(g.code or g.origin)
            + _td(g.why, "why")
            + "</tr>"
        )
    out.append(
        f'<div class="scroll"><table id="gaps-table" class="gaps">{head}{"".join(body)}</table>'
        "</div>"
    )
    return "".join(out)


def _cards(thumbs: Sequence[Thumb], folder: str, link: Link) -> str:
    if not thumbs:
        return "<p>No printable cards.</p>"
    out = []
    for t in thumbs:
        data = {"box": t.box, "group": t.group, "fields": " ".join(t.unconfirmed)}
        attrs = "".join(f' data-{k}="{escape(v)}"' for k, v in data.items())
        chips = "".join(f'<span class="unconfirmed">{escape(f)}</span>' for f in t.unconfirmed)
        alt = escape(f"{t.title} ({t.deck})")
        out.append(
            f'<figure class="card{" unsure" if t.unconfirmed else ""}"{attrs}>'
            f'<a href="{escape(link(t.path))}"><img src="{folder}/{escape(t.name)}" alt="{alt}"'
            f' title="{alt}"></a><figcaption><b>{escape(t.title)}</b>'
            f"{_where(t.path, t.line, link)}{chips}</figcaption></figure>"
        )
    return f'<div class="cards" id="cards">{"".join(out)}</div>'


def render(
    report: Report,
    rows: list[Gap],
    imports: list[str],
    proof: str | None,
    preview: str | None,
    *,
    thumbs: Sequence[Thumb] = (),
    thumb_folder: str = "thumbs",
    link: Link = lambda path: path,
) -> str:
    parts = [
        "<!doctype html><html lang=en><head><meta charset=utf-8>",
        "<title>cardkit build</title>",
        f"<style>{STYLE}{FILTER_STYLE}</style></head><body>",
        "<header><h1>cardkit build</h1>",
        f"<div>{escape(summary(rows))}</div></header><main>",
        _stats(report, rows),
        '<h2 id="gaps">Gaps</h2>',
        _filters(rows, thumbs),
        _gaps(rows, link, group_label(rows, thumbs)),
        f'<h2 id="cards-heading">Cards <small>({len(thumbs)})</small></h2>',
        "<p>Each proxy as the proofs print it; a card with unconfirmed values is outlined "
        "in red and names them (the proxy marks them too). The filter above applies.</p>",
        _cards(thumbs, thumb_folder, link),
        '<h2 id="validation">Validation</h2>',
        _diagnostics(report),
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
    parts.append(f"<script>{SCRIPT}</script></main></body></html>\n")
    return "".join(parts)
