"""The shell every HTML page of kcompat shares: one self-contained document.

Nothing is fetched when a page is viewed and, unless the page says it has a script,
nothing runs: its Content-Security-Policy allows inline style only, plus inline scripts
(``scripts``) and ``data:`` images (``images``) where the page needs them. It reads on a
phone (the viewport meta), and its title is escaped here, as every caller's text is with
:func:`html_text`.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from kcompat.escaping import shown


def html_text(value: object) -> str:
    """Text from a spec, a tag or the user, safe in HTML: its characters a terminal acts
    on :func:`~kcompat.escaping.shown`, then :func:`html.escape`\\ d (quotes too)."""
    return escape(shown(str(value)), quote=True)


def _policy(scripts: bool, images: bool) -> str:
    sources = ["default-src 'none'", "style-src 'unsafe-inline'"]
    if scripts:
        sources.append("script-src 'unsafe-inline'")
    if images:
        sources.append("img-src data:")
    return "; ".join(sources)


def html_page(
    title: str, css: str, body: Iterable[str], *, scripts: bool = False, images: bool = False
) -> str:
    """The whole document: the head (title, ``css`` inline, the policy) and ``body``'s
    lines inside ``<body>``, one a line."""
    lines = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta http-equiv="Content-Security-Policy" content="{_policy(scripts, images)}">',
        f"<title>{html_text(title)}</title>",
        f"<style>{css}</style>",
        "</head>",
        "<body>",
        *body,
        "</body>",
        "</html>",
    ]
    return "\n".join(lines) + "\n"


def cards_css(table: str) -> str:
    """Rules for a narrow screen's ``@media`` block that lay each row of the tables
    ``table`` selects out as a card: a cell a line, its ``data-label`` before it (the
    header row is not shown), empty cells gone, so no row is wider than the screen."""
    cells = f"{table} td"
    return (
        f"  {table}, {table} tbody, {table} tr, {cells} {{ display: block; }}\n"
        f"  {table} thead {{ display: none; }}\n"
        f"  {table} tbody > tr {{ padding: 0.5rem 0; border-bottom: 1px solid #e3e3e3; }}\n"
        f"  {cells} {{ border: 0; padding: 0.1rem 0; overflow-wrap: anywhere; }}\n"
        f"  {cells}:empty {{ display: none; }}\n"
        f'  {cells}[data-label]::before {{ content: attr(data-label) ": "; color: #555;\n'
        "    font-weight: 400; }\n"
    )
