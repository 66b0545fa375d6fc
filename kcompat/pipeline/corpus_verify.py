"""``kcompat corpus verify``: a corpus's bytes read with another revision's model.

That is what a broker upgraded to REV2 does with data an older one wrote (metadata
records on disk, requests from old clients). A sample it rejects or reads differently
is a ``corpus-mismatch`` with the bytes attached; messages and versions REV2 lacks are
warnings; findings are grouped and summarised per rule and per message.
"""

from __future__ import annotations

import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kcompat.auditreport.corpus import CORPUS
from kcompat.config import Config
from kcompat.findings import Severity
from kcompat.pipeline.corpus_manifest import read_manifest
from kcompat.pipeline.corpus_revision import Revision, open_side, pathspecs_for, read_revision
from kcompat.pipeline.corpus_tasks import TABLE, VerifyContext, verify_batches
from kcompat.pipeline.job import Job, Run, run_job
from kcompat.pipeline.outputs import Output
from kcompat.report.audit_summary import CorpusMessage, CorpusSource, CorpusSummary, RuleCount
from kcompat.report.columns import AuditRow, FindingRow, Sample
from kcompat.report.corpus_summary import SampleGroup
from kcompat.rules.corpus import MESSAGE_MISSING, MISMATCH, VERSION_MISSING
from kcompat.spec.versions import Versions


@dataclass(frozen=True)
class VerifyRequest:
    corpus: Path | str
    rev: str
    repo: Path = Path(".")
    out: Path | str | None = None
    specs_paths: tuple[str, ...] = ()
    partitions: int | None = None
    config: Config = field(default_factory=Config)


@dataclass(frozen=True)
class VerifyResult:
    manifest: dict[str, Any]
    summary: CorpusSummary
    groups: list[SampleGroup]  # one finding per (rule, message, version, field), with a count
    out: Path | str
    seconds: float

    @property
    def errors(self) -> int:
        return sum(g.count for g in self.groups if g.row.finding.severity == "error")

    @property
    def severities(self) -> list[Severity]:
        """One severity per group (a group's count does not change the verdict)."""
        return [Severity.parse(g.row.finding.severity) for g in self.groups]

    @property
    def internal(self) -> int:
        return sum(g.count for g in self.groups if g.row.finding.rule == "internal-error")


@dataclass(frozen=True)
class VerifyPlan:
    """A verify with its corpus and REV2 read, before Spark starts."""

    request: VerifyRequest
    manifest: dict[str, Any] | None  # None: a remote corpus, read once Spark is up
    reader: Revision
    started: float


def plan_verify(request: VerifyRequest) -> VerifyPlan:
    """Read the manifest and REV2's specs: every usage error, no Spark."""
    import time

    started = time.perf_counter()
    corpus = Output.of(request.corpus)
    manifest = read_manifest(corpus) if corpus.local else None
    side = open_side(request.rev, request.repo)
    reader = read_revision(side, pathspecs_for(request.specs_paths, request.config, side))
    if request.out is not None:
        Output.of(request.out).require_writable()
    return VerifyPlan(request, manifest, reader, started)


@dataclass(frozen=True)
class Corpus:
    """What the verify tasks need: the manifest, the context, the samples to read, and how
    many samples each (message, version) has."""

    manifest: dict[str, Any]
    context: VerifyContext
    samples: Any  # DataFrame
    checked: list[Any]
    writer_specs: list[dict[str, Any]]
    reader_versions: dict[str, Versions]


class VerifyJob(Job[VerifyPlan, Corpus, list[SampleGroup], CorpusSummary]):
    """``kcompat corpus verify``: every stored sample decoded with REV2's model."""

    kind = CORPUS

    def __init__(self, plan: VerifyRequest | VerifyPlan) -> None:
        self.planned = plan

    def plan(self) -> tuple[VerifyPlan, Output]:
        planned = self.planned
        plan = planned if isinstance(planned, VerifyPlan) else plan_verify(planned)
        out = Output.of(plan.request.out or tempfile.mkdtemp(prefix="kcompat-corpus-"))
        return plan, out

    def prepare(self, run: Run[VerifyPlan], spark: Callable[[], Any]) -> Corpus:
        plan, session = run.plan, spark()
        request = plan.request
        source = Output.of(request.corpus)
        manifest = plan.manifest or read_manifest(source, session)
        specs = session.read.parquet(source.readable("specs")).collect()
        writer_specs = [r.asDict() for r in specs]
        readers: dict[str, tuple[str, bytes]] = {}
        reader_versions: dict[str, Versions] = {}
        for path, data, spec in plan.reader.specs:
            if spec.message is not None and spec.message.name not in readers:
                readers[spec.message.name] = (path, data)
                reader_versions[spec.message.name] = spec.message.valid_versions
        context = VerifyContext(
            writer_label=str(manifest["revision_label"]),
            reader_label=plan.reader.label,
            writers={r["spec_digest"]: (r["path"], bytes(r["text"])) for r in writer_specs},
            readers=readers,
            released={r["spec_digest"]: r["released_versions"] for r in writer_specs},
        )
        samples = session.read.parquet(source.readable("samples"))
        if request.partitions:
            samples = samples.repartition(request.partitions)
        checked = samples.groupBy("message", "version").count().collect()
        return Corpus(manifest, context, samples, checked, writer_specs, reader_versions)

    def tasks(self, run: Run[VerifyPlan], work: Corpus) -> list[Any]:
        frames = [work.samples.mapInArrow(verify_batches(work.context), TABLE.ddl)]
        missing = missing_findings(
            work.checked, work.writer_specs, work.reader_versions, work.context
        )
        if missing:
            records = [TABLE.record(row) for row in missing]
            frames.append(run.session.createDataFrame(records, schema=TABLE.ddl))
        return frames

    def read(self, run: Run[VerifyPlan], work: Corpus | None) -> list[SampleGroup]:
        return grouped(run.session, run.out.readable("findings"))

    def summarise(
        self, run: Run[VerifyPlan], work: Corpus | None, found: list[SampleGroup]
    ) -> CorpusSummary:
        assert work is not None  # a verify is never idle
        return replace(
            summarise(work.manifest, work.context, work.checked, found),
            seconds=round(run.seconds, 2),
        )


