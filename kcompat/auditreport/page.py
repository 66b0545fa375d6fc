"""The HTML page: one file, everything inline, readable without JavaScript.

Without JavaScript the page shows the plot (inline SVG), the per-message table and the
first page of findings, rendered here. With it, a small script (``assets/report.js``,
no library) filters by rule, severity and message and pages through every distinct
finding; it reads the findings from an inline JSON block and builds rows with DOM
calls (``textContent``), never from HTML strings. Every name from a spec is escaped
here (:func:`html.escape`), and the JSON block cannot end its ``<script>`` early
(:func:`script_json`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from html import escape
from importlib import resources
from typing import Any

from kcompat.auditreport.plot import legible_width
from kcompat.auditreport.views import SEVERITIES, Group, MessageRow, View
from kcompat.report.html_page import html_page

#: Distinct findings per page (in the static page and the script's pages).
PAGE_SIZE = 50
#: Pairs named in a finding's "found in" cell before "and N more".
PAIRS_SHOWN = 6
#: Lines of a counterexample's annotated dump shown.
DUMP_LINES = 40


def script_json(value: Any) -> str:
    """JSON that is safe inside ``<script type="application/json">``: no ``<``, ``>``
    or ``&`` (so no ``</script>`` or ``<!--``), and no line separators JavaScript
    would choke on; ``JSON.parse`` reads the escapes back as the same characters."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char, escaped in (
        ("&", "\\u0026"),
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(char, escaped)
    return text


def page_data(view: View) -> dict[str, Any]:
    """What the script needs, compactly: names as indexes into lists, evidence once."""
    rules = sorted({g.rule for g in view.groups})
    messages = sorted({g.message_name for g in view.groups})
    rule_index = {r: i for i, r in enumerate(rules)}
    message_index = {m: i for i, m in enumerate(messages)}
    evidence: list[dict[str, Any]] = []
    evidence_index: dict[str, int] = {}
    rows = []
    for group in view.groups:
        proof = -1
        if group.evidence is not None:
            key = json.dumps(group.evidence, sort_keys=True)
            proof = evidence_index.setdefault(key, len(evidence))
            if proof == len(evidence):
                evidence.append(_trimmed(group.evidence))
        rows.append(
            [
                SEVERITIES.index(group.severity) if group.severity in SEVERITIES else 2,
                rule_index[group.rule],
                message_index[group.message_name],
                group.field_path,
                group.text,
                group.hint,
                group.where,
                group.versions,
                list(group.steps),
                group.count,
                proof,
            ]
        )
    return {
        "steps": list(view.steps),
        "severities": list(SEVERITIES),
        "rules": rules,
        "messages": messages,
        "groups": rows,
        "evidence": evidence,
        "pageSize": PAGE_SIZE,
        "pairsShown": PAIRS_SHOWN,
    }


def _trimmed(evidence: dict[str, Any]) -> dict[str, Any]:
    keep = ("message", "version", "direction", "field_path", "hex", "error", "written", "read")
    out = {k: evidence.get(k) for k in keep}
    out["annotated"] = list(evidence.get("annotated") or [])[:DUMP_LINES]
    return out


def render_page(
    view: View,
    svg: str,
    changelogs: Sequence[tuple[str, str, str]] = (),
    narrow_svg: str = "",
) -> str:
    """The whole document (``changelogs``: each release's changelog page to link;
    ``narrow_svg``: the timeline drawn for a phone, shown instead of ``svg`` there)."""
    script = _asset("report.js")
    body = [
        "<header>",
        f"<h1>{escape(view.title)}</h1>",
        _facts(view),
        '<nav><a href="#timeline">Timeline</a> · <a href="#messages">Messages</a> · '
        '<a href="#findings">Findings</a></nav>',
        "</header>",
        "<main>",
        '<section id="timeline">',
        "<h2>Timeline</h2>",
        f'<figure class="plot" role="img" aria-label="{escape(view.timeline.caption)}" '
        f'style="--legible: {legible_width(svg)}px">',
        *_drawings(svg, narrow_svg),
        f"<figcaption>{escape(view.timeline.caption)}</figcaption>",
        "</figure>",
        "</section>",
        _messages_section(view),
        _changelogs_section(changelogs),
        _findings_section(view),
        "</main>",
        f'<script type="application/json" id="audit-data">{script_json(page_data(view))}</script>',
        f"<script>{script}</script>",
    ]
    return html_page(view.title, _asset("report.css"), body, scripts=True, images=True)


