"""The seam for batch jobs: a new Spark job is one registration and one driver.

A toy job kind, written here in the four parts docs/ARCHITECTURE.md lists (its summary,
its registration with its view, its driver's steps, and what calls it), runs through the
same driver as ``history`` and ``corpus verify``: its findings go to Spark as typed rows
and come back as typed rows, its ``summary.json`` names its kind, and ``kcompat report``
reads its audit with nothing else to change. Old summaries (no ``"kind"``) still read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kcompat.auditreport.kinds import AuditData, JobKind, job_kind, kind_of, load_audit, register
from kcompat.auditreport.views import (
    SEVERITIES,
    MessageRow,
    Timeline,
    View,
    group_of,
    group_order,
    severity_counts,
    totals_of,
)
from kcompat.errors import UsageError
from kcompat.findings import Finding, Location, Severity
from kcompat.pipeline.job import Job, Run, read_rows, run_job
from kcompat.pipeline.outputs import Output
from kcompat.report.columns import AuditRow, FindingRow, FindingsTable

pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (the report extra)")
pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed (the report extra)")

# -- 1. the summary (report/): what the run adds up to, as summary.json holds it ------------


@dataclass(frozen=True)
class SpecCount:
    files: int
    messages: int

    def to_json(self) -> dict[str, Any]:
        return {"files": self.files, "messages": self.messages}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> SpecCount:
        return SpecCount(int(data.get("files", 0)), int(data.get("messages", 0)))


# -- 2. the registration (auditreport/): name, summary, table, view -------------------------


@dataclass(frozen=True)
class SpecText:
    """What a toy finding is about: the file it was found in."""

    path: str
    size: int


def count_view(audit: AuditData[SpecCount, AuditRow[SpecText]]) -> View:
    findings = [row.finding for row in audit.findings]
    groups = sorted((group_of(f, (0,), 1) for f in findings), key=group_order)
    totals = totals_of(findings)
    return View(
        kind=audit.kind,
        title="kcompat count",
        facts=(("findings", severity_counts(totals)),),
        steps=("specs",),
        timeline=Timeline((), "message", "Nothing over time.", ()),
        messages=tuple(MessageRow(g.message_name, 0, 0, (), ()) for g in groups),
        groups=tuple(groups),
        totals={s: totals.get(s, 0) for s in SEVERITIES},
        messages_heading=("Messages counted", "counted in"),
    )


#: The toy's findings: the file each is about, then the finding's own columns.
FINDINGS: FindingsTable[SpecText] = FindingsTable(SpecText)
COUNT: JobKind[SpecCount, AuditRow[SpecText]] = JobKind(
    name="count",
    command="count",
    summary=SpecCount.from_json,
    table=FINDINGS,
    view=count_view,
    recognises=lambda summary: False,  # it was born with its kind named
)


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy kind registered for one test (a module of kcompat would call register
    once, at import; here the registry must be as it was for the other tests)."""
    from kcompat.auditreport import kinds

    kinds.job_kinds()  # the built-in kinds first, as in a run
    monkeypatch.setattr(kinds, "_KINDS", dict(kinds._KINDS))
    register(COUNT)
    yield


# -- 3. the driver's steps (pipeline/), its tasks a function of their rows -------------------


def count_batches(batches: Iterator[Any]) -> Iterator[Any]:
    """The ``mapInArrow`` function: spec texts in, one info finding per message out."""
    from kcompat.spec.specfile import read_spec

    for batch in batches:
        out = []
        for record in batch.to_pylist():
            spec = read_spec(record["path"], record["text"])
            if spec.message is not None:
                finding = Finding(
                    "count-message",
                    Severity.INFO,
                    f"{spec.message.name} has {len(spec.message.fields)} fields",
                    Location(record["path"]),
                    message_name=spec.message.name,
                )
                about = SpecText(record["path"], len(record["text"]))
                out.append(AuditRow(FindingRow.of(finding), about))
        if out:
            yield FINDINGS.batch(out)


@dataclass(frozen=True)
class CountPlan:
    texts: tuple[tuple[str, bytes], ...]


class CountJob(Job[CountPlan, Any, list[AuditRow[SpecText]], SpecCount]):
    kind = COUNT

    def __init__(self, folder: Path, out: Path) -> None:
        self.folder, self.out = folder, out

    def plan(self) -> tuple[CountPlan, Output]:
        texts = tuple((p.name, p.read_bytes()) for p in sorted(self.folder.glob("*.json")))
        return CountPlan(texts), Output.of(self.out)

    def idle(self, plan: CountPlan) -> bool:
        return not plan.texts

    def prepare(self, run: Run[CountPlan], spark: Callable[[], Any]) -> Any:
        rows = [{"path": path, "text": text} for path, text in run.plan.texts]
        return spark().createDataFrame(rows, "path string, text binary")

    def tasks(self, run: Run[CountPlan], work: Any) -> Sequence[Any]:
        return [work.mapInArrow(count_batches, FINDINGS.ddl)]

    def read(self, run: Run[CountPlan], work: Any) -> list[AuditRow[SpecText]]:
        return read_rows(run.session, run.out, FINDINGS)

    def summarise(
        self, run: Run[CountPlan], work: Any, found: list[AuditRow[SpecText]]
    ) -> SpecCount:
        return SpecCount(len(run.plan.texts), len(found))


