"""The page of a ``kcompat strands`` run: a heat map of commits (across) by client
releases (down), coloured by how many APIs each commit strands each release on, and a
table of since which commit each release can no longer talk to the line.

As the audit pages: one file, nothing fetched (the map is an SVG with its raster inline,
``img-src data:``), no script, readable on a phone (below 600 px the map drawn for its
width, each client release a card: all of it in view, nothing scrolls sideways), and
every name from a spec, a tag or a commit subject escaped.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kcompat.auditreport.kinds import AuditData
from kcompat.auditreport.plot import legible_width
from kcompat.auditreport.strands_plot import heat_svg
from kcompat.report.html_page import cards_css, html_page, html_text
from kcompat.report.strands_summary import StrandsSummary

_CSS = (
    """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto;
  max-width: 1100px; padding: 0 1rem 3rem; color: #1b1b1b; background: #fff; }
h1 { font-size: 1.4rem; margin: 1.2rem 0 0.4rem; }
h2 { font-size: 1.1rem; margin: 1.6rem 0 0.5rem; border-bottom: 1px solid #d9d9d9; }
p, li, td { overflow-wrap: anywhere; }
figure.plot { margin: 0; overflow-x: auto; max-width: 100%; }
figure.plot svg { width: 100%; min-width: var(--legible); height: auto; }
.frame { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid #e3e3e3; padding: 0.25rem 0.5rem; text-align: left;
  vertical-align: top; }
td.never { color: #1a7f37; } td.stranded { color: #b3261e; font-weight: 600; }
figure.plot .narrow { display: none; }
/* a phone: the map drawn for its width (all of it in view, its text 12 px), and each
   client release a card whose lines say what they are; an API name is never split */
@media (max-width: 600px) {
  body { padding: 0 0.75rem 2rem; }
  figure.plot .wide { display: none; }
  figure.plot .narrow { display: block; }
  figure.plot .narrow svg { display: block; width: 100%; max-width: 30rem; min-width: 0; }
  td.client { font-weight: 600; }
"""
    + cards_css("#clients table")
    + "}\n"
)


def _api_names(summary: StrandsSummary, keys: Iterable[int]) -> str:
    """The APIs, by their names without "Request", as a list in prose (HTML: each name
    escaped, in a span of its own)."""
    names = (html_text(summary.name_of(k).removesuffix("Request")) for k in keys)
    return ", ".join(f'<span class="api">{name}</span>' for name in names)


_SINCE = 'data-label="stranded since"'


def _table(summary: StrandsSummary) -> str:
    count = len(summary.commits)
    body = []
    for line in summary.lines:
        since = line.since(count)
        if since is None:
            cell = f'<td class="since never" {_SINCE}>never</td><td class="apis"></td>'
        else:
            keys = dict.fromkeys(k for run in line.final(count) for k in run.apis)
            cell = (
                f'<td class="since stranded" {_SINCE}>{html_text(summary.commits[since])} '
                f"{html_text(summary.subjects[since])}</td>"
                f'<td class="apis" data-label="on APIs">{_api_names(summary, keys)}</td>'
            )
        earlier = line.earlier(count)
        runs = "".join(
            f"<li>{html_text(summary.commits[r.first])}–{html_text(summary.commits[r.last])} "
            f"({r.last - r.first + 1} commits): "
            f"{_api_names(summary, r.apis)}</li>"
            for r in earlier
        )
        before = (
            f"<details><summary>{len(earlier)} run{'s' if len(earlier) != 1 else ''}</summary>"
            f"<ul>{runs}</ul></details>"
            if earlier
            else "never"
        )
        body.append(
            f'<tr><td class="client">{html_text(line.client)}</td>{cell}'
            f'<td class="before" data-label="stranded before">{before}</td></tr>'
        )
    return (
        '<section id="clients"><h2>Since which commit each client release is stranded</h2>'
        '<div class="frame"><table><thead><tr><th>client release</th><th>stranded since</th>'
        "<th>on APIs</th><th>stranded before</th></tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table></div></section>"
    )


def render_strands(audit: AuditData[StrandsSummary, dict[str, Any]]) -> str:
    summary = audit.summary
    assert isinstance(summary, StrandsSummary)
    svg = heat_svg(summary, audit.findings)
    narrow = heat_svg(summary, audit.findings, narrow=True)
    title = f"Client releases against the commits of {summary.line or 'HEAD'}"
    facts = (
        f"{len(summary.commits)} commits × {len(summary.clients)} client releases × "
        f"{len(summary.apis)} APIs ({', '.join(summary.roles)}); read from {audit.source}"
    )
    notes = "".join(f"<li>{html_text(note)}</li>" for note in summary.notes)
    body = [
        f"<header><h1>{html_text(title)}</h1><p>{html_text(facts)}</p></header>",
        "<main>",
        '<section id="map"><h2>APIs stranded, commit by commit</h2>',
        f'<figure class="plot" role="img" aria-label="{html_text(title)}" '
        f'style="--legible: {legible_width(svg)}px"><div class="wide">{svg}</div>'
        f'<div class="narrow">{narrow}</div></figure></section>',
        _table(summary),
        f"<section><h2>Notes</h2><ul>{notes}</ul></section>" if notes else "",
        "</main>",
    ]
    return html_page(title, _CSS, body, images=True)
