"""What changed since BASE, cell by cell: the matrix ``--against`` draws.

The result is an ordinary :class:`~kcompat.explain.matrix.Matrix` whose columns are every
version of either side and whose rows are every field of either side (a removed field
stays at its old place), with ``change`` set on columns, rows and cells. Renderers need
no second code path: they only show the marks. A cell marked ``removed`` describes what
BASE had there (HEAD has nothing to describe); every other cell describes HEAD, or BASE
in a version HEAD no longer has.
"""

from __future__ import annotations

from dataclasses import replace

from kcompat.explain.matrix import ABSENT, Cell, Matrix, Row


def compare(base: Matrix | None, head: Matrix) -> Matrix:
    """``head`` with what differs from ``base`` marked (everything is new if base is None)."""
    if base is None:
        columns = tuple(replace(c, change="added") for c in head.columns)
        rows = tuple(replace(r, change="added") for r in head.rows)
        return Matrix(head.message, columns, rows)
    base_versions = set(base.versions)
    head_versions = set(head.versions)
    by_version = {c.version: replace(c, change="removed") for c in base.columns}
    for column in head.columns:
        by_version[column.version] = replace(
            column, change="" if column.version in base_versions else "added"
        )
    columns = tuple(by_version[v] for v in sorted(by_version))
    base_rows = {r.path: r for r in base.rows}
    head_rows = {r.path: r for r in head.rows}
    base_at = {v: i for i, v in enumerate(base.versions)}
    head_at = {v: i for i, v in enumerate(head.versions)}

    def merged(path: str) -> Row:
        old, new = base_rows.get(path), head_rows.get(path)
        shown = new if new is not None else old
        assert shown is not None
        cells = []
        for column in columns:
            version = column.version
            before = _cell_at(old, base_at.get(version))
            after = _cell_at(new, head_at.get(version))
            if version in head_versions and version in base_versions:
                change = _cell_change(before, after)
                # a removed cell shows what BASE had, marked: "○-" reads "was ○, gone"
                shown_cell = before if change == "removed" else after
                cells.append(replace(shown_cell, change=change))
            elif version in head_versions:
                cells.append(after)
            else:
                cells.append(before)
        change = _row_change(old, new, cells)
        return replace(shown, cells=tuple(cells), change=change)

    out = [merged(r.path) for r in head.rows]
    previous = ""
    for row in base.rows:
        if row.path not in head_rows:
            out.insert(_insertion_point(out, previous, row.depth), merged(row.path))
        previous = row.path
    return Matrix(head.message, columns, tuple(out))


def _cell_at(row: Row | None, index: int | None) -> Cell:
    if row is None or index is None:
        return ABSENT
    return row.cells[index]


def _cell_change(before: Cell, after: Cell) -> str:
    if before.key() == after.key():
        return ""
    if not before.present:
        return "added"
    if not after.present:
        return "removed"
    return "changed"


def _row_change(old: Row | None, new: Row | None, cells: list[Cell]) -> str:
    if old is None:
        return "added"
    if new is None:
        return "removed"
    if any(c.change for c in cells) or old.type != new.type:
        return "changed"
    if old.field.default.key() != new.field.default.key():
        return "changed"
    return ""


def _insertion_point(rows: list[Row], previous: str, depth: int) -> int:
    """After ``previous`` and anything nested deeper than ``depth`` that follows it."""
    index = next((i for i, r in enumerate(rows) if r.path == previous), -1)
    if index < 0:
        return 0 if not previous else len(rows)
    index += 1
    while index < len(rows) and rows[index].depth > depth:
        index += 1
    return index
