"""The kinds of audit a Spark job writes, each registered once.

A job kind is what everything outside a job's driver knows of the job: its name (the
``"kind"`` of its ``summary.json``), the command that writes it, its summary's type, its
table (the Parquet dataset it writes: for findings a
:class:`~kcompat.report.columns.FindingsTable`, whose rows say what each finding is
about), and its report (the :class:`~kcompat.auditreport.views.View` the audit page
draws and the pages it links, or a page of its own). The driver
(:mod:`kcompat.pipeline.job`) writes an audit through its kind, and ``kcompat report``
reads any audit back through the kind its summary names. A ``summary.json`` written
before kinds were named has no ``"kind"``: each kind knows its own by their keys
(``recognises``).

Each kind is one module of this package that calls :func:`register` (listed in
:data:`KIND_MODULES`): a new job adds one module and one line here (see "A new Spark
job" in ``docs/ARCHITECTURE.md``).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from kcompat.auditreport.load import check_directory, read_records, read_summary, shown_value
from kcompat.auditreport.views import View
from kcompat.errors import UsageError
from kcompat.escaping import shown

#: The modules of :mod:`kcompat.auditreport` that register a kind (in the order errors
#: name their commands).
KIND_MODULES: tuple[str, ...] = ("history", "corpus", "strands")


class Summary(Protocol):
    """What a job's run adds up to: written as ``summary.json`` (``to_json``), read back
    by the kind's ``summary`` function."""

    def to_json(self) -> dict[str, Any]: ...


S = TypeVar("S", bound=Summary)
Row = TypeVar("Row")


class Table(Protocol[Row]):
    """The Parquet dataset a job writes beside its summary, and its rows typed."""

    @property
    def directory(self) -> str:
        """The dataset's directory in the audit (``findings``)."""

    @property
    def noun(self) -> str:
        """What its rows are, in an error ("not kcompat findings")."""

    @property
    def required(self) -> frozenset[str]:
        """The columns every such dataset has."""

    @property
    def ddl(self) -> str:
        """Spark's DDL of its columns."""

    def empty(self) -> Any:
        """A pyarrow table without rows."""

    def read(self, records: Iterable[Mapping[str, Any]]) -> list[Row]:
        """Its rows, typed, from the dataset's records."""


@dataclass(frozen=True)
class AuditData(Generic[S, Row]):
    """An audit as written: which kind of job made it, its summary, and its table's rows
    (the findings, for a findings table)."""

    kind: str
    summary: S
    findings: tuple[Row, ...]
    source: str  # where it was read from, for the page's heading


Links = list[tuple[str, str, str]]
"""Pages an audit wrote beside it, for its report to link: (label, summary, link)."""


def _no_check(directory: Path, summary: Mapping[str, Any], rows: Sequence[Any]) -> None:
    """An audit whose rows need no check against its summary."""


def _no_links(audit: AuditData[Any, Any], page: Path | None) -> Links:
    return []


@dataclass(frozen=True)
class JobKind(Generic[S, Row]):
    """One kind of job's output: everything but its driver and its command."""

    name: str  # the "kind" in summary.json
    command: str  # what writes it, after "kcompat " ("corpus verify")
    summary: Callable[[Mapping[str, Any]], S]  # summary.json, read back
    table: Table[Row]
    #: the audit page's view of it (or ``page``: a page of its own)
    view: Callable[[AuditData[S, Row]], View] | None
    #: a summary.json written before kinds were named: is it this kind's?
    recognises: Callable[[Mapping[str, Any]], bool]
    #: rows that contradict the summary: one line naming the audit (UsageError)
    check: Callable[[Path, Mapping[str, Any], Sequence[Row]], None] = _no_check
    #: pages written beside the audit, linked from the report page at that path
    links: Callable[[AuditData[S, Row], Path | None], Links] = _no_links
    #: a page of its own, instead of the audit page drawn from ``view``
    page: Callable[[AuditData[S, Row], Path | None], str] | None = None
    #: what ``kcompat report`` says it counted of the rows
    counted: str = "findings"

    def summary_text(self, summary: S) -> str:
        """``summary.json``: the kind, then the summary's own keys."""
        return json.dumps({"kind": self.name, **summary.to_json()}, indent=2) + "\n"

    def audit(self, summary: S, rows: Sequence[Row], source: str) -> AuditData[S, Row]:
        return AuditData(self.name, summary, tuple(rows), source)


_KINDS: dict[str, JobKind[Any, Any]] = {}


def register(kind: JobKind[S, Row]) -> JobKind[S, Row]:
    """Add a kind (a module's ``KIND = register(JobKind(...))``); a name is taken once."""
    known = _KINDS.setdefault(kind.name, kind)
    if known is not kind:
        raise ValueError(f"job kind {kind.name!r} is registered twice")
    return kind


def job_kinds() -> list[JobKind[Any, Any]]:
    """Every kind, the built-in ones first (in :data:`KIND_MODULES` order)."""
    for module in KIND_MODULES:
        importlib.import_module(f"kcompat.auditreport.{module}")
    return list(_KINDS.values())


def job_kind(name: str) -> JobKind[Any, Any]:
    kinds = {kind.name: kind for kind in job_kinds()}
    return kinds[name]


def kind_of(summary: Mapping[str, Any]) -> JobKind[Any, Any] | None:
    """The kind a summary names, or for one written before kinds were named, the kind
    that recognises it; None if neither."""
    kinds = job_kinds()
    named = summary.get("kind")
    if named is not None:
        return next((k for k in kinds if k.name == named), None)
    return next((k for k in kinds if k.recognises(summary)), None)


def _either(words: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return " or ".join(filter(None, (", ".join(words[:-1]), words[-1]))) if words else ""


def load_audit(directory: Path) -> AuditData[Any, Any]:
    """The audit in ``directory`` (local), or a :class:`UsageError` saying what is wrong."""
    check_directory(directory)
    kinds = job_kinds()
    summary = read_summary(directory, _either([f"kcompat {k.command} --out DIR" for k in kinds]))
    kind = kind_of(summary)
    where = directory / "summary.json"
    if kind is None:
        named = summary.get("kind")
        if named is not None:
            raise UsageError(
                f"{where}: an audit of kind {shown(str(named))[:80]}, which this kcompat "
                f"does not know ({_either([k.name for k in kinds])}); upgrade kcompat"
            )
        raise UsageError(
            f"{where}: not the summary of kcompat {_either([k.command for k in kinds])}"
        )
    try:
        typed = kind.summary(summary)
    except (ValueError, TypeError, KeyError) as err:
        reason = shown_value(err)
        raise UsageError(f"{where}: not a {kind.name} summary ({reason}); rerun it") from None
    table = kind.table
    rows = table.read(read_records(directory / table.directory, table.required, table.noun))
    kind.check(directory, summary, rows)
    return kind.audit(typed, rows, str(directory))


def build_view(audit: AuditData[Any, Any]) -> View:
    """What the audit page shows of an audit: its kind's view."""
    view = job_kind(audit.kind).view
    if view is None:
        raise ValueError(f"a {audit.kind} audit has a page of its own, not a view")
    return view(audit)
