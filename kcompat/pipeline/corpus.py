"""The driver of ``kcompat corpus``: a byte corpus of one revision, verified by another.

``build`` proves nothing by itself: it stores, for every message version at REV, seeded
samples as the JSON value *and* the bytes REV's codec writes for it. ``verify`` then reads
those bytes with another revision's model, which is what a broker upgraded to REV2 does
with data an older one wrote (metadata records on disk, requests from old clients). A
sample it rejects or reads differently is a ``corpus-mismatch`` with the bytes attached.

Layout of a corpus directory (everything a verify needs; no checkout of REV required)::

    DIR/corpus.json   the manifest: revision, label, samples, seed, counts
    DIR/samples/      Parquet: one row per sample (SAMPLE_SCHEMA)
    DIR/specs/        Parquet: REV's spec texts, by digest (for the writer's layouts)

The driver reads git (gitpython, through :class:`~kcompat.sources.sides.Side`); rows
carry spec texts, and executors parse them (:mod:`kcompat.pipeline.corpus_tasks`).
"""

from __future__ import annotations

import hashlib
import json
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kcompat.config import Config
from kcompat.errors import UsageError
from kcompat.pipeline.corpus_rules import MESSAGE_MISSING, MISMATCH, VERSION_MISSING
from kcompat.pipeline.corpus_tasks import (
    FINDING_SCHEMA,
    SAMPLE_SCHEMA,
    VERSION_SCHEMA,
    VerifyContext,
    build_batches,
    verify_batches,
)
from kcompat.pipeline.history_tasks import arrow_table, contiguous_slots
from kcompat.pipeline.outputs import Output
from kcompat.pipeline.sparkapi import label_jobs, parallelism
from kcompat.sources.git import GitRepo, NotARepository
from kcompat.sources.sides import Side, side_for
from kcompat.spec.specfile import SpecFile, looks_like_spec, read_spec
from kcompat.spec.versions import Versions

FORMAT = "kcompat-corpus"
FORMAT_VERSION = 1
MANIFEST = "corpus.json"
#: At most this many versions per message (an open-ended range in a broken spec).
MAX_VERSIONS = 256

SPECS_SCHEMA = (
    "message string, path string, api_key int, type string, valid_versions string, "
    "released_versions string, spec_digest string, text binary, revision string, "
    "revision_label string"
)


@dataclass(frozen=True)
class BuildRequest:
    rev: str
    out: Path | str  # a directory, or a URI Spark writes (hdfs://, s3a://)
    samples: int = 100
    seed: int = 0
    repo: Path = Path(".")
    specs_paths: tuple[str, ...] = ()
    partitions: int | None = None
    config: Config = field(default_factory=Config)


@dataclass(frozen=True)
class BuildResult:
    manifest: dict[str, Any]
    out: Path | str
    seconds: float


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
    summary: dict[str, Any]
    groups: list[dict[str, Any]]  # one finding per (rule, message, version, field), with a count
    out: Path | str
    seconds: float

    @property
    def errors(self) -> int:
        return sum(g["count"] for g in self.groups if g["severity"] == "error")

    @property
    def internal(self) -> int:
        return sum(g["count"] for g in self.groups if g["rule"] == "internal-error")


# -- reading a side ---------------------------------------------------------------------


@dataclass(frozen=True)
class Revision:
    """One side's specs: repo-relative paths (stable in a corpus), texts and messages."""

    label: str
    sha: str
    specs: list[tuple[str, bytes, SpecFile]]


def open_side(rev: str, repo_dir: Path) -> Side:
    """``rev`` as a side: a directory (or REV:path), else a revision of ``repo_dir``."""
    repo: GitRepo | None
    try:
        repo = GitRepo.open(repo_dir)
    except NotARepository:
        if not Path(rev).is_dir():
            raise
        repo = None
    return side_for(rev, repo)


def read_revision(side: Side, pathspecs: Sequence[str]) -> Revision:
    """Every spec on a side, as :func:`kcompat.sources.sides.load_all` reads them, but
    named by their side-relative paths (a corpus outlives the working directory)."""
    specs = []
    for path in side.all_json(pathspecs):
        data = side.read(path)
        if data is None:
            continue
        spec = read_spec(path, data)
        if looks_like_spec(spec):
            specs.append((path, data, spec))
    if not specs:
        where = f" under {', '.join(pathspecs)}" if pathspecs else ""
        raise UsageError(f"no spec files at {side.label}{where}")
    return Revision(side.label, side.sha or "", specs)


