"""``--format`` of the commands that print tables (``rules``, ``history``, ``corpus
verify``), declared and checked once, from the tables' format registry."""

from __future__ import annotations

from typing import Annotated

import typer

from kcompat.errors import UsageError
from kcompat.report.tables import TableFormat

TableFormatOption = Annotated[
    str, typer.Option("--format", "-f", metavar="FORMAT", help=TableFormat.help())
]


def table_format(fmt: str) -> TableFormat:
    """The format named, else a usage error: a string, not a choice, so that a wrong one
    is kcompat's one line."""
    if fmt not in TableFormat.__members__:
        raise UsageError(f"--format must be {TableFormat.choices()}, not {fmt!r}")
    return TableFormat[fmt]
