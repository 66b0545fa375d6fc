"""The matrix as one self-contained HTML page, with ``kcompat report``'s conventions.

Nothing is fetched when it is viewed and nothing runs (a Content-Security-Policy forbids
both: inline style only), and it reads on a phone. The heat map (client releases down,
broker releases across, each cell coloured by how many APIs it strands) is there when its
columns fit a phone (PHONE_PX); more of them scrolled sideways in their frame, so a
reader saw a corner of the map, and below 600 px such a map gives way to its answer, the
list per broker release (the oldest client that talks every API, the clients stranded
and on which APIs). Below 600 px each row of a table is a card, so none is wider than
the screen. A cell links to its ``<details>`` below, which lists every API with the
version negotiated (the browser opens it when followed); each API has a table of its
ranges, release by release. Everything from a spec or a tag is escaped
(:func:`html.escape` of the :func:`~kcompat.escaping.shown` text); ids are indexes.
"""

from __future__ import annotations

from kcompat.matrix.phrases import (
    api_title,
    broker_lines,
    range_text,
    releases_title,
    removal_text,
)
from kcompat.matrix.render_text import SIDES
from kcompat.matrix.run import MatrixResult
from kcompat.negotiation.grid import Matrix
from kcompat.negotiation.negotiate import STRANDED, UNSERVED, api_label
from kcompat.report.html_page import cards_css, html_page, html_text

#: Background of a heat-map cell by APIs stranded: none, 1, 2, 3-4, 5 or more.
HEAT = ("#d8efdd", "#fff1b8", "#ffd39e", "#f9a98b", "#e4736b")
#: A phone's width for the map: 375 px less the page's margins and a scrollbar. A map
#: shows there if its columns (CELL_PX each, a cell a finger can follow) and the longest
#: release's name (CHAR_PX a character of the map's 11 px text) fit it: Kafka's names,
#: 13 columns.
PHONE_PX = 336
CELL_PX = 22
CHAR_PX = 7
_CSS = (
    """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto;
  max-width: 1100px; padding: 0 1rem 3rem; color: #1b1b1b; background: #fff; }
h1 { font-size: 1.4rem; margin: 1.2rem 0 0.4rem; }
h2 { font-size: 1.1rem; margin: 1.6rem 0 0.5rem; border-bottom: 1px solid #d9d9d9; }
p, li { overflow-wrap: anywhere; }
code { font-family: ui-monospace, monospace; background: #f4f4f4; padding: 0 0.2em; }
.frame { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; }
table.heat { font-size: 11px; }
table.heat th, table.heat td { border: 1px solid #fff; padding: 0; text-align: center; }
table.heat thead th { writing-mode: vertical-rl; transform: rotate(180deg); padding: 4px 0;
  font-weight: 500; white-space: nowrap; }
table.heat tbody th { position: sticky; left: 0; background: #fff; text-align: right;
  padding-right: 4px; font-weight: 500; white-space: nowrap; }
table.heat td a { display: block; min-width: 1.9em; line-height: 1.9em; color: #1b1b1b;
  text-decoration: none; }
table.plain th, table.plain td { border-bottom: 1px solid #e3e3e3; padding: 0.25rem 0.5rem;
  text-align: left; vertical-align: top; }
.legend span { display: inline-block; padding: 0 0.5em; margin-right: 0.3em; }
details { margin: 0.2rem 0; }
details > summary { cursor: pointer; }
details.cell { margin-left: 1rem; }
details.cell p { margin: 0.2rem 0 0.5rem 1rem; }
p.stranded { color: #b3261e; font-weight: 600; } p.unserved { color: #666; }
#map p.phone { display: none; }
/* a phone: a map too wide for it gives way to the list per broker release (next), whose
   brokers are each a card; so are the rows of each API's ranges */
@media (max-width: 600px) {
  body { padding: 0 0.75rem 2rem; }
  #map p.phone { display: block; }
  #map p.phone ~ * { display: none; }
  table.plain td:first-child { font-weight: 600; }
"""
    + cards_css("table.plain")
    + "}\n"
)


def _heat(stranded: int) -> str:
    return HEAT[stranded if stranded < 3 else (3 if stranded < 5 else 4)]


def _cell_id(client: int, broker: int) -> str:
    return f"c{client}-b{broker}"


def _map(matrix: Matrix) -> list[str]:
    names = matrix.releases
    head = "".join(f'<th scope="col">{html_text(name)}</th>' for name in names)
    rows = []
    for c, client in enumerate(names):
        cells = []
        for b, broker in enumerate(names):
            count = sum(1 for v in matrix.outcomes[c][b] if v == STRANDED)
            title = f"client {client}, broker {broker}: {count} stranded"
            cells.append(
                f'<td style="background:{_heat(count)}"><a href="#{_cell_id(c, b)}" '
                f'title="{html_text(title)}">{count or ""}</a></td>'
            )
        rows.append(f'<tr><th scope="row">{html_text(client)}</th>{"".join(cells)}</tr>')
    legend = "".join(
        f'<span style="background:{colour}">{label}</span>'
        for colour, label in zip(HEAT, ("none", "1", "2", "3–4", "5+"), strict=True)
    )
    return [
        '<section id="map"><h2>Heat map: APIs stranded, client releases (rows) by broker '
        "releases (columns)</h2>",
        *_phone(names),
        f'<p class="legend">{legend}</p>',
        '<div class="frame"><table class="heat"><thead><tr><th scope="col">client \\ broker'
        f"</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>",
        "<p>Each cell links to its APIs and the versions negotiated, below.</p></section>",
    ]