# -- 4. what calls it (a command would): run_job ----------------------------------------------

SPEC = """{{
  "apiKey": {key}, "type": "request", "name": "{name}", "validVersions": "0",
  "flexibleVersions": "none",
  "fields": [ {{ "name": "Id", "type": "int32", "versions": "0+" }} ]
}}
"""


def specs(folder: Path, names: Sequence[str]) -> Path:
    folder.mkdir()
    for key, name in enumerate(names):
        (folder / f"{name}.json").write_text(SPEC.format(key=key, name=name))
    return folder


@pytest.mark.spark
def test_a_toy_job_runs_through_the_driver_and_reads_back_in_the_report(
    spark: Any, tmp_path: Path
) -> None:
    folder = specs(tmp_path / "specs", ["ShelfRequest", "BookRequest"])
    outcome = run_job(CountJob(folder, tmp_path / "audit"), spark)
    assert outcome.summary == SpecCount(2, 2)
    assert sorted(r.finding.message_name or "" for r in outcome.found) == [
        "BookRequest",
        "ShelfRequest",
    ]
    assert all(isinstance(r.about, SpecText) and r.about.size > 0 for r in outcome.found)
    written = json.loads((tmp_path / "audit" / "summary.json").read_text())
    assert list(written) == ["kind", "files", "messages"] and written["kind"] == "count"
    columns = pq.read_table(tmp_path / "audit" / "findings").schema.names
    assert columns[:3] == ["path", "size", "rule"]  # what it is about, then the finding
    audit = load_audit(tmp_path / "audit")
    assert audit.kind == "count" and audit.summary == SpecCount(2, 2)
    assert sorted(audit.findings, key=lambda r: r.about.path) == sorted(
        outcome.found, key=lambda r: r.about.path
    )
    from kcompat.auditreport.render import report_html

    page = report_html(audit)
    assert "<title>kcompat count</title>" in page and "Messages counted" in page


def test_a_job_with_nothing_to_check_starts_no_spark(tmp_path: Path) -> None:
    def no_spark() -> Any:
        raise AssertionError("Spark started for nothing")

    folder = specs(tmp_path / "specs", [])
    outcome = run_job(CountJob(folder, tmp_path / "audit"), no_spark)
    assert outcome.summary == SpecCount(0, 0) and outcome.found == []
    assert load_audit(tmp_path / "audit").kind == "count"
    assert pq.read_table(tmp_path / "audit" / "findings").schema.names[:2] == ["path", "size"]


def test_a_kind_is_registered_once() -> None:
    assert job_kind("count") is COUNT
    with pytest.raises(ValueError, match="registered twice"):
        register(JobKind("count", "count", SpecCount.from_json, COUNT.table, count_view, bool))


@pytest.mark.parametrize(
    ("summary", "kind"),
    [
        ({"kind": "history", "mode": "releases"}, "history"),
        ({"kind": "corpus", "corpus": {}, "reader": "r"}, "corpus"),
        ({"kind": "count"}, "count"),
        # written before kinds were named: told apart by their keys, as they always were
        ({"mode": "consecutive", "comparisons": 2}, "history"),
        ({"corpus": {"revision_label": "1.0"}, "reader": "2.0"}, "corpus"),
        ({"mode": "sideways"}, None),
        ({"kind": "matrix-of-the-future"}, None),
    ],
)
def test_the_kind_of_a_summary(summary: dict[str, Any], kind: str | None) -> None:
    found = kind_of(summary)
    assert (found.name if found is not None else None) == kind


def test_an_unknown_kind_is_one_line(tmp_path: Path) -> None:
    audit = tmp_path / "audit"
    (audit / "findings").mkdir(parents=True)
    (audit / "summary.json").write_text(json.dumps({"kind": "<b>later</b>"}))
    with pytest.raises(UsageError) as raised:
        load_audit(audit)
    text = str(raised.value)
    assert "an audit of kind <b>later</b>, which this kcompat does not know" in text
    assert "(history, corpus, strands or count); upgrade kcompat" in text
    assert "\n" not in text


def test_the_summary_names_its_kind_first() -> None:
    from kcompat.auditreport.corpus import CORPUS
    from kcompat.auditreport.history import HISTORY
    from kcompat.report.audit_summary import CorpusSource, CorpusSummary, HistorySummary

    history = HistorySummary("releases", "tags", 1, 0, (("1.0", "1.1"),))
    corpus = CorpusSummary(CorpusSource("abc", "1.0", 5, 0), "1.1", 10, 2, 0, 0)
    pairs: list[tuple[JobKind[Any, Any], Any]] = [(HISTORY, history), (CORPUS, corpus)]
    for kind, summary in pairs:
        data = json.loads(kind.summary_text(summary))
        assert next(iter(data)) == "kind" and data["kind"] == kind.name
        assert {k: v for k, v in data.items() if k != "kind"} == summary.to_json()
        assert kind.summary(data) == summary
