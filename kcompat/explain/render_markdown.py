"""GitHub markdown for a pull-request comment: one table per message, ASCII cells.

Every row has exactly as many cells as the header (tested), cells are escaped, and the
glyphs are the ASCII set, so the table renders the same in any GitHub theme or font.
Nested fields are written as dotted paths, since markdown tables drop leading spaces.
"""

from __future__ import annotations

from collections.abc import Sequence

from kcompat.escaping import shown_block
from kcompat.explain.explanation import Explanation
from kcompat.explain.formats import View
from kcompat.explain.grammar import Grammar
from kcompat.explain.matrix import CHANGES_LEGEND, LEGEND, Column, Row

_ROW_MARK = {"added": "+ ", "removed": "- ", "changed": "~ "}


def render(explanations: Sequence[Explanation], view: View | None = None) -> str:
    """The whole document (sections separated by a rule); its only control characters
    are its own newlines (see :func:`~kcompat.escaping.shown_block`). ``view``: the
    drawing options; a Markdown table has its own width."""
    parts = [shown_block(render_one(item)) for item in explanations]
    return "\n---\n\n".join(parts)


def render_one(item: Explanation) -> str:
    lines = _header(item)
    lines.append("")
    if item.grammar is not None:
        lines.extend(_grammar(item.grammar))
        return "\n".join(lines) + "\n"
    lines.extend(_matrix(item))
    lines.append("")
    lines.append(_legend(item.against is not None))
    if item.against is not None:
        lines.append("")
        lines.extend(_findings(item))
    return "\n".join(lines) + "\n"


def cell(text: str) -> str:
    """Text safe inside a table cell: pipes escaped, no line breaks."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def code(text: str) -> str:
    """Inline code that survives backticks in the text."""
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _header(item: Explanation) -> list[str]:
    title = f"### {code(item.message.name or '(unnamed)')} · " + " · ".join(item.kind_facts())
    parts = [code(item.path), *item.version_facts(code)]
    lines = [title, "", " · ".join(parts)]
    against = item.against
    if against is not None:
        where = code(against.base_path) if against.base_path else "not there (a new message)"
        since = f"Changes since {code(against.base_label)} ({where})"
        lines += ["", f"{since} in {against.head_label}."]
    return lines


def _column_header(column: Column) -> str:
    mark = {"added": "+", "removed": "-"}.get(column.change, "")
    flags = f" {column.flags}" if column.flags else ""
    return f"{mark}v{column.label}{flags}"


def _field(row: Row) -> str:
    mark = _ROW_MARK.get(row.change, "")
    return cell(f"{mark}{code(row.path)}")


def _type(row: Row) -> str:
    suffix = " (common)" if row.common else " (recursive)" if row.recursive else ""
    return cell(code(row.type) + suffix)


def _matrix(item: Explanation) -> list[str]:
    columns = item.matrix.columns
    header = ["field", "type", *(_column_header(c) for c in columns), "timeline"]
    align = ["---", "---", *(":---:" for _ in columns), "---"]
    lines = [_line(header), _line(align)]
    for row, phrase in zip(item.matrix.rows, item.timelines, strict=True):
        cells = [_field(row), _type(row)]
        cells.extend(code(c.symbol(ascii_only=True)) for c in row.cells)
        cells.append(cell(phrase))
        lines.append(_line(cells))
    return lines


def _line(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _legend(marks: bool) -> str:
    entries = [f"{code(ascii_)} {meaning}" for _u, ascii_, meaning in LEGEND]
    entries.append("columns: D deprecated, F flexible, U unstable")
    if marks:
        entries.append(code(CHANGES_LEGEND))
    return "Legend: " + " · ".join(entries)


def _grammar(grammar: Grammar) -> list[str]:
    flexible = "flexible" if grammar.flexible else "not flexible"
    lines = [f"Version {grammar.version} ({flexible}):", "", "```"]
    lines.extend(text for line in grammar.lines for text in line.texts())
    lines += ["```", ""]
    lines += [_line(["field", "type", "bytes", "notes"]), _line(["---", "---", "--:", "---"])]
    for row in grammar.rows:
        indent = "&nbsp;&nbsp;" * row.depth
        lines.append(
            _line([indent + cell(code(row.name)), cell(code(row.wire)), row.size, cell(row.notes)])
        )
    return lines


def _findings(item: Explanation) -> list[str]:
    against = item.against
    assert against is not None
    if not against.findings:
        return [f"`kcompat diff`: no findings for {code(item.message.name)}."]
    count = len(against.findings)
    lines = [f"`kcompat diff`: {count} finding{'s' if count != 1 else ''}", ""]
    for finding in against.findings:
        where = code(str(finding.location))
        text = f"- **{finding.severity.label}** {code(finding.rule)} {finding.message} ({where})"
        lines.append(text.replace("\n", " "))
        if finding.hint:
            lines.append(f"  - hint: {finding.hint}".replace("\n", " "))
        if finding.evidence is not None:  # the bytes a hint may speak of
            rows = str(finding.evidence).splitlines()
            fence = "~~~~" if any(r.lstrip().startswith("~~~") for r in rows) else "~~~"
            lines += ["", f"  {fence}", *(f"  {r}" for r in rows), f"  {fence}", ""]
    return lines
