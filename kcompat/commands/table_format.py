"""``--format`` of the commands that print tables (``rules``, ``history``, ``corpus
verify``), declared and checked once."""

from __future__ import annotations

from typing import Annotated

import typer

from kcompat.errors import UsageError

TableFormatOption = Annotated[
    str, typer.Option("--format", "-f", metavar="FORMAT", help="text, json or markdown.")
]


def check_table_format(fmt: str) -> None:
    """text, json or markdown, else a usage error: a string, not a choice, so that a wrong
    one is kcompat's one line."""
    if fmt not in ("text", "json", "markdown"):
        raise UsageError(f"--format must be text, json or markdown, not {fmt!r}")
