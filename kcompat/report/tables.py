"""Summary tables (history, corpus verify): rich tables on a terminal, or Markdown."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: (title, column names, rows of cells)
Table = tuple[str, Sequence[str], Sequence[Sequence[str]]]


def markdown_tables(title: str, head: str, tables: Sequence[Table]) -> list[str]:
    """A heading, the head line, then one GitHub table per non-empty table."""
    lines = [f"### {title}", "", head, ""]
    for name, columns, rows in tables:
        if not rows:
            continue
        lines += [f"#### {name}", "", "| " + " | ".join(columns) + " |"]
        lines += ["|" + "---|" * len(columns)]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
        lines.append("")
    return lines


def print_tables(console: Any, head: str, tables: Sequence[Table]) -> None:
    """The head line, then each non-empty table drawn by rich."""
    from rich.table import Table as RichTable

    console.print(head, markup=False, highlight=False)
    for name, columns, rows in tables:
        if not rows:
            continue
        table = RichTable(title=name, title_justify="left", header_style="bold")
        for column in columns:
            table.add_column(column, overflow="fold")
        for row in rows:
            table.add_row(*row)
        console.print(table)
