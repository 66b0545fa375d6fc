"""Summary tables (history, corpus verify): rich tables on a terminal, or Markdown.

Cells hold message and field names from spec files: each is
:func:`~kcompat.escaping.shown` (and, in Markdown, HTML-escaped) as the table is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kcompat.escaping import shown
from kcompat.report.markdown import escape

#: (title, column names, rows of cells)
Table = tuple[str, Sequence[str], Sequence[Sequence[str]]]


def markdown_tables(title: str, head: str, tables: Sequence[Table]) -> list[str]:
    """A heading, the head line, then one GitHub table per non-empty table."""
    lines = [f"### {escape(title)}", "", escape(head), ""]
    for name, columns, rows in tables:
        if not rows:
            continue
        lines += [f"#### {escape(name)}", "", "| " + " | ".join(columns) + " |"]
        lines += ["|" + "---|" * len(columns)]
        lines += [
            "| " + " | ".join(escape(c).replace("|", "\\|") for c in row) + " |" for row in rows
        ]
        lines.append("")
    return lines


def plain_table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Aligned columns two spaces apart, every cell whole (the last one unpadded): for CI
    logs, where a table folded to 80 columns would cut words in two."""
    everything = [list(columns), *([shown(cell) for cell in row] for row in rows)]
    widths = [max(len(row[i]) for row in everything) for i in range(len(columns) - 1)]
    return [
        "  ".join([*(c.ljust(w) for c, w in zip(row, widths, strict=False)), row[-1]]).rstrip()
        for row in everything
    ]


def print_tables(console: Any, head: str, tables: Sequence[Table]) -> None:
    """The head line, then each non-empty table: drawn by rich on a terminal (as records
    when a table would not fit, :mod:`kcompat.report.table_fit`), plain aligned text
    elsewhere (never a word split across lines)."""
    from kcompat.report.table_fit import print_table

    # on a terminal the head wraps between words; in a log it stays one line
    console.print(shown(head), markup=False, highlight=False, soft_wrap=not console.is_terminal)
    for name, columns, rows in tables:
        if not rows:
            continue
        if not console.is_terminal:
            console.print("", markup=False)
            console.print(shown(name), markup=False, highlight=False)
            for line in plain_table(columns, rows):
                console.print(line, markup=False, highlight=False, soft_wrap=True)
            continue
        print_table(console, name, columns, rows)


def written_to(out: Any, chosen: bool) -> str:
    """Where an audit's Parquet went; a place kcompat chose (no ``--out``) is kept."""
    if chosen:
        return f"Parquet and summary.json in {out}"
    return f"Parquet and summary.json in {out} (kept there; --out DIR chooses the place)"


def per_rule_table(summary: dict[str, Any]) -> Table:
    """ "Findings per rule", as both Spark commands' summaries open."""
    rows = [[r["rule"], r["severity"], str(r["count"])] for r in summary["per_rule"]]
    return ("Findings per rule", ["rule", "severity", "count"], rows)
