"""The terminal picture: header, version matrix, legend, timelines, grammar, findings.

A matrix wider than the console is cut into blocks of versions, each repeating the field
and type columns, so FetchRequest's 18 versions stay readable at 100 columns. Styles are
always attached; a console without colour drops them, which is how snapshots stay plain.
Every line is :func:`shown_text` before it leaves: names from spec
files never reach a terminal (or an SVG or HTML page) raw.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import RenderableType
from rich.text import Span, Text

from kcompat.escaping import UNSAFE, shown
from kcompat.explain.explanation import Explanation
from kcompat.explain.formats import Picture, View
from kcompat.explain.grammar import Grammar, GrammarRow
from kcompat.explain.matrix import CHANGES_LEGEND, LEGEND, Cell, Column, Matrix, Row, Shape

_SHAPE_STYLE = {
    Shape.ABSENT: "dim",
    Shape.FIXED: "",
    Shape.NARROW: "magenta",
    Shape.CLASSIC: "",
    Shape.COMPACT: "green",
    Shape.PACKED: "magenta",
    Shape.UPACKED: "magenta",
    Shape.STRUCT: "blue",
}
_CHANGE_STYLE = {"added": "bold green", "removed": "bold red", "changed": "bold yellow"}
_ROW_MARK = {"added": "+", "removed": "-", "changed": "~"}
_MAX_LABEL = 44
_MAX_TYPE = 30
_MIN_NOTES = 10  # the narrowest notes column of a grammar table
_GAP = 1  # the space between two columns (padding 1 on the left only)

#: Short meanings for the legend, in :data:`LEGEND` order: the glyphs come from there, so
#: the text, Markdown and JSON legends show the same ones.
_SHORT_MEANINGS = (
    "fixed width",
    "fixed, narrower than its type",
    "varint",
    "unsigned varint",
    "int16/int32 length",
    "compact length",
    "struct",
    "nullable",
    "tag n",
    "absent",
)
_LEGEND = tuple(
    (unicode, ascii_, short)
    for (unicode, ascii_, _long), short in zip(LEGEND, _SHORT_MEANINGS, strict=True)
)
#: The narrowest picture drawn; a narrower terminal gets this width (and wraps).
MIN_WIDTH = 40


def picture(explanations: Sequence[Explanation], view: View) -> Picture:
    """The text format: the picture the terminal draws at its own width (or ``--width``)."""

    def draw(width: int, ascii_only: bool) -> list[RenderableType]:
        return render(explanations, width=width, ascii_only=ascii_only)

    return Picture(draw, view.width, view.ascii_only, MIN_WIDTH)


def render(
    explanations: Sequence[Explanation], *, width: int, ascii_only: bool = False
) -> list[RenderableType]:
    """Everything to print, in order; the caller's console decides colour."""
    out: list[RenderableType] = []
    for number, item in enumerate(explanations):
        if number:
            out.append(Text(""))
        out.extend(render_one(item, width=max(width, MIN_WIDTH), ascii_only=ascii_only))
    return [shown_text(item) if isinstance(item, Text) else item for item in out]


def render_one(item: Explanation, *, width: int, ascii_only: bool) -> list[RenderableType]:
    out: list[RenderableType] = [*_header(item, ascii_only, width)]
    if item.grammar is not None:
        out.append(Text(""))
        out.extend(_grammar(item.grammar, width))
        return out
    out.append(Text(""))
    out.extend(_matrix_blocks(item.matrix, width, ascii_only, item.against is not None))
    out.append(_legend(ascii_only, item.against is not None, width))
    out.append(Text(""))
    out.extend(_timelines(item, width))
    if item.against is not None:
        out.append(Text(""))
        out.extend(_findings(item))
    return out


# -- header -------------------------------------------------------------------------------
def _header(item: Explanation, ascii_only: bool, width: int) -> list[Text]:
    message = item.message
    dot = " | " if ascii_only else " · "
    first = Text()
    first.append(message.name or "(unnamed)", style="bold")
    first.append(dot + dot.join(item.kind_facts()), style="cyan")
    facts = _between_facts(item.version_facts(), dot, width)
    lines = [first, Text(item.path, style="dim"), *(Text(line) for line in facts)]
    against = item.against
    if against is not None:
        where = f" ({against.base_path})" if against.base_path else " (not there: a new message)"
        line = Text(f"changes since {against.base_label}{where} in {against.head_label}")
        lines.append(Text(line.plain, style="bold"))
    return lines


