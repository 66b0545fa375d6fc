"""Spec text as Kafka's generator reads it with Jackson: its lines, and its scalars.

Lines: Jackson ends a line at LF, at CR, or at CR LF (one end), and a ``//`` comment ends
with its line. A reader that knows only LF would run ``// tidy-up\r { "name": "Hidden"
... }`` to the next LF and never see the field Kafka compiles, so every place in kcompat
that counts lines, ends a comment or splits text into lines goes through here.

Scalars: Kafka's generator binds spec files with Jackson's default coercions: a JSON
number or boolean given for a ``String`` parameter (a name, a type, a version range)
becomes its text. Lint has to judge that text, not the JSON value: ``"type": 5`` is the
type ``"5"``, which Kafka then fails to parse.
"""

from __future__ import annotations

import re

#: One line end as Jackson counts them: CR LF, a lone CR, or LF.
LINE_END = re.compile(r"\r\n?|\n")
_LONE_CR = re.compile(r"\r(?!\n)")


def unified_line_ends(text: str) -> str:
    """``text`` with every lone CR made an LF: the same length and offsets, so counting and
    finding ``"\n"`` in it counts and finds line ends as Jackson does (a CR LF ends its
    line at the LF). ``text`` itself when it has no lone CR."""
    if "\r" not in text:
        return text
    return _LONE_CR.sub("\n", text)


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of ``offset`` in ``text``, as Jackson counts lines."""
    lines = unified_line_ends(text[: offset + 1])[:offset]  # a CR before an LF is no end
    return lines.count("\n") + 1, offset - (lines.rfind("\n") + 1) + 1


def scalar_text(value: object) -> str | None:
    """The string Kafka reads for ``value``; ``None`` for null, objects and arrays.

    A float keeps Python's spelling (``1.0``), which is what Jackson passes on for every
    literal a spec would plausibly contain (it keeps the literal's own text).
    """
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return None