def _pathspecs(request_paths: Sequence[str], config: Config, side: Side) -> list[str]:
    if request_paths:
        return list(request_paths)
    from kcompat.diff.run import pathspecs

    return pathspecs(config, side.repo) if side.repo is not None else []


def _digest(text: bytes) -> str:
    return hashlib.sha256(text).hexdigest()


def _released(revision: Revision) -> dict[str, str]:
    """Message name -> the versions the revision itself counts as released."""
    from kcompat.rules.evolution.released import Releases

    messages = [s.message for _, _, s in revision.specs if s.message is not None]
    policy = Releases.from_base(messages)
    return {m.name: str(policy.released(m)) for m in messages}


def _bounded(versions: Versions) -> list[int]:
    if versions.empty:
        return []
    top = min(versions.highest, versions.lowest + MAX_VERSIONS - 1)
    return list(versions.clip(top))


# -- build ------------------------------------------------------------------------------


def spec_rows(revision: Revision) -> list[dict[str, Any]]:
    """The specs table: one row per message, with its text and digest."""
    released = _released(revision)
    rows = []
    for path, data, spec in revision.specs:
        message = spec.message
        if message is None:
            continue
        rows.append(
            {
                "message": message.name,
                "path": path,
                "api_key": message.api_key,
                "type": message.kind,
                "valid_versions": str(message.valid_versions),
                "released_versions": released.get(message.name, "none"),
                "spec_digest": _digest(data),
                "text": data,
                "revision": revision.sha,
                "revision_label": revision.label,
            }
        )
    return rows


def version_rows(specs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The build's input: one row per (message, version), carrying the spec text."""
    rows = []
    for spec in specs:
        versions = Versions.parse(spec["valid_versions"])
        for version in _bounded(versions):
            rows.append(
                {
                    "message": spec["message"],
                    "path": spec["path"],
                    "api_key": spec["api_key"],
                    "type": spec["type"],
                    "version": version,
                    "text": spec["text"],
                    "spec_digest": spec["spec_digest"],
                    "revision": spec["revision"],
                    "revision_label": spec["revision_label"],
                    "cost": len(spec["text"]),
                }
            )
    return rows


def _check_out(out: Output, spark: Any = None) -> None:
    """Refuse to write a corpus over a directory that holds something else."""
    if out.local and out.path.exists() and not out.path.is_dir():
        raise UsageError(f"{out}: exists and is not a directory")
    names = out.names(spark)
    if names and MANIFEST not in names:
        raise UsageError(f"{out}: not empty and not a kcompat corpus; choose another --out")


def dealt(spark: Any, rows: Sequence[dict[str, Any]], schema: str, partitions: int | None) -> Any:
    """A DataFrame of ``rows`` in runs of about equal cost, one run per partition (the
    versions of a message stay together: each worker parses a spec once)."""
    count = max(1, min(len(rows), partitions or parallelism(spark) * 2))
    frame = spark.createDataFrame(arrow_table(contiguous_slots(rows, count), schema + ", slot int"))
    return frame.repartitionByRange(count, "slot").drop("slot")


@dataclass(frozen=True)
class BuildPlan:
    """A build read from git and checked, before Spark starts (errors come first)."""

    request: BuildRequest
    revision: Revision
    started: float


def plan_build(request: BuildRequest) -> BuildPlan:
    """Read REV's specs and check the output directory: every usage error, no Spark."""
    started = time.perf_counter()
    if request.samples < 1:
        raise UsageError("--samples must be at least 1")
    side = open_side(request.rev, request.repo)
    revision = read_revision(side, _pathspecs(request.specs_paths, request.config, side))
    out = Output.of(request.out)
    if out.local:  # a remote --out is checked once Spark (and its FileSystem) is up
        _check_out(out)
        out.require_writable()
    return BuildPlan(request, revision, started)


def build(request: BuildRequest | BuildPlan, spark: Any) -> BuildResult:
    """Write the corpus of ``request.rev`` to ``request.out`` (see the module docstring)."""
    plan = request if isinstance(request, BuildPlan) else plan_build(request)
    request, revision, started = plan.request, plan.revision, plan.started
    out = Output.of(request.out)
    if not out.local:
        _check_out(out, spark)
    specs = spec_rows(revision)
    versions = version_rows(specs)
    label_jobs(spark, "kcompat-corpus", "kcompat corpus build")
    frame = dealt(spark, versions, VERSION_SCHEMA, request.partitions)
    samples = frame.mapInArrow(build_batches(request.samples, request.seed), SAMPLE_SCHEMA)
    samples.write.mode("overwrite").parquet(out.child("samples"))
    spark.createDataFrame(specs, schema=SPECS_SCHEMA).coalesce(1).write.mode("overwrite").parquet(
        out.child("specs")
    )
    counts = (
        spark.read.parquet(out.readable("samples")).groupBy("message", "version").count().collect()
    )
    rows = sum(int(r["count"]) for r in counts)
    manifest = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "revision": revision.sha,
        "revision_label": revision.label,
        "samples": request.samples,
        "seed": request.seed,
        "messages": len(specs),
        "unreadable_specs": sorted(p for p, _, s in revision.specs if s.message is None),
        "message_versions": len(versions),
        "rows": rows,
        "skipped_samples": len(versions) * request.samples - rows,
        "seconds": round(time.perf_counter() - started, 2),
    }
    from kcompat import __version__

    manifest["kcompat"] = __version__
    out.write_text(spark, MANIFEST, json.dumps(manifest, indent=2) + "\n")
    return BuildResult(manifest, _shown(out), time.perf_counter() - started)


