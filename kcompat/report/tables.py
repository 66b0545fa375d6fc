"""The documents of the table commands (``rules``, ``history``, ``corpus verify``) and their
formats: one registry, :class:`TableFormat`, whose renderers take a :class:`TableDocument`.

Cells hold message and field names from spec files: each is
:func:`~kcompat.escaping.shown` (and, in Markdown, HTML-escaped) as the table is drawn. The
text format returns the document itself: the terminal draws it (rich tables on a
terminal, aligned columns elsewhere: :func:`kcompat.terminal.draw_document`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from kcompat.escaping import json_safe, shown
from kcompat.formats import FormatRegistry
from kcompat.report.markdown import escape, fenced

if TYPE_CHECKING:
    from kcompat.report.audit_summary import RuleCount

#: (title, column names, rows of cells); a table without a title is drawn without borders
Table = tuple[str, Sequence[str], Sequence[Sequence[str]]]


@dataclass(frozen=True)
class Note:
    """Preformatted lines after the tables (a counterexample's bytes), under a title."""

    where: str  # "file:line", said before the title in text
    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class TableDocument:
    """What a table command shows, whatever the format."""

    data: object  # what --format json prints
    head: str = ""  # the line above the tables ("" for none)
    tables: tuple[Table, ...] = ()
    notes: tuple[Note, ...] = ()
    title: str = ""  # the Markdown heading
    page: str = ""  # a Markdown page instead of tables (a rule's page)
    markdown: str | None = None  # its own Markdown, where the tables' is not the one wanted
    footer: str = ""  # said under the tables on a terminal (a hint for a person)
    ascii_json: bool = False  # JSON with every non-ASCII character escaped


class TableFormat(FormatRegistry):
    text = "text", "kcompat.report.tables:render_text"
    json = "json", "kcompat.report.tables:render_json"
    markdown = "markdown", "kcompat.report.tables:render_markdown"

    def renderer(self) -> Callable[[TableDocument], str | TableDocument]:
        return cast("Callable[[TableDocument], str | TableDocument]", self.render_function())


def render_text(document: TableDocument) -> TableDocument:
    """The terminal draws a document itself (its width, its colours, whether it is one)."""
    return document


def render_json(document: TableDocument) -> str:
    if document.ascii_json:
        return json.dumps(document.data, indent=2) + "\n"
    return json_safe(json.dumps(document.data, indent=2, ensure_ascii=False)) + "\n"


def render_markdown(document: TableDocument) -> str:
    if document.markdown is not None:
        return document.markdown + "\n"
    if document.page:
        return document.page + "\n"
    lines = markdown_tables(document.title, document.head, document.tables)
    for note in document.notes:
        lines += [f"#### {escape(note.title)}", "", *fenced([shown(x) for x in note.lines]), ""]
    return "\n".join(lines) + "\n"


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


def written_to(out: Any, chosen: bool) -> str:
    """Where an audit's Parquet went; a place kcompat chose (no ``--out``) is kept."""
    if chosen:
        return f"Parquet and summary.json in {out}"
    return f"Parquet and summary.json in {out} (kept there; --out DIR chooses the place)"


def per_rule_table(per_rule: Sequence[RuleCount]) -> Table:
    """ "Findings per rule", as both Spark commands' summaries open."""
    rows = [[r.rule, r.severity, str(r.count)] for r in per_rule]
    return ("Findings per rule", ["rule", "severity", "count"], rows)