def _drawings(svg: str, narrow_svg: str) -> list[str]:
    """The timeline's drawing, or its two (the page's CSS shows one by its width)."""
    if not narrow_svg:
        return [svg]
    return [f'<div class="wide">{svg}</div>', f'<div class="narrow">{narrow_svg}</div>']


def _changelogs_section(changelogs: Sequence[tuple[str, str, str]]) -> str:
    """Links to the changelog of each release (``kcompat history --changelog``)."""
    if not changelogs:
        return ""
    items = "".join(
        f'<li><a href="{escape(link)}">{escape(pair)}</a>: {escape(summary)}</li>'
        for pair, summary, link in changelogs
    )
    return f'<section id="changelogs"><h2>Changelogs</h2><ul>{items}</ul></section>'


def _asset(name: str) -> str:
    return resources.files("kcompat.auditreport").joinpath("assets", name).read_text("utf-8")


def _facts(view: View) -> str:
    items = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in view.facts)
    return f'<dl class="facts">{items}</dl>'


# -- messages ---------------------------------------------------------------------------


def _messages_section(view: View) -> str:
    heading, broke = view.messages_heading
    short = broke.split(" (", 1)[0]  # a phone's label: "broken by", "read with"
    rows = "".join(_message_row(row, short) for row in view.messages)
    if not rows:
        rows = '<tr><td colspan="4" class="empty">no message has errors or warnings</td></tr>'
    return (
        '<section id="messages">'
        f"<h2>{escape(heading)}</h2>"
        '<table class="messages"><thead><tr><th>message</th><th>errors</th>'
        f"<th>warnings</th><th>{escape(broke)}</th></tr></thead>"
        f'<tbody id="message-rows">{rows}</tbody></table>'
        "</section>"
    )


def _cell(label: str, content: str, css: str = "") -> str:
    """A table cell that names its column (``data-label``): on a phone, where each row is
    a block, the cell says what it is (the stylesheet shows the label before it)."""
    kind = f' class="{css}"' if css else ""
    return f'<td{kind} data-label="{escape(label)}">{content}</td>'


def _message_row(row: MessageRow, broke: str) -> str:
    broken = ", ".join(escape(label) for label in row.broken_by) or "—"
    details = ""
    if row.breaks:
        items = "".join(
            "<tr>"
            + _cell("rule", escape(b.rule), "rule")
            + _cell("field", escape(b.field_path or "(message)"), "field-path")
            + _cell("first in", escape(b.first))
            + _cell("pairs", str(b.pairs), "count")
            + "</tr>"
            for b in row.breaks
        )
        details = (
            f"<details><summary>{len(row.breaks)} break{'s' if len(row.breaks) != 1 else ''}"
            '</summary><table class="breaks"><thead><tr><th>rule</th><th>field</th>'
            f"<th>first in</th><th>pairs</th></tr></thead><tbody>{items}</tbody></table></details>"
        )
    return (
        f'<tr data-message="{escape(row.name)}">'
        + _cell("message", escape(row.name), "name")
        + _cell("errors", str(row.errors), "count")
        + _cell("warnings", str(row.warnings), "count")
        + _cell(broke, broken + details, "broken")
        + "</tr>"
    )


# -- findings ---------------------------------------------------------------------------