def verify(request: VerifyRequest | VerifyPlan, spark: Any) -> VerifyResult:
    """Decode every stored sample with ``request.rev``'s model; findings as Parquet.
    ``spark``: a session, or a function that makes one once the plan is made."""
    outcome = run_job(VerifyJob(request), spark)
    assert outcome.work is not None  # a verify is never idle
    manifest = outcome.work.manifest
    return VerifyResult(manifest, outcome.summary, outcome.found, outcome.shown, outcome.seconds)


def missing_findings(
    checked: Sequence[Any],
    writer_specs: Sequence[dict[str, Any]],
    reader_versions: dict[str, Versions],
    context: VerifyContext,
) -> list[AuditRow[Sample]]:
    """One warning per message the reader lacks, and per message with versions it lacks."""
    from kcompat.findings import Finding, Location, Severity

    by_name = {s["message"]: s for s in writer_specs}
    stored: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for row in checked:
        stored[row["message"]].append((int(row["version"]), int(row["count"])))
    out = []
    for name in sorted(stored):
        spec = by_name.get(name)
        path = spec["path"] if spec else name
        versions = Versions.from_ranges((v, v) for v, _ in stored[name])
        have = reader_versions.get(name)
        if have is None:
            rule, gone = MESSAGE_MISSING, versions
            text = (
                f"{context.reader_label} has no message {name}: it cannot read the "
                f"{sum(n for _, n in stored[name])} stored samples of versions {versions} "
                f"that {context.writer_label} wrote"
            )
        else:
            gone = versions - have
            if gone.empty:
                continue
            rule = VERSION_MISSING
            text = (
                f"{context.reader_label} has no version {gone} of {name} (it has {have}): "
                f"{sum(n for v, n in stored[name] if v in gone)} stored samples of "
                f"{context.writer_label} are unreadable there"
            )
        finding = Finding(
            rule,
            Severity.WARNING,
            text,
            Location(path, 1, 1),
            hint="expected when versions are retired on purpose; otherwise restore them",
            message_name=name,
            versions=gone,
        )
        sample = Sample(
            None,
            None,
            spec["spec_digest"] if spec else None,
            context.writer_label,
            context.reader_label,
        )
        out.append(AuditRow(FindingRow.of(finding), sample))
    return out


_GROUP_KEY = ("rule", "severity", "message_name", "version", "field_path")


def grouped(spark: Any, findings_path: str) -> list[SampleGroup]:
    """One row per (rule, severity, message, version, field): the count of findings and
    the one with the lowest sample id (its counterexample stands for the group)."""
    from pyspark.sql import functions as F

    frame = spark.read.parquet(findings_path)
    columns = [c for c in frame.columns]
    rows = (
        frame.withColumn("_order", F.coalesce(F.col("sample_id"), F.lit(-1)))
        .groupBy(*_GROUP_KEY)
        .agg(
            F.count(F.lit(1)).alias("count"),
            F.min_by(F.struct(*columns), F.col("_order")).alias("first"),
        )
        .collect()
    )
    out = [SampleGroup(TABLE.read([row["first"].asDict()])[0], int(row["count"])) for row in rows]
    out.sort(key=_group_order)
    return out


def _group_order(group: SampleGroup) -> tuple[str, int, str]:
    finding = group.row.finding
    return (finding.message_name or "", group.row.about.version or -1, finding.rule)


def summarise(
    manifest: dict[str, Any],
    context: VerifyContext,
    checked: Sequence[Any],
    groups: Sequence[SampleGroup],
) -> CorpusSummary:
    """Counts per rule and per message (samples checked, mismatches, versions affected)."""
    per_rule: Counter[tuple[str, str]] = Counter()
    mismatches: Counter[str] = Counter()
    versions: dict[str, set[int]] = defaultdict(set)
    for group in groups:
        finding = group.row.finding
        per_rule[(finding.rule, finding.severity)] += group.count
        if finding.rule == MISMATCH:
            name = str(finding.message_name)
            mismatches[name] += group.count
            versions[name].add(int(group.row.about.version or 0))
    samples: Counter[str] = Counter()
    for row in checked:
        samples[row["message"]] += int(row["count"])
    return CorpusSummary(
        corpus=CorpusSource(
            manifest.get("revision"),
            manifest.get("revision_label"),
            manifest.get("samples"),
            manifest.get("seed"),
        ),
        reader=context.reader_label,
        rows=sum(samples.values()),
        messages=len(samples),
        findings=sum(per_rule.values()),
        mismatches=sum(mismatches.values()),
        per_rule=tuple(
            RuleCount(rule, severity, n)
            for (rule, severity), n in sorted(per_rule.items(), key=lambda kv: (-kv[1], kv[0]))
        ),
        per_message=tuple(
            CorpusMessage(
                name,
                samples[name],
                n,
                str(Versions.from_ranges((v, v) for v in versions[name])),
            )
            for name, n in mismatches.most_common()
        ),
    )
