"""The changelog as one self-contained HTML page, like ``kcompat report``'s pages.

Nothing is fetched when it is viewed (a Content-Security-Policy forbids it: no script,
inline style only); everything from a spec, and the revisions the user named, is escaped
(:func:`html.escape` of the :func:`~kcompat.escaping.shown` text). KIP and JIRA
numbers link to their pages (digits only, read by a regular expression).
"""

from __future__ import annotations

from html import escape

from kcompat.changelog.model import Changelog, MessageChanges, summary_line
from kcompat.changelog.phrases import NAME, REF, SIGN_WORDS, mark, phrase
from kcompat.changelog.references import url_of
from kcompat.report.html_page import html_page, html_text

_CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto;
  max-width: 1100px; padding: 0 1.5rem 3rem; color: #1b1b1b; background: #fff; }
h1 { font-size: 1.5rem; margin: 1.2rem 0 0.4rem; }
h2 { font-size: 1.1rem; margin: 1.6rem 0 0.4rem; border-bottom: 1px solid #d9d9d9; }
p.summary { font-weight: 600; }
ul { list-style: none; padding-left: 0.5rem; margin: 0.3rem 0; }
li { margin: 0.15rem 0; }
li::before { content: attr(data-sign) " "; font-family: ui-monospace, monospace;
  color: #555; }
li.added::before { color: #1a7f37; } li.removed::before { color: #b3261e; }
li.break { color: #b3261e; } li.warning { color: #8a5a00; } li.accepted { color: #555; }
code { font-family: ui-monospace, monospace; background: #f4f4f4; padding: 0 0.2em; }
p.footer { color: #555; margin-top: 2rem; }
"""


def _item(changelog: Changelog, group: MessageChanges, index: int) -> str:
    change = group.changes[index]
    sign = mark(change)
    parts = []
    for text, role in phrase(change, changelog.diff_command):
        if role == NAME:
            parts.append(f"<code>{html_text(text)}</code>")
        elif role == REF:
            parts.append(f'<a href="{escape(url_of(text))}">{html_text(text)}</a>')
        else:
            parts.append(html_text(text))
    kind = SIGN_WORDS[sign]
    return f'<li class="{kind}" data-sign="{escape(sign)}">{"".join(parts)}</li>'


def _section(changelog: Changelog, group: MessageChanges) -> list[str]:
    rest = group.title.removeprefix(group.name)
    items = [_item(changelog, group, i) for i in range(len(group.changes))]
    return [
        f"<section><h2><code>{html_text(group.name)}</code>{html_text(rest)}</h2>",
        "<ul>",
        *items,
        "</ul></section>",
    ]


def render_html(changelog: Changelog) -> str:
    """The whole page."""
    title = f"kcompat changelog {changelog.base} -> {changelog.head}"
    body = [
        f"<h1>Protocol changes: <code>{html_text(changelog.base)}</code> &rarr; "
        f"<code>{html_text(changelog.head)}</code></h1>",
        f'<p class="summary">{html_text(summary_line(changelog))}</p>',
    ]
    for group in changelog.groups:
        body += _section(changelog, group)
    if changelog.released:
        body.append(f'<p class="footer">Released: {html_text(changelog.released)}.</p>')
    return html_page(title, _CSS, body)