# -- verify -----------------------------------------------------------------------------


def read_manifest(corpus: Output | Path | str, spark: Any = None) -> dict[str, Any]:
    """The corpus manifest; a missing or foreign directory is one clear line. (A remote
    corpus needs ``spark``, whose FileSystem reads it.)"""
    where = corpus if isinstance(corpus, Output) else Output.of(corpus)
    names = where.names(spark)
    if names is None:
        raise UsageError(f"{where}: no such corpus directory")
    if not names:
        raise UsageError(f"{where}: empty directory, not a corpus (kcompat corpus build)")
    text = where.read_text(spark, MANIFEST) if MANIFEST in names else None
    if text is None:
        raise UsageError(
            f"{where}: not a kcompat corpus (no {MANIFEST}; build one with kcompat corpus build)"
        )
    shown = where.child(MANIFEST)
    try:
        manifest = json.loads(text)
    except ValueError as err:
        raise UsageError(f"{shown}: unreadable corpus manifest ({err})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise UsageError(f"{shown}: not a kcompat corpus manifest")
    if manifest.get("format_version") != FORMAT_VERSION:
        raise UsageError(
            f"{shown}: corpus format {manifest.get('format_version')} is not supported "
            f"(this kcompat reads {FORMAT_VERSION}); rebuild the corpus"
        )
    for part in ("samples", "specs"):
        if part not in names:
            raise UsageError(f"{where}: incomplete corpus, {part}/ is missing; rebuild it")
    return manifest


def _shown(out: Output) -> Path | str:
    return out.path if out.local else out.location


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
    reader = read_revision(side, _pathspecs(request.specs_paths, request.config, side))
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
    summary = summarise(manifest, context, checked, groups)
    summary["seconds"] = round(time.perf_counter() - started, 2)
    out.write_text(spark, "summary.json", json.dumps(summary, indent=2) + "\n")
    return VerifyResult(manifest, summary, groups, _shown(out), time.perf_counter() - started)


def missing_findings(
    checked: Sequence[Any],
    writer_specs: Sequence[dict[str, Any]],
    reader_versions: dict[str, Versions],
    context: VerifyContext,
) -> list[dict[str, Any]]:
    """One warning per message the reader lacks, and per message with versions it lacks."""
    from kcompat.report.columns import finding_row
    from kcompat.rules.engine import Finding, Location, Severity

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
            versions=str(gone),
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
) -> dict[str, Any]:
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
    return {
        "corpus": {
            "revision": manifest.get("revision"),
            "revision_label": manifest.get("revision_label"),
            "samples": manifest.get("samples"),
            "seed": manifest.get("seed"),
        },
        "reader": context.reader_label,
        "rows": sum(samples.values()),
        "messages": len(samples),
        "findings": sum(per_rule.values()),
        "mismatches": sum(mismatches.values()),
        "per_rule": [
            {"rule": rule, "severity": severity, "count": n}
            for (rule, severity), n in sorted(per_rule.items(), key=lambda kv: (-kv[1], kv[0]))
        ],
        "per_message": [
            {
                "message": name,
                "samples": samples[name],
                "mismatches": n,
                "versions": str(Versions.from_ranges((v, v) for v in versions[name])),
            }
            for name, n in mismatches.most_common()
        ],
    }
