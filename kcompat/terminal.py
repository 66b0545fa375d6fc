"""Where output meets the terminal: the console, colour, and writing what a renderer
returned (a document as text, styled lines, or a table document to draw).

Renderers (:mod:`kcompat.report`, :mod:`kcompat.explain`, :mod:`kcompat.changelog`) return
values and print nothing; this module writes them: through rich on a terminal (colour,
drawn tables, Markdown pages) and plainly elsewhere (a hook's or a CI log's output needs no
rich). A reader that stops early (``| head``) is no failure. ``color`` is ``--color``'s
value: auto, always or never.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kcompat.report.lines import Line
    from kcompat.report.tables import TableDocument, TableFormat


def console_for(color: str, stderr: bool = False):  # type: ignore[no-untyped-def]
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            """A reader that stopped (``| head``): end as every command does on a closed
            pipe (see :func:`kcompat.cli.main`), not with rich's exit status 1."""
            self.quiet = True
            raise BrokenPipeError

    force = {"always": True, "never": False}.get(color)
    no_color = color == "never" or (color == "auto" and "NO_COLOR" in os.environ)
    return _Console(
        stderr=stderr,
        force_terminal=force,
        no_color=no_color,
        highlight=False,
        soft_wrap=True,
        emoji=False,
        markup=False,
    )


def write_output(output: str | Sequence[Line], color: str) -> None:
    """A rendered document to stdout: text as it is, styled lines through rich where
    ``color`` says so and plain otherwise (a hook's or a CI log's output: no rich to
    import). A reader that stops early (``| head``) is no failure."""
    try:
        if isinstance(output, str):
            sys.stdout.write(output if output.endswith("\n") else output + "\n")
        elif uses_color(color):
            from kcompat.report.lines import styled

            console = console_for(color)
            for line in output:
                console.print(styled(line))
            return
        else:
            from kcompat.report.lines import plain

            sys.stdout.write("".join(plain(line) + "\n" for line in output))
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()


def show_document(document: TableDocument, fmt: TableFormat, color: str) -> None:
    """A table command's document in the chosen format: text drawn for the terminal,
    the other formats written as they are."""
    rendered = fmt.renderer()(document)
    if isinstance(rendered, str):
        write_output(rendered, color)
        return
    try:
        draw_document(rendered, console_for(color))
    except BrokenPipeError:
        silence_stdout()


def draw_document(document: TableDocument, console: Any) -> None:
    """Its head line, then each table (an untitled one is the document itself: shown even
    when empty), then its notes: drawn by rich on a terminal, as aligned plain text
    elsewhere (never a word split across lines); a page as Markdown on a terminal."""
    from kcompat.escaping import shown, shown_block
    from kcompat.report.tables import plain_table
    from kcompat.table_fit import print_table

    if document.page:
        _draw_page(console, document.page)
        return
    if document.head:  # on a terminal it wraps between words; in a log it stays one line
        console.print(
            shown(document.head), markup=False, highlight=False, soft_wrap=not console.is_terminal
        )
    for name, columns, rows in document.tables:
        if name and not rows:
            continue
        if console.is_terminal and name:
            print_table(console, name, columns, rows)  # fitted, or as records: no word split
            continue
        if console.is_terminal:
            console.print(_whole_document(columns, rows))
            continue
        if name:
            console.print("", markup=False)
            console.print(shown(name), markup=False, highlight=False)
        for line in plain_table(columns, rows):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    if document.footer and console.is_terminal:
        console.print(document.footer, markup=False)
    for note in document.notes:
        console.print(f"\n{shown(f'{note.where}: {note.title}')}", markup=False)
        console.print(shown_block("\n".join(f"  {line}" for line in note.lines)), markup=False)


def _draw_page(console: Any, page: str) -> None:
    if not console.is_terminal:
        console.print(page, markup=False, highlight=False, soft_wrap=True)
        return
    from rich.markdown import Markdown

    console.print(Markdown(page))


def _whole_document(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> Any:
    """An untitled table (a whole document's, as the rules list) without borders."""
    from rich.table import Table

    from kcompat.escaping import shown

    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in columns:
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*(shown(cell) for cell in row))
    return table


def silence_stdout() -> None:
    """Point stdout at /dev/null after its reader went away, so later writes and the
    interpreter's last flush neither fail nor print "Exception ignored"."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real stdout (captured in tests): nothing to silence
        pass


def uses_color(color: str) -> bool:
    """Whether text output is styled: ``always``, or ``auto`` on a terminal without
    NO_COLOR (what rich would decide, without importing it)."""
    if color == "always":
        return True
    if color == "never" or "NO_COLOR" in os.environ:
        return False
    return sys.stdout.isatty() or bool(os.environ.get("FORCE_COLOR"))