def _between_facts(facts: Sequence[str], dot: str, width: int) -> list[str]:
    """Facts joined by ``dot`` in lines of at most ``width``, broken only between facts:
    "listeners zkBroker, broker, controller" is never cut inside its list."""
    lines: list[str] = []
    for fact in facts:
        if lines and len(lines[-1]) + len(dot) + len(fact) <= width:
            lines[-1] += dot + fact
        else:
            lines.append(fact)
    return lines


# -- matrix -------------------------------------------------------------------------------
# Lines are laid out here rather than with rich's Table: the widths are known, and
# building Text lines directly is several times faster (cold start matters here).
def _label(row: Row, marks: bool) -> str:
    prefix = (_ROW_MARK.get(row.change, " ") + " ") if marks else ""
    return prefix + "  " * row.depth + row.name


def _type_text(row: Row) -> str:
    if row.common:
        return f"{row.type} (common)"
    if row.recursive:
        return f"{row.type} (recursive)"
    return row.type


def _fit(text: str, width: int) -> str:
    """``text`` padded or cut (ending in ``~``) to exactly ``width`` characters."""
    if len(text) > width:
        return text[: max(width - 1, 0)] + "~"
    return text.ljust(width)


def _column_style(column: Column) -> str:
    if column.change:
        return _CHANGE_STYLE[column.change]
    return "bold green" if column.flexible else "bold"


def _cell_style(cell: Cell) -> str:
    if cell.change:
        return _CHANGE_STYLE[cell.change]
    if cell.tag is not None:
        return "cyan"
    return _SHAPE_STYLE[cell.shape]


@dataclass(frozen=True)
class _Grid:
    """The matrix's column widths, whether the type column fits, and versions per block."""

    label_w: int
    type_w: int
    cell_w: int
    show_type: bool
    per_block: int


def _matrix_blocks(matrix: Matrix, width: int, ascii_only: bool, marks: bool) -> list[Text]:
    """The matrix as lines, cut into blocks of versions that fit ``width``."""
    rows, columns = matrix.rows, matrix.columns
    labels = [_label(r, marks) for r in rows]
    types = [_type_text(r) for r in rows]
    heads = [{"added": "+", "removed": "-"}.get(c.change, "") + f"v{c.label}" for c in columns]
    symbols = [[c.symbol(ascii_only) for c in r.cells] for r in rows]
    grid = _grid(labels, types, heads, symbols, columns, width)
    lines: list[Text] = []
    for start in range(0, max(len(columns), 1), grid.per_block):
        part = range(start, min(start + grid.per_block, len(columns)))
        if lines:
            lines.append(Text(""))
        lines += _block_header(grid, part, heads, columns)
        for row, label, type_text, texts in zip(rows, labels, types, symbols, strict=True):
            lines.append(_block_row(grid, part, row, label, type_text, texts))
    for line in lines:
        line.rstrip()
    return lines


