"""A finding's columns, defined once.

The JSON report (``data/findings.schema.json``), the Spark DDL and Arrow schemas of
``history`` and ``corpus verify`` findings, and their rows all derive from
:data:`FINDING_COLUMNS`; a test checks the table against the JSON schema, so a column
added here shows up everywhere or fails there.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from kcompat.findings import Finding

#: The table types kcompat's Spark and Arrow schemas use.
TableType = Literal["string", "int", "long", "binary"]


@dataclass(frozen=True)
class Column:
    """One column: its name, its type in a table, and its value in the JSON report.

    ``structured`` columns (evidence, notes) are JSON objects or lists in the report and
    JSON text in a table (Parquet keeps one flat schema for every finding)."""

    name: str
    type: TableType
    value: Callable[[Finding], Any]
    structured: bool = False


def _base_file(finding: Finding) -> str | None:
    return finding.base_location.path if finding.base_location else None


def _base_line(finding: Finding) -> int | None:
    return finding.base_location.line if finding.base_location else None


def versions_text(finding: Finding) -> str:
    """The versions a finding is about, as every report writes them ("" for none)."""
    return "" if finding.versions is None else str(finding.versions)


def _evidence(finding: Finding) -> Any:
    return finding.evidence.to_dict() if finding.evidence is not None else None


FINDING_COLUMNS: tuple[Column, ...] = (
    Column("rule", "string", lambda f: f.rule),
    Column("severity", "string", lambda f: f.severity.label),
    Column("message", "string", lambda f: f.message),
    Column("hint", "string", lambda f: f.hint),
    Column("file", "string", lambda f: f.location.path),
    Column("line", "int", lambda f: f.location.line),
    Column("column", "int", lambda f: f.location.column),
    Column("base_file", "string", _base_file),
    Column("base_line", "int", _base_line),
    Column("message_name", "string", lambda f: f.message_name),
    Column("field_path", "string", lambda f: f.field_path),
    Column("versions", "string", versions_text),
    Column("fingerprint", "string", lambda f: f.fingerprint),
    Column("released_by", "string", lambda f: f.released_by or None),
    Column("evidence", "string", _evidence, structured=True),
    Column("notes", "string", lambda f: list(f.notes), structured=True),
    Column("accepted", "string", lambda f: f.accepted or None),
    Column("suppressed", "string", lambda f: f.suppressed or None),
    Column("weakened_by", "string", lambda f: f.weakened_by or None),
)


def finding_dict(finding: Finding) -> dict[str, Any]:
    """The finding as the JSON report writes it."""
    return {column.name: column.value(finding) for column in FINDING_COLUMNS}


def finding_row(finding: Finding) -> dict[str, Any]:
    """The finding as a table row: structured values as JSON text (``None`` when empty)."""
    row = finding_dict(finding)
    for column in FINDING_COLUMNS:
        if column.structured:
            value = row[column.name]
            row[column.name] = json.dumps(value, ensure_ascii=False) if value else None
    return row


def ddl(columns: Iterable[tuple[str, TableType]]) -> str:
    """Spark's DDL for ``(name, type)`` pairs (every name quoted: ``column`` is reserved)."""
    return ", ".join(f"`{name}` {kind}" for name, kind in columns)


def finding_columns() -> tuple[tuple[str, TableType], ...]:
    return tuple((column.name, column.type) for column in FINDING_COLUMNS)


def arrow_schema(schema: str) -> Any:
    """The pyarrow schema of a Spark DDL string (the types kcompat's tables use)."""
    import pyarrow as pa

    types = {
        "string": pa.string(),
        "int": pa.int32(),
        "long": pa.int64(),
        "binary": pa.binary(),
        "array<string>": pa.list_(pa.string()),
        "array<binary>": pa.list_(pa.binary()),
    }
    fields = []
    for column in schema.split(", "):
        name, kind = column.rsplit(" ", 1)
        fields.append((name.strip("`"), types[kind]))
    return pa.schema(fields)
