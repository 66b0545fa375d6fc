"""One sentence per field: when it appeared, changed form, and went away.

Phrases are read off the matrix cells, not the ``versions`` strings, so they describe
where the field really is: a field declared ``0+`` inside a struct added in version 3 is
"added in v3", and a common struct's field follows every place that uses it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence

from kcompat.explain.matrix import Cell, Column, Row, Shape
from kcompat.spec.model import Default, show_value


def timeline(row: Row, columns: Sequence[Column]) -> str:
    """E.g. ``added in v3, nullable since v5, tagged (tag 0) since v9, removed after v11``."""
    parts = _phrases(row, columns)
    return ", ".join(parts)


def _phrases(row: Row, columns: Sequence[Column]) -> list[str]:
    parts: list[str] = []
    if not columns:
        parts.append("no valid versions")
        return parts + _extras(row)
    present = [i for i, cell in enumerate(row.cells) if cell.present]
    if not present:
        parts.append("in no valid version")
        return parts + _extras(row)
    labels = [c.label for c in columns]
    if len(present) == len(columns):
        parts.append("in every version")
    elif present[0] > 0:
        parts.append(f"added in v{labels[present[0]]}")
    gaps = [i for i in range(present[0], present[-1] + 1) if i not in set(present)]
    if gaps:
        parts.append(f"absent in {span(gaps, labels)}")
    cells = row.cells
    parts += _attribute("nullable", present, labels, lambda i: cells[i].nullable)
    for tag in row.tags:

        def tagged(i: int, tag: int = tag) -> bool:
            return cells[i].tag == tag

        parts += _attribute(f"tagged (tag {tag})", present, labels, tagged)
    parts += _attribute(
        "non-compact in flexible versions",
        [i for i in present if columns[i].flexible and cells[i].tag is None],
        labels,
        lambda i: cells[i].shape is Shape.CLASSIC,
        whole="non-compact in flexible versions",
    )
    parts += _encodings(cells, present, labels)
    if present[-1] < len(columns) - 1:
        parts.append(f"removed after v{labels[present[-1]]}")
    return parts + _extras(row)


def _extras(row: Row) -> list[str]:
    parts = []
    if row.recursive:
        parts.append("recursive struct (not expanded)")
    default = row.field.default
    if default.explicit:
        parts.append(f"default {default_text(default)}")
    return parts


def default_text(default: Default) -> str:
    """A default as a reviewer reads it: the value, or the text when it is invalid/uuid."""
    if default.error is not None or isinstance(default.value, uuid.UUID):
        return str(default.text)
    return show_value(default.value)


def _attribute(
    name: str,
    present: Sequence[int],
    labels: Sequence[str],
    has: Callable[[int], bool],
    whole: str | None = None,
) -> list[str]:
    """``name``, ``name since vN``, ``name until vN`` or ``name in v..`` over present cells."""
    matching = [i for i in present if has(i)]
    if not matching:
        return []
    if len(matching) == len(present):
        return [whole or name]
    if matching == list(present[len(present) - len(matching) :]):
        return [f"{name} since v{labels[matching[0]]}"]
    if matching == list(present[: len(matching)]):
        return [f"{name} until v{labels[matching[-1]]}"]
    return [f"{name} in {span(matching, labels)}"]


def _encodings(cells: Sequence[Cell], present: Sequence[int], labels: Sequence[str]) -> list[str]:
    """Integer encodings as written: ``encoded upacked32``, or per version range."""
    names = [cells[i].encoding for i in present]
    if not any(names):
        return []
    if len(set(names)) == 1:
        return [f"encoded {names[0]}"]
    groups: dict[str, list[int]] = {}
    for i, name in zip(present, names, strict=True):
        groups.setdefault(name or "fixed (default)", []).append(i)
    phrases = []
    for name, where in groups.items():
        contiguous = where == list(range(where[0], where[-1] + 1))
        if contiguous and where[-1] == present[-1] and where[0] != present[0]:
            phrases.append(f"{name} since v{labels[where[0]]}")
        else:
            phrases.append(f"{name} in {span(where, labels)}")
    return ["encoded " + ", ".join(phrases)]


def span(indices: Sequence[int], labels: Sequence[str]) -> str:
    """Column indices as version ranges: ``v1-3, v5``."""
    runs: list[tuple[int, int]] = []
    for i in indices:
        if runs and i == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return ", ".join(f"v{labels[a]}" if a == b else f"v{labels[a]}-{labels[b]}" for a, b in runs)