def _grid(
    labels: list[str],
    types: list[str],
    heads: list[str],
    symbols: list[list[str]],
    columns: Sequence[Column],
    width: int,
) -> _Grid:
    """Widths that fit the longest label, type and cell (labels and types capped), and how
    many versions a block of ``width`` holds: the type column is dropped first when fewer
    than four would fit, and the blocks are balanced (9 + 9 reads better than 12 + 6)."""
    label_w = max(min(max((len(s) for s in labels), default=5), _MAX_LABEL), len("field"))
    type_w = max(min(max((len(s) for s in types), default=4), _MAX_TYPE), len("type"))
    cell_w = max(
        [2, *(len(h) for h in heads), *(len(c.flags) for c in columns)]
        + [len(text) for line in symbols for text in line]
    )
    show_type = True
    per_block = (width - label_w - _GAP - type_w) // (cell_w + _GAP)
    if per_block < min(4, len(columns)):  # too narrow: the type column goes first
        show_type = False
        per_block = (width - label_w) // (cell_w + _GAP)
    per_block = max(per_block, 1)
    if columns:  # balance the blocks: 9 + 9 reads better than 12 + 6
        count = -(-len(columns) // per_block)
        per_block = -(-len(columns) // count)
    return _Grid(label_w, type_w, cell_w, show_type, per_block)


def _block_header(
    grid: _Grid, part: range, heads: list[str], columns: Sequence[Column]
) -> list[Text]:
    """A block's two header lines: field, type and version labels, then version flags."""
    gap = " " * _GAP
    top = Text(_fit("field", grid.label_w), style="bold")
    second = Text(" " * grid.label_w)
    if grid.show_type:
        top.append(gap + _fit("type", grid.type_w), style="bold")
        second.append(gap + " " * grid.type_w)
    for i in part:
        top.append(gap + _fit(heads[i], grid.cell_w), style=_column_style(columns[i]))
        second.append(gap + _fit(columns[i].flags, grid.cell_w), style=_column_style(columns[i]))
    return [top, second]


def _block_row(
    grid: _Grid, part: range, row: Row, label: str, type_text: str, texts: list[str]
) -> Text:
    """One field's line in a block: its label, type (if shown) and the block's cells."""
    gap = " " * _GAP
    line = Text(_fit(label, grid.label_w), style=_CHANGE_STYLE.get(row.change, ""))
    if grid.show_type:
        line.append(gap + _fit(type_text, grid.type_w), style="dim")
    for i in part:
        line.append(gap)
        line.append(_fit(texts[i], grid.cell_w), style=_cell_style(row.cells[i]))
    return line


def _legend(ascii_only: bool, marks: bool, width: int) -> Text:
    entries = [f"{a if ascii_only else u} {meaning}" for u, a, meaning in _LEGEND]
    entries.append("D deprecated, F flexible, U unstable")
    if marks:
        entries.append(CHANGES_LEGEND)
    # break only between entries, so "◆ compact length" never loses its meaning
    lines = ["legend: " + entries[0]]
    for entry in entries[1:]:
        if len(lines[-1]) + 2 + len(entry) > width:
            lines.append(" " * len("legend: ") + entry)
        else:
            lines[-1] += "  " + entry
    return Text("\n".join(lines), style="dim")


# -- timelines ----------------------------------------------------------------------------
def _hanging(left: str, left_w: int, text: str, width: int) -> list[str]:
    """``left`` in a column of ``left_w``, ``text`` wrapped beside it (or below if too long)."""
    room = max(width - left_w - _GAP - 1, 20)
    wrapped = textwrap.wrap(text, width=room, break_on_hyphens=False) or [""]
    pad = " " * (left_w + _GAP + 1)
    if len(left) > left_w:
        return [left, *(pad + part for part in wrapped)]
    first = left.ljust(left_w) + " " * (_GAP + 1) + wrapped[0]
    return [first.rstrip(), *(pad + part for part in wrapped[1:])]


def _timelines(item: Explanation, width: int) -> list[Text]:
    rows = item.matrix.rows
    marks = 2 if item.against is not None else 0
    path_w = min(max((len(r.path) + marks for r in rows), default=5), width // 2)
    lines = [Text("timeline", style="bold")]
    for row, phrase in zip(rows, item.timelines, strict=True):
        style = _CHANGE_STYLE.get(row.change, "")
        mark = _ROW_MARK.get(row.change, " ") + " " if item.against is not None else ""
        for number, text in enumerate(_hanging(mark + row.path, path_w, phrase, width)):
            line = Text(text)
            if number == 0:
                line.stylize(style, 0, min(len(mark) + len(row.path), len(text)))
            lines.append(line)
    return lines


# -- grammar ------------------------------------------------------------------------------
def grammar_lines(grammar: Grammar, width: int) -> list[str]:
    """The grammar, each line wrapped with a hanging indent under its first item."""
    lines = []
    for line in grammar.lines:
        indent = " " * min(len(line.name) + 4, width // 2)
        for text, hanging in ((line.text, indent), (line.tagged_text, " " * 17)):
            if text:
                lines.extend(
                    textwrap.wrap(
                        text,
                        width=width,
                        subsequent_indent=hanging,
                        break_long_words=False,
                        break_on_hyphens=False,
                    )
                )
    return lines


def _grammar(grammar: Grammar, width: int) -> list[RenderableType]:
    flexible = "flexible" if grammar.flexible else "not flexible"
    out: list[RenderableType] = [
        Text(f"Version {grammar.version} ({flexible})", style="bold"),
        Text(""),
    ]
    out.extend(Text(line) for line in grammar_lines(grammar, width))
    out.append(Text(""))
    names = ["  " * row.depth + row.name for row in grammar.rows]
    columns = _GrammarColumns.of(grammar, names, width)
    gap = " " * _GAP
    head = (
        f"{_fit('field', columns.name)}{gap}{_fit('type', columns.wire)}{gap}"
        f"{'bytes'.rjust(columns.size)}"
    )
    out.append(Text(head + ("" if columns.notes_below else gap + " notes"), style="bold"))
    for row, name in zip(grammar.rows, names, strict=True):
        out += _grammar_row(row, name, columns)
    return out


@dataclass(frozen=True)
class _GrammarColumns:
    """The widths of the grammar table's columns at ``width``, and whether the notes go
    under the type (when even the type's longest word leaves them too little room)."""

    width: int
    name: int
    wire: int
    size: int
    notes_below: bool

    @property
    def left(self) -> int:
        """The columns before the notes."""
        return self.name + self.wire + self.size + 2 * _GAP

    @staticmethod
    def of(grammar: Grammar, names: Sequence[str], width: int) -> _GrammarColumns:
        name_w = max(min(max((len(n) for n in names), default=5), _MAX_LABEL), len("field"))
        size_w = max(max((len(r.size) for r in grammar.rows), default=5), len("bytes"))
        # the type column is whole unless that leaves the notes less than _MIN_NOTES
        # columns; a type wider than its column wraps between its words (never cut:
        # "COMPACT_ARRAY[STRUCT MetadataResponseBroker]" on two lines); only a word wider
        # than the room is folded
        room_for_type = width - name_w - size_w - 3 * _GAP - 1 - _MIN_NOTES
        fitting = max(
            (len(r.wire) for r in grammar.rows if len(r.wire) <= room_for_type), default=4
        )
        longest_word = max((len(w) for r in grammar.rows for w in r.wire.split()), default=4)
        widest = max(width - name_w - size_w - 2 * _GAP, len("type"))  # the type, no notes
        wire_w = max(fitting, min(longest_word, widest), len("type"))
        left_w = name_w + wire_w + size_w + 2 * _GAP
        notes_below = width - left_w - _GAP - 1 < _MIN_NOTES
        return _GrammarColumns(width, name_w, wire_w, size_w, notes_below)


def _grammar_row(row: GrammarRow, name: str, columns: _GrammarColumns) -> list[Text]:
    """One field of the grammar: its lines (a long type or notes wrap in their column),
    then its notes under it when they go below."""
    gap = " " * _GAP
    wires = _cell_lines(row.wire, columns.wire)
    beside = (
        []
        if columns.notes_below or not row.notes
        else _cell_lines(row.notes, columns.width - columns.left - 2)
    )
    style = "cyan" if row.tag is not None else ""
    out = []
    for number in range(max(len(wires), len(beside))):
        first = number == 0
        line = Text(_fit(name if first else "", columns.name), style="" if row.path else "dim")
        wire = wires[number] if number < len(wires) else ""
        line.append(gap + _fit(wire, columns.wire), style=style)
        line.append(gap + (row.size if first else "").rjust(columns.size))
        if number < len(beside):
            line.append(gap + " " + beside[number])
        line.rstrip()
        out.append(line)
    if columns.notes_below and row.notes:
        indent = " " * (columns.name + _GAP)
        below = _cell_lines(row.notes, columns.width - len(indent))
        out.extend(Text(indent + part, style="dim") for part in below)
    return out


def _cell_lines(text: str, room: int) -> list[str]:
    """``text`` wrapped to a column of ``room`` between words (a word wider than the
    column folded, not cut), never wider."""
    room = max(room, 1)
    lines = textwrap.wrap(text, width=room, break_on_hyphens=False, break_long_words=False)
    return [line[i : i + room] for line in lines for i in range(0, len(line), room)] or [""]


# -- findings -----------------------------------------------------------------------------
def _findings(item: Explanation) -> list[RenderableType]:
    """diff's findings for the message, each with its hint, notes and bytes (a hint may
    speak of "the bytes below": they are there)."""
    from kcompat.report.lines import styled
    from kcompat.report.text import finding_block

    against = item.against
    assert against is not None
    if not against.findings:
        return [Text(f"kcompat diff: no findings for {item.message.name}.", style="green")]
    count = len(against.findings)
    out: list[RenderableType] = [
        Text(f"kcompat diff: {count} finding{'s' if count != 1 else ''}", style="bold")
    ]
    for finding in against.findings:
        out.extend(styled(line) for line in finding_block(finding, against.base_label))
    return out


def to_string(renderables: Sequence[RenderableType], *, width: int) -> str:
    """The picture as plain text at a fixed width (snapshots, tests, ``--no-color`` files)."""
    import io

    from rich.console import Console

    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        color_system=None,
        force_terminal=False,
        no_color=True,
        highlight=False,
        emoji=False,
        markup=False,
        legacy_windows=False,
    )
    for item in renderables:
        console.print(item)
    return "\n".join(line.rstrip() for line in buffer.getvalue().splitlines()) + "\n"


def shown_text(text: Text) -> Text:
    """A rich Text with :func:`shown` applied to its characters, its styles kept on the
    same characters (newlines kept: a rich Text may span lines)."""
    plain = text.plain
    if not UNSAFE.search(plain.replace("\n", "")):
        return text
    starts = [0]  # where each original character starts in the escaped text
    pieces = []
    for char in plain:
        piece = char if char == "\n" else shown(char)
        pieces.append(piece)
        starts.append(starts[-1] + len(piece))
    out = text.copy()
    out.plain = "".join(pieces)
    out.spans = [Span(starts[s.start], starts[s.end], s.style) for s in text.spans]
    return out