def _phone(names: tuple[str, ...]) -> list[str]:
    """What a phone shows instead of a map too wide for it (nothing when it fits)."""
    if len(names) * CELL_PX + max(map(len, names), default=0) * CHAR_PX + 8 <= PHONE_PX:
        return []
    return [
        f'<p class="phone">{len(names)} broker releases do not fit a phone\'s width: its '
        'answer is <a href="#brokers">per broker release</a>, below, and each pair of '
        'releases is in <a href="#cells">cells</a>.</p>'
    ]


def _cells(matrix: Matrix) -> list[str]:
    names = matrix.releases
    out = ['<section id="cells"><h2>Cells: APIs and negotiated versions</h2>']
    for b, broker in enumerate(names):
        out.append(f"<details><summary>broker {html_text(broker)}</summary>")
        for c, client in enumerate(names):
            found = matrix.outcomes[c][b]
            stranded, unserved, versions = [], [], []
            for api, outcome in zip(matrix.apis, found, strict=True):
                label = html_text(api_label(api.name))
                if outcome == STRANDED:
                    stranded.append(label)
                elif outcome == UNSERVED:
                    unserved.append(label)
                elif outcome >= 0:
                    versions.append(f"{label} v{outcome}")
            body = [f'<span id="{_cell_id(c, b)}"></span>']  # following a link opens its cell
            if stranded:
                body.append(f'<p class="stranded">stranded: {", ".join(stranded)}</p>')
            if unserved:
                body.append(f'<p class="unserved">not served yet: {", ".join(unserved)}</p>')
            body.append(f'<p class="apis">{", ".join(versions) or "no API in common"}</p>')
            out.append(
                f'<details class="cell"><summary>client {html_text(client)} '
                f"→ broker {html_text(broker)}: {len(stranded)} stranded</summary>"
                f"{''.join(body)}</details>"
            )
        out.append("</details>")
    out.append("</section>")
    return out


def _ranges(result: MatrixResult) -> list[str]:
    matrix = result.matrix
    names = matrix.releases
    out = [f'<section id="apis"><h2>Ranges by release, per API</h2><p>{html_text(SIDES)}</p>']
    for j, api in enumerate(matrix.apis):
        runs: list[tuple[int, int, tuple[str, str]]] = []
        for r in range(len(names)):
            row = (range_text(matrix.offered[r][j]), _served(matrix, r, j))
            if runs and runs[-1][2] == row:
                runs[-1] = (runs[-1][0], r, row)
            else:
                runs.append((r, r, row))
        body = "".join(
            f'<tr><td data-label="releases">'
            f"{html_text(names[a] if a == z else f'{names[a]}–{names[z]}')}</td>"
            f'<td data-label="clients send">{html_text(offered)}</td>'
            f'<td data-label="brokers accept">{html_text(served)}</td></tr>'
            for a, z, (offered, served) in runs
        )
        out.append(
            f"<details><summary>{html_text(api_title(api))}</summary>"
            '<div class="frame"><table class="plain"><thead><tr><th>releases</th>'
            "<th>clients send</th><th>brokers accept</th></tr></thead>"
            f"<tbody>{body}</tbody></table></div></details>"
        )
    out.append("</section>")
    return out


def _served(matrix: Matrix, r: int, j: int) -> str:
    served = matrix.served[r][j]
    if served is None:
        return "not served"
    deprecated = matrix.deprecated[r][j] & served
    return str(served) + (f" ({deprecated} deprecated)" if not deprecated.empty else "")


def _summary(result: MatrixResult) -> list[str]:
    rows = "".join(
        f'<tr><td data-label="brokers">{html_text(line.brokers)}</td>'
        f'<td data-label="oldest client">{html_text(line.oldest or "none")}</td>'
        f'<td data-label="stranded clients">{html_text(line.stranded_text())}</td></tr>'
        for line in broker_lines(result)
    )
    return [
        '<section id="brokers"><h2>Per broker release, the oldest client release that '
        "talks every API</h2>",
        '<div class="frame"><table class="plain"><thead><tr><th>brokers</th>'
        "<th>oldest client</th><th>stranded clients (and on which APIs)</th></tr></thead>"
        f"<tbody>{rows}</tbody></table></div></section>",
    ]


def _what_if(result: MatrixResult) -> list[str]:
    if result.what_if is None:
        return []
    head = result.matrix.releases[-1]
    items = "".join(
        f"<li>{html_text(removal_text(result, i))}</li>" for i in range(len(result.removals))
    )
    if not items:
        items = f"<li>{html_text(head)} deprecates no version of these APIs.</li>"
    return [
        f'<section id="what-if"><h2>What if {html_text(head)} dropped every deprecated version'
        f"</h2><ul>{items}</ul><p>The heat map and the cells judge {html_text(head)} so.</p>"
        "</section>",
    ]


def render_html(result: MatrixResult) -> str:
    """The whole page."""
    title = f"kcompat matrix: {releases_title(result)}"
    body = [
        "<header><h1>Which client release talks to which broker release</h1>",
        f"<p>{html_text(releases_title(result))}; repository <code>{html_text(result.repository)}"
        "</code>.</p>",
        '<nav><a href="#map">Heat map</a> · <a href="#brokers">Per broker</a> · '
        '<a href="#cells">Cells</a> · <a href="#apis">Ranges per API</a></nav></header>',
        "<main>",
        *_what_if(result),
        *_map(result.matrix),
        *_summary(result),
        *_cells(result.matrix),
        *_ranges(result),
        "</main>",
    ]
    if result.notes:
        notes = "".join(f"<li>{html_text(note)}</li>" for note in result.notes)
        body.append(f"<footer><h2>Notes</h2><ul>{notes}</ul></footer>")
    return html_page(title, _CSS, body)
