"""Scalars as Kafka's JSON binding reads them where its spec classes expect a string.

Kafka's generator binds spec files with Jackson's default coercions: a JSON number or
boolean given for a ``String`` parameter (a name, a type, a version range) becomes its
text. Lint has to judge that text, not the JSON value: ``"type": 5`` is the type ``"5"``,
which Kafka then fails to parse.
"""

from __future__ import annotations


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
