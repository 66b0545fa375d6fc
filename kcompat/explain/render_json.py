"""``kcompat explain --format json``: the matrix, timelines, grammar and findings as data.

The document (``"schema": "kcompat-explain"``, ``"version": 1``; fields are only added
within a version)::

    {
      "schema": "kcompat-explain", "version": 1,
      "legend": [{"symbol": "●", "ascii": "#", "meaning": "fixed width ..."}, ...],
      "messages": [{
        "name": "WidgetRequest", "type": "request", "api_key": 200,
        "path": "specs/examples/WidgetRequest.json",
        "listeners": ["broker", "controller"],
        "valid_versions": "0-4", "flexible_versions": "2+", "deprecated_versions": "0",
        "latest_version_unstable": true, "unstable_version": 4,
        "columns": [{"version": 0, "label": "0", "flexible": false, "deprecated": true,
                     "unstable": false, "change": null}, ...],
        "rows": [{
          "path": "Widgets.Name", "name": "Name", "depth": 1, "type": "string",
          "common_struct": null,        # the common struct this row's type expands
          "in_common_struct": null,     # the common struct the field is defined in
          "recursive": false, "tags": [], "default": null, "ignorable": false,
          "timeline": "in every version",
          "change": null,               # --against: "added" | "removed" | "changed"
          "cells": [                    # one per column, in column order; a cell whose
                                        # change is "removed" describes BASE
            {"present": true, "symbol": "○", "ascii": "o", "wire": "STRING",
             "nullable": false, "tag": null, "compact": false, "encoding": null,
             "fixed_size": null, "change": null},
            {"present": false, "symbol": "·", "ascii": ".", "change": null}, ...]
        }, ...],
        "layout": null | {              # --version N
          "version": 3, "flexible": true,
          "grammar": ["Widget Request (Version: 3) => ...", "widgets => ..."],
          "fields": [{"path": "Widgets", "name": "widgets", "depth": 0,
                      "wire": "COMPACT_ARRAY[STRUCT WidgetSpec]", "bytes": "var",
                      "fixed_size": null, "tag": null, "nullable": false,
                      "default": null, "notes": ""}, ...]},
        "against": null | {             # --against BASE
          "base": "origin/main", "head": "the working tree",
          "base_path": "...",           # null when the message is new
          "findings": [...]}            # as in kcompat's findings report
      }]
    }
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from kcompat.escaping import json_safe
from kcompat.explain.explanation import Explanation
from kcompat.explain.formats import View
from kcompat.explain.grammar import Grammar
from kcompat.explain.matrix import LEGEND, Cell, Column, Row
from kcompat.explain.timeline import default_text

SCHEMA_VERSION = 1


def render(explanations: Sequence[Explanation], view: View | None = None) -> str:
    """The document; names keep their real values, written as ``\\u`` escapes where a
    terminal would act on them (``view``: the drawing options, which JSON has no use for)."""
    return json_safe(dumps(document(explanations))) + "\n"


def dumps(value: Any, indent: int = 0, inline_limit: int = 240) -> str:
    """JSON indented like ``indent=2``, except that an object or array holding only
    scalars stays on one line when it fits: one line per cell keeps FetchRequest's
    18 x 40 cells readable (and its snapshot a fifth of the size)."""
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if not isinstance(value, dict | list) or (
        _scalars(value) and len(flat) + indent <= inline_limit
    ):
        return flat
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(value, list):
        if not value:
            return "[]"
        items = [inner + dumps(item, indent + 2, inline_limit) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    if not value:
        return "{}"
    fields = [
        f"{inner}{json.dumps(key, ensure_ascii=False)}: {dumps(item, indent + 2, inline_limit)}"
        for key, item in value.items()
    ]
    return "{\n" + ",\n".join(fields) + "\n" + pad + "}"


def _scalars(value: dict[str, Any] | list[Any]) -> bool:
    items = value.values() if isinstance(value, dict) else value
    return all(not isinstance(item, dict | list) or not item for item in items)


def document(explanations: Sequence[Explanation]) -> dict[str, Any]:
    return {
        "schema": "kcompat-explain",
        "version": SCHEMA_VERSION,
        "legend": [{"symbol": u, "ascii": a, "meaning": m} for u, a, m in LEGEND],
        "messages": [message_dict(item) for item in explanations],
    }


def message_dict(item: Explanation) -> dict[str, Any]:
    message = item.message
    return {
        "name": message.name,
        "type": message.kind,
        "api_key": message.api_key,
        "path": item.path,
        "listeners": list(message.listeners),
        "valid_versions": str(message.valid_versions),
        "flexible_versions": str(message.flexible_versions),
        "deprecated_versions": str(message.deprecated_versions),
        "latest_version_unstable": message.latest_version_unstable,
        "unstable_version": item.matrix.unstable_version,
        "columns": [_column(c) for c in item.matrix.columns],
        "rows": [_row(r, t) for r, t in zip(item.matrix.rows, item.timelines, strict=True)],
        "layout": _layout(item.grammar) if item.grammar is not None else None,
        "against": _against(item),
    }


def _column(column: Column) -> dict[str, Any]:
    return {
        "version": column.version,
        "label": column.label,
        "flexible": column.flexible,
        "deprecated": column.deprecated,
        "unstable": column.unstable,
        "change": column.change or None,
    }


def _row(row: Row, phrase: str) -> dict[str, Any]:
    default = row.field.default
    return {
        "path": row.path,
        "name": row.name,
        "depth": row.depth,
        "type": row.type,
        "common_struct": row.common or None,
        "in_common_struct": row.within or None,
        "recursive": row.recursive,
        "tags": list(row.tags),
        "default": default_text(default) if default.explicit else None,
        "ignorable": row.field.ignorable,
        "timeline": phrase,
        "change": row.change or None,
        "cells": [_cell(c) for c in row.cells],
    }


def _cell(cell: Cell) -> dict[str, Any]:
    if not cell.present:
        return {
            "present": False,
            "symbol": cell.symbol(),
            "ascii": cell.symbol(ascii_only=True),
            "change": cell.change or None,
        }
    return {
        "present": True,
        "symbol": cell.symbol(),
        "ascii": cell.symbol(ascii_only=True),
        "wire": cell.wire,
        "nullable": cell.nullable,
        "tag": cell.tag,
        "compact": cell.compact,
        "encoding": cell.encoding or None,
        "fixed_size": cell.fixed_size,
        "change": cell.change or None,
    }


def _layout(grammar: Grammar) -> dict[str, Any]:
    return {
        "version": grammar.version,
        "flexible": grammar.flexible,
        "grammar": [text for line in grammar.lines for text in line.texts()],
        "fields": [
            {
                "path": row.path or None,
                "name": row.name,
                "depth": row.depth,
                "wire": row.wire,
                "bytes": row.size,
                "fixed_size": row.fixed_size,
                "tag": row.tag,
                "nullable": row.nullable,
                "default": row.default or None,
                "notes": row.notes,
            }
            for row in grammar.rows
        ],
    }


def _against(item: Explanation) -> dict[str, Any] | None:
    against = item.against
    if against is None:
        return None
    from kcompat.report.columns import finding_dict

    return {
        "base": against.base_label,
        "head": against.head_label,
        "base_path": against.base_path or None,
        "findings": [finding_dict(f) for f in against.findings],
    }