def _findings_section(view: View) -> str:
    shown = view.groups[:PAGE_SIZE]
    rows = "".join(_finding_row(group, view.steps) for group in shown)
    if not rows:
        rows = '<tr><td colspan="5" class="empty">no findings</td></tr>'
    total = sum(g.count for g in view.groups)
    rules = sorted({g.rule for g in view.groups})
    messages = sorted({g.message_name for g in view.groups})
    return (
        '<section id="findings">'
        "<h2>Findings</h2>"
        f'<p id="findings-status">{len(view.groups)} distinct findings ({total} in all); '
        f"the first {len(shown)} are shown.</p>"
        "<noscript><p>Filters and pages need JavaScript; without it the first "
        f"{PAGE_SIZE} distinct findings (errors first) are listed.</p></noscript>"
        '<form id="filters" hidden>'
        f"<label>rule {_select('rule', rules)}</label>"
        f"<label>severity {_select('severity', SEVERITIES)}</label>"
        '<label>message <input id="filter-message" type="search" list="message-names" '
        'placeholder="any message" autocomplete="off"></label>'
        f'<datalist id="message-names">{_options(messages)}</datalist>'
        '<span class="pager"><button type="button" id="page-prev">◀ previous</button>'
        ' <span id="page-label"></span> '
        '<button type="button" id="page-next">next ▶</button></span>'
        "</form>"
        '<table class="findings"><thead><tr><th>severity</th><th>rule</th>'
        "<th>message and field</th><th>found in</th><th>finding</th></tr></thead>"
        f'<tbody id="finding-rows">{rows}</tbody></table>'
        "</section>"
    )


def _select(name: str, values: Sequence[str]) -> str:
    return f'<select id="filter-{name}"><option value="">all</option>{_options(values)}</select>'


def _options(values: Iterable[str]) -> str:
    return "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)


def _finding_row(group: Group, steps: Sequence[str]) -> str:
    pairs = [steps[i] if 0 <= i < len(steps) else f"pair {i}" for i in group.steps]
    found = ", ".join(escape(p) for p in pairs[:PAIRS_SHOWN])
    if len(pairs) > PAIRS_SHOWN:
        found += f" and {len(pairs) - PAIRS_SHOWN} more"
    if group.count > len(pairs):
        found += f" ({group.count} findings)"
    field = f'<div class="field">{escape(group.field_path)}</div>' if group.field_path else ""
    body = [f'<div class="text">{escape(group.text)}</div>']
    if group.hint:
        body.append(f'<div class="hint">hint: {escape(group.hint)}</div>')
    meta = group.where + (f" · versions {group.versions}" if group.versions else "")
    body.append(f'<div class="where">{escape(meta)}</div>')
    if group.evidence is not None:
        body.append(_evidence(group.evidence))
    return (
        f'<tr class="{escape(group.severity)}">'
        + _cell("severity", escape(group.severity), "severity")
        + _cell("rule", escape(group.rule), "rule")
        + _cell(
            "message and field",
            f'<div class="name">{escape(group.message_name)}</div>{field}',
            "subject",
        )
        + _cell("found in", found, "found")
        + _cell("finding", "".join(body), "finding")
        + "</tr>"
    )


def _evidence(evidence: dict[str, Any]) -> str:
    hex_text = str(evidence.get("hex") or "")
    lines = [str(x) for x in (evidence.get("annotated") or [])][:DUMP_LINES]
    summary = (
        f"counterexample: {len(hex_text) // 2} bytes, {evidence.get('direction', '')}, "
        f"version {evidence.get('version', '')}"
    )
    outcome = (
        f"the reader fails: {evidence['error']}"
        if evidence.get("error")
        else f"wrote {json.dumps(evidence.get('written'), ensure_ascii=False)}, "
        f"read {json.dumps(evidence.get('read'), ensure_ascii=False)}"
    )
    return (
        f'<details class="proof"><summary>{escape(summary)}</summary>'
        f'<p class="outcome">{escape(outcome)}</p>'
        f"<pre>{escape(chr(10).join(lines))}</pre>"
        f'<p class="hex">hex {escape(hex_text)}</p></details>'
    )
