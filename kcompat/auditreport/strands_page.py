"""The page of a ``kcompat strands`` run: a heat map of commits (across) by client
releases (down), coloured by how many APIs each commit strands each release on, and a
table of since which commit each release can no longer talk to the line.

As the audit pages: one file, nothing fetched (the map is an SVG with its raster inline,
``img-src data:``), no script, readable on a phone (the map scrolls in its frame), and
every name from a spec, a tag or a commit subject escaped.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

from kcompat.auditreport.kinds import AuditData
from kcompat.auditreport.plot import MAX_TICKS, legible_width
from kcompat.errors import UsageError
from kcompat.report.html_page import html_page, html_text
from kcompat.report.strands_summary import StrandsSummary

_CSS = """
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
"""


def heat_svg(summary: StrandsSummary, rows: tuple[dict[str, Any], ...]) -> str:
    """Commits by client releases, each cell the number of APIs stranded, as SVG."""
    try:
        import matplotlib
        from matplotlib.colors import ListedColormap
        from matplotlib.figure import Figure
    except ImportError:
        raise UsageError(
            "matplotlib is not installed: pip install 'kcompat[report]' for HTML reports"
        ) from None
    clients = list(summary.clients)
    position = {name: i for i, name in enumerate(clients)}
    grid = [[0] * len(summary.commits) for _ in clients]
    for row in rows:
        grid[position[row["client"]]][int(row["commit_index"])] = int(row["count"])
    top = max((max(line) for line in grid), default=0)
    colours = ["#d8efdd", "#fff1b8", "#ffd39e", "#f9a98b", "#e4736b", "#b3261e"]
    scale = ListedColormap(colours[: min(len(colours), top + 1)] if top else colours[:1])
    rc: dict[str, Any] = {
        "svg.fonttype": "none",
        "svg.hashsalt": "kcompat",
        "text.parse_math": False,
        "font.size": 9,
        "font.family": "sans-serif",
    }
    count = len(summary.commits)
    with matplotlib.rc_context(rc):  # type: ignore[arg-type]
        figure = Figure(
            figsize=(min(16.0, max(7.5, 4.0 + 0.03 * count)), 1.6 + 0.17 * len(clients)),
            layout="constrained",
        )
        axes = figure.subplots(1, 1)
        bands = [[min(v, len(colours) - 1) for v in line] for line in grid]
        image = axes.imshow(
            bands,
            aspect="auto",
            interpolation="nearest",
            cmap=scale,
            vmin=0,
            vmax=max(1, min(top, len(colours) - 1)),
        )
        axes.set_yticks(range(len(clients)), clients)
        step = max(1, -(-count // MAX_TICKS))
        ticks = list(range(0, count, step))
        axes.set_xticks(ticks, [summary.commits[i] for i in ticks], rotation=90)
        axes.set_xlabel(f"commits of {summary.line or 'HEAD'}, oldest first")
        axes.set_ylabel("client releases")
        bar = figure.colorbar(image, ax=axes, shrink=0.8)
        bar.set_label("APIs stranded")
        out = io.StringIO()
        figure.savefig(out, format="svg", metadata={"Date": None, "Creator": "kcompat"})
    text = out.getvalue()
    return text[text.index("<svg") :]


def _api_names(summary: StrandsSummary, keys: Iterable[int]) -> str:
    """The APIs, by their names without "Request", as a list in prose."""
    return ", ".join(summary.name_of(k).removesuffix("Request") for k in keys)


def _table(summary: StrandsSummary) -> str:
    count = len(summary.commits)
    body = []
    for line in summary.lines:
        since = line.since(count)
        if since is None:
            cell = '<td class="never">never</td><td></td>'
        else:
            keys = dict.fromkeys(k for run in line.final(count) for k in run.apis)
            apis = _api_names(summary, keys)
            cell = (
                f'<td class="stranded">{html_text(summary.commits[since])} '
                f"{html_text(summary.subjects[since])}</td><td>{html_text(apis)}</td>"
            )
        earlier = line.earlier(count)
        runs = "".join(
            f"<li>{html_text(summary.commits[r.first])}–{html_text(summary.commits[r.last])} "
            f"({r.last - r.first + 1} commits): "
            f"{html_text(_api_names(summary, r.apis))}</li>"
            for r in earlier
        )
        before = (
            f"<details><summary>{len(earlier)} run{'s' if len(earlier) != 1 else ''}</summary>"
            f"<ul>{runs}</ul></details>"
            if earlier
            else "never"
        )
        body.append(f"<tr><td>{html_text(line.client)}</td>{cell}<td>{before}</td></tr>")
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
        f'style="--legible: {legible_width(svg)}px">{svg}</figure></section>',
        _table(summary),
        f"<section><h2>Notes</h2><ul>{notes}</ul></section>" if notes else "",
        "</main>",
    ]
    return html_page(title, _CSS, body, images=True)
