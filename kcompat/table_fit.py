"""Summary tables on a terminal that never split a word (``history``, ``corpus verify``).

rich folds a cell that is wider than its column wherever the column ends, so a table of
message names at 80 columns once read "ConsumerGroup / CurrentMember / AssignmentVal /
ue". Here a table is drawn only when every column can be as wide as its longest word
(names have no spaces, so a name is one word), the free text (a commit's subject)
wrapping between words; otherwise each row is shown as a record, one ``column  value``
line per cell, as psql's expanded display does when a table is wider than the screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kcompat.escaping import shown

#: what rich's default table adds around n columns: a border each side of every column
#: (n + 1) and one space of padding on each side of a cell (2n)
_BORDERS = 1
_PER_COLUMN = 3


def _cells(text: str) -> int:
    from rich.cells import cell_len

    return cell_len(text)


def fitted_widths(
    columns: Sequence[str], rows: Sequence[Sequence[str]], width: int
) -> list[int] | None:
    """Each column's width for a table at most ``width`` wide in which no word is split,
    or None when there is none. Columns start as wide as their widest cell; while the
    table is too wide, the widest column that still has room above its longest word
    gives one cell."""
    everything = [list(columns), *([shown(cell) for cell in row] for row in rows)]
    widest = [max(_cells(row[i]) for row in everything) for i in range(len(columns))]
    longest_word = [
        max((_cells(word) for row in everything for word in row[i].split()), default=1)
        for i in range(len(columns))
    ]
    budget = width - _BORDERS - _PER_COLUMN * len(columns)
    if sum(longest_word) > budget:
        return None
    widths = list(widest)
    while sum(widths) > budget:
        room = [w - m for w, m in zip(widths, longest_word, strict=True)]
        column = max(range(len(widths)), key=lambda i: (room[i] > 0, widths[i]))
        widths[column] -= 1
    return widths


def print_table(
    console: Any, name: str, columns: Sequence[str], rows: Sequence[Sequence[str]]
) -> None:
    """One table on a terminal: fitted when it can be, else as records."""
    from rich.table import Table as RichTable

    widths = fitted_widths(columns, rows, console.width)
    if widths is None:
        print_records(console, name, columns, rows)
        return
    table = RichTable(title=shown(name), title_justify="left", header_style="bold")
    for column, column_width in zip(columns, widths, strict=True):
        table.add_column(column, width=column_width, overflow="fold")
    for row in rows:
        table.add_row(*(shown(cell) for cell in row))
    console.print(table)


def print_records(
    console: Any, name: str, columns: Sequence[str], rows: Sequence[Sequence[str]]
) -> None:
    """A table too wide for the terminal: a record per row, a line per cell (the value
    wraps between words; only a single word wider than the terminal is folded)."""
    from rich.table import Table as RichTable
    from rich.text import Text

    console.print(Text(shown(name), style="italic"), highlight=False)
    for number, row in enumerate(rows, 1):
        record = RichTable.grid(padding=(0, 2))
        record.add_column(style="bold", no_wrap=True)
        record.add_column(overflow="fold")
        for column, cell in zip(columns, row, strict=True):
            record.add_row(column, Text(shown(cell)))
        console.print(Text(f"-[ {number} ]-", style="dim"), highlight=False)
        console.print(record)
