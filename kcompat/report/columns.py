"""A finding's columns, defined once, and the typed rows of a findings table.

The JSON report (``data/findings.schema.json``), the Spark DDL and Arrow schemas of
``history`` and ``corpus verify`` findings, and their rows all derive from
:data:`FINDING_COLUMNS`; a test checks the table against the JSON schema, so a column
added here shows up everywhere or fails there.

A finding crosses Spark (and is read back from Parquet) as one typed row,
:class:`AuditRow`: the finding's columns (:class:`FindingRow`) and what it is about (a
compared :class:`Pair`, a stored :class:`Sample`, a frozen dataclass a job declares). A
:class:`FindingsTable` turns such rows into Arrow batches and back; nothing past it
handles a row as a ``dict``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, TypeVar

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
        "boolean": pa.bool_(),
        "array<string>": pa.list_(pa.string()),
        "array<int>": pa.list_(pa.int32()),
        "array<binary>": pa.list_(pa.binary()),
    }
    fields = []
    for column in schema.split(", "):
        name, kind = column.rsplit(" ", 1)
        fields.append((name.strip("`"), types[kind]))
    return pa.schema(fields)


# -- typed rows ----------------------------------------------------------------------------


@dataclass(frozen=True)
class FindingRow:
    """A finding as a table holds it: one field per column of :data:`FINDING_COLUMNS`, in
    order (a test holds them equal), structured values as JSON text. A column an older
    audit did not have reads back as None."""

    rule: str
    severity: str
    message: str
    hint: str | None = None
    file: str | None = None
    line: int | None = None
    column: int | None = None
    base_file: str | None = None
    base_line: int | None = None
    message_name: str | None = None
    field_path: str | None = None
    versions: str | None = None
    fingerprint: str | None = None
    released_by: str | None = None
    evidence: str | None = None
    notes: str | None = None
    accepted: str | None = None
    suppressed: str | None = None
    weakened_by: str | None = None

    @staticmethod
    def of(finding: Finding) -> FindingRow:
        return FindingRow.read(finding_row(finding))

    @staticmethod
    def read(values: Mapping[str, Any]) -> FindingRow:
        """The row of a table's record (its other columns are ignored)."""
        found: dict[str, Any] = {name: values.get(name) for name in _FINDING_NAMES}
        return FindingRow(**found)

    def values(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _FINDING_NAMES}

    @property
    def subject(self) -> str:
        """The message the finding is about, else its file (the name summaries count)."""
        return self.message_name or self.file or ""


_FINDING_NAMES = tuple(column.name for column in FINDING_COLUMNS)


@dataclass(frozen=True)
class Pair:
    """What a ``history`` finding is about: the compared pair (its index in the audit)."""

    pair_index: int
    base_rev: str
    head_rev: str
    base_label: str
    head_label: str

    @property
    def step(self) -> str:
        return f"{self.base_label}..{self.head_label}"


@dataclass(frozen=True)
class Sample:
    """What a ``corpus verify`` finding is about: the stored sample (none for a finding
    about a whole message or version) and the two revisions."""

    version: int | None
    sample_id: int | None
    spec_digest: str | None
    writer: str | None
    reader: str | None


About = TypeVar("About")


@dataclass(frozen=True)
class AuditRow(Generic[About]):
    """One row of a findings table: a finding and what it is about."""

    finding: FindingRow
    about: About


#: The table type of each annotation an ``about`` dataclass may use.
_TABLE_TYPES: dict[str, TableType] = {
    "int": "int",
    "int | None": "int",
    "str": "string",
    "str | None": "string",
    "bytes": "binary",
    "bytes | None": "binary",
}


@dataclass(frozen=True)
class FindingsTable(Generic[About]):
    """The findings table of a job: the ``about`` dataclass's columns and the finding's
    (``about_first``: in that order, else the finding's first). Rows in, Arrow out, and
    back: the one place a finding is a ``dict``."""

    about: type[About]
    about_first: bool = True

    #: where an audit keeps it, and the columns every kcompat findings table has
    directory: ClassVar[str] = "findings"
    noun: ClassVar[str] = "findings"
    required: ClassVar[frozenset[str]] = frozenset({"rule", "severity", "message"})

    @property
    def about_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(self.about))  # type: ignore[arg-type]

    def columns(self) -> tuple[tuple[str, TableType], ...]:
        own = tuple(
            (f.name, _TABLE_TYPES[str(f.type)])
            for f in dataclasses.fields(self.about)  # type: ignore[arg-type]
        )
        return (*own, *finding_columns()) if self.about_first else (*finding_columns(), *own)

    @property
    def ddl(self) -> str:
        """Spark's DDL of the table (what ``mapInArrow`` and ``createDataFrame`` take)."""
        return ddl(self.columns())

    def arrow_schema(self) -> Any:
        return arrow_schema(self.ddl)

    def record(self, row: AuditRow[About]) -> dict[str, Any]:
        """A row as Arrow takes it (column name -> value)."""
        about = {name: getattr(row.about, name) for name in self.about_names}
        finding = row.finding.values()
        return {**about, **finding} if self.about_first else {**finding, **about}

    def batch(self, rows: Sequence[AuditRow[About]]) -> Any:
        """An Arrow record batch of ``rows`` (what a task yields)."""
        import pyarrow as pa

        records = [self.record(r) for r in rows]
        return pa.RecordBatch.from_pylist(records, schema=self.arrow_schema())

    def empty(self) -> Any:
        """A table without rows (an audit with nothing to check)."""
        import pyarrow as pa

        return pa.Table.from_pylist([], schema=self.arrow_schema())

    def read(self, records: Iterable[Mapping[str, Any]]) -> list[AuditRow[About]]:
        """Typed rows of a table's records (a column missing in an older audit is None).
        Rows about the same thing share one ``about`` value."""
        names = self.about_names
        shared: dict[tuple[Any, ...], About] = {}
        out = []
        for record in records:
            key = tuple(record.get(name) for name in names)
            about = shared.get(key)
            if about is None:
                about = shared.setdefault(key, self.about(*key))
            out.append(AuditRow(FindingRow.read(record), about))
        return out
