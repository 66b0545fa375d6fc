"""``kcompat corpus verify``: a corpus's bytes read with another revision's model.

That is what a broker upgraded to REV2 does with data an older one wrote (metadata
records on disk, requests from old clients). A sample it rejects or reads differently
is a ``corpus-mismatch`` with the bytes attached; messages and versions REV2 lacks are
warnings; findings are grouped and summarised per rule and per message.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kcompat.config import Config
from kcompat.findings import Severity
from kcompat.pipeline.corpus_manifest import read_manifest, shown_location
from kcompat.pipeline.corpus_revision import Revision, open_side, pathspecs_for, read_revision
from kcompat.pipeline.corpus_tasks import FINDING_SCHEMA, VerifyContext, verify_batches
from kcompat.pipeline.outputs import Output
from kcompat.pipeline.sparkapi import label_jobs
from kcompat.report.audit_summary import CorpusMessage, CorpusSource, CorpusSummary, RuleCount
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
    groups: list[dict[str, Any]]  # one finding per (rule, message, version, field), with a count
    out: Path | str
    seconds: float

    @property
    def errors(self) -> int:
        return sum(g["count"] for g in self.groups if g["severity"] == "error")

    @property
    def severities(self) -> list[Severity]:
        """One severity per group (a group's count does not change the verdict)."""
        return [Severity.parse(g["severity"]) for g in self.groups]

    @property
    def internal(self) -> int:
        return sum(g["count"] for g in self.groups if g["rule"] == "internal-error")


@dataclass(frozen=True)
class VerifyPlan:
    """A verify with its corpus and REV2 read, before Spark starts."""

    request: VerifyRequest
    manifest: dict[str, Any] | None  # None: a remote corpus, read once Spark is up
    reader: Revision
    started: float


def plan_verify(request: VerifyRequest) -> VerifyPlan:
    """Read the manifest and REV2's specs: every usage error, no Spark."""
    started = time.perf_counter()
    corpus = Output.of(request.corpus)
    manifest = read_manifest(corpus) if corpus.local else None
    side = open_side(request.rev, request.repo)
    reader = read_revision(side, pathspecs_for(request.specs_paths, request.config, side))
    if request.out is not None:
        Output.of(request.out).require_writable()
    return VerifyPlan(request, manifest, reader, started)


def verify(request: VerifyRequest | VerifyPlan, spark: Any) -> VerifyResult:
    """Decode every stored sample with ``request.rev``'s model; findings as Parquet."""
    plan = request if isinstance(request, VerifyPlan) else plan_verify(request)
    request, reader, started = plan.request, plan.reader, plan.started
    source = Output.of(request.corpus)
    manifest = plan.manifest or read_manifest(source, spark)
    out = Output.of(request.out or tempfile.mkdtemp(prefix="kcompat-corpus-"))
    label_jobs(spark, "kcompat-corpus", "kcompat corpus verify")
    writer_specs = [r.asDict() for r in spark.read.parquet(source.readable("specs")).collect()]
    readers: dict[str, tuple[str, bytes]] = {}
    reader_versions: dict[str, Versions] = {}
    for path, data, spec in reader.specs:
        if spec.message is not None and spec.message.name not in readers:
            readers[spec.message.name] = (path, data)
            reader_versions[spec.message.name] = spec.message.valid_versions
    context = VerifyContext(
        writer_label=str(manifest["revision_label"]),
        reader_label=reader.label,
        writers={r["spec_digest"]: (r["path"], bytes(r["text"])) for r in writer_specs},
        readers=readers,
        released={r["spec_digest"]: r["released_versions"] for r in writer_specs},
    )
    samples = spark.read.parquet(source.readable("samples"))
    if request.partitions:
        samples = samples.repartition(request.partitions)
    checked = samples.groupBy("message", "version").count().collect()
    findings_path = out.child("findings")
    samples.mapInArrow(verify_batches(context), FINDING_SCHEMA).write.mode("overwrite").parquet(
        findings_path
    )
    missing = missing_findings(checked, writer_specs, reader_versions, context)
    if missing:
        spark.createDataFrame(missing, schema=FINDING_SCHEMA).write.mode("append").parquet(
            findings_path
        )
    groups = grouped(spark, out.readable("findings"))
    summary = replace(
        summarise(manifest, context, checked, groups),
        seconds=round(time.perf_counter() - started, 2),
    )
    out.write_text(spark, "summary.json", json.dumps(summary.to_json(), indent=2) + "\n")
    return VerifyResult(
        manifest, summary, groups, shown_location(out), time.perf_counter() - started
    )


def missing_findings(
    checked: Sequence[Any],
    writer_specs: Sequence[dict[str, Any]],
    reader_versions: dict[str, Versions],
    context: VerifyContext,
) -> list[dict[str, Any]]:
    """One warning per message the reader lacks, and per message with versions it lacks."""
    from kcompat.findings import Finding, Location, Severity
    from kcompat.report.columns import finding_row

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
        out.append(
            {
                **finding_row(finding),
                "version": None,
                "sample_id": None,
                "spec_digest": spec["spec_digest"] if spec else None,
                "writer": context.writer_label,
                "reader": context.reader_label,
            }
        )
    return out


_GROUP_KEY = ("rule", "severity", "message_name", "version", "field_path")


def grouped(spark: Any, findings_path: str) -> list[dict[str, Any]]:
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
    out = []
    for row in rows:
        first = row["first"].asDict()
        first["count"] = int(row["count"])
        out.append(first)
    out.sort(key=lambda g: (g["message_name"] or "", g["version"] or -1, g["rule"]))
    return out


def summarise(
    manifest: dict[str, Any],
    context: VerifyContext,
    checked: Sequence[Any],
    groups: Sequence[dict[str, Any]],
) -> CorpusSummary:
    """Counts per rule and per message (samples checked, mismatches, versions affected)."""
    per_rule: Counter[tuple[str, str]] = Counter()
    mismatches: Counter[str] = Counter()
    versions: dict[str, set[int]] = defaultdict(set)
    for group in groups:
        per_rule[(group["rule"], group["severity"])] += group["count"]
        if group["rule"] == MISMATCH:
            mismatches[group["message_name"]] += group["count"]
            versions[group["message_name"]].add(int(group["version"]))
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
