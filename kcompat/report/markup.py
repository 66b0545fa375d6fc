"""Markdown text that shows what it holds and does nothing else: escaped text, inert to
GitHub's autolinks and mentions, and code spans and blocks whose fences no backtick in
the text can end. What every Markdown document kcompat writes is made of (the findings
report, its configuration section, the tables, the Action's comment, hover text)."""

from __future__ import annotations

import re

from kcompat.escaping import shown

#: What GitHub acts on in Markdown text: an @mention (it notifies), a #123 reference (it
#: links back from that issue), a link or an image (``[..](..)``, ``![..](..)``: fetched
#: from anywhere; ``[..][..]``, ``[..]:``), an autolink (``scheme://``, ``www.``,
#: ``a@b.c``). Raw HTML (``<img>``, ``<a>``) is already escaped.
_ACTIVE = re.compile(r"@|#(?=\d)|\](?=[(\[:])|(?<=\w)(?=://)|(?i:\bwww)(?=\.)")
_INERT = {"]": "&#93;"}
_ZWSP = "&#8203;"


def inert(text: str) -> str:
    """Markdown text (already HTML-escaped) that reads the same and does nothing: a
    zero-width space after ``@``, ``#`` before digits, ``www`` and before ``://``, and the
    ``]`` that would end a link's text as a character reference, so no renderer's pattern
    matches any more."""
    return _ACTIVE.sub(lambda m: _INERT.get(m.group()) or m.group() + _ZWSP, text)


def html_line(text: str) -> str:
    """Text for HTML inside Markdown, one line, nothing raw."""
    return shown(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape(text: str) -> str:
    """Text for Markdown or HTML inside it (details blocks), one line, nothing raw, nothing
    GitHub would act on (:func:`inert`)."""
    return inert(html_line(text))


def cell(text: str) -> str:
    """Table cell text: no HTML, no raw control character, no column break."""
    return escape(text).replace("|", "\\|")


def code(text: str, *, cell: bool = True) -> str:
    """An inline code span holding ``text`` whatever backticks it has (CommonMark: a
    longer run of backticks for the fence); in a table ``cell``, ``|`` escaped."""
    text = shown(text).replace("|", "\\|") if cell else shown(text)
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def fenced(lines: list[str]) -> list[str]:
    """A code block holding ``lines``, its fence longer than any backtick run in them."""
    longest = max((len(run) for line in lines for run in re.findall("`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence, *lines, fence]
