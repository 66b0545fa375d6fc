"""The ``strands`` job kind: which client releases each commit of a line strands, and
its page (a heat map, :mod:`.strands_page`).

Its table is not findings: one row per (commit, client release) with the APIs that
commit strands the release on (``strandings/``); an audit's report reads the rows that
strand any.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from kcompat.auditreport.kinds import AuditData, JobKind, register
from kcompat.auditreport.load import shown_value
from kcompat.auditreport.strands_page import render_strands
from kcompat.errors import UsageError
from kcompat.report.columns import arrow_schema
from kcompat.report.strands_summary import StrandsSummary, is_strands

Stranding = dict[str, Any]
"""A row of ``strandings/``: commit_index, commit, client, stranded (API keys), count."""


@dataclass(frozen=True)
class StrandingsTable:
    """``strands``' table: one row per commit and client release."""

    directory: ClassVar[str] = "strandings"
    noun: ClassVar[str] = "strandings"
    required: ClassVar[frozenset[str]] = frozenset({"commit_index", "client", "stranded", "count"})
    ddl: ClassVar[str] = (
        "commit_index int, commit string, client string, stranded array<int>, count int"
    )

    def empty(self) -> Any:
        import pyarrow as pa

        return pa.Table.from_pylist([], schema=arrow_schema(self.ddl))

    def read(self, records: Iterable[Mapping[str, Any]]) -> list[Stranding]:
        """The rows that strand an API (the others say only that nothing is stranded)."""
        return [dict(row) for row in records if row["count"]]


def check_strandings(
    directory: Path, summary: Mapping[str, Any], rows: Sequence[Stranding]
) -> None:
    """Each row names a commit and a client release the summary has."""
    where = directory / "summary.json"
    location = directory / StrandingsTable.directory
    commits, clients = summary.get("commits") or [], set(summary.get("clients") or [])
    for row in rows:
        index = row["commit_index"]
        if not isinstance(index, int) or not 0 <= index < len(commits):
            raise UsageError(
                f"{location}: a row names commit {shown_value(index)}, but {where.name} has "
                f"{len(commits)}; the run is inconsistent, rerun it"
            )
        if row["client"] not in clients:
            raise UsageError(
                f"{location}: a row names client release {shown_value(row['client'])}, which "
                f"{where.name} does not list; the run is inconsistent, rerun it"
            )


def strands_page(audit: AuditData[StrandsSummary, Stranding], page: Path | None) -> str:
    return render_strands(audit)


STRANDS: JobKind[StrandsSummary, Stranding] = register(
    JobKind(
        name="strands",
        command="strands",
        summary=StrandsSummary.from_json,
        table=StrandingsTable(),
        view=None,
        recognises=is_strands,
        check=check_strandings,
        page=strands_page,
        counted="commit and client pairs stranded",
    )
)
