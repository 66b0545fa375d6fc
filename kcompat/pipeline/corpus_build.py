"""``kcompat corpus build``: a byte corpus of one revision.

``build`` proves nothing by itself: it stores, for every message version at REV, seeded
samples as the JSON value *and* the bytes REV's codec writes for it, for
:mod:`kcompat.pipeline.corpus_verify` to read with another revision's model. The
directory's layout is in :mod:`kcompat.pipeline.corpus_manifest`.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kcompat.config import Config
from kcompat.errors import UsageError
from kcompat.pipeline.corpus_manifest import (
    FORMAT,
    FORMAT_VERSION,
    check_out,
    shown_location,
    write_manifest,
)
from kcompat.pipeline.corpus_revision import Revision, open_side, pathspecs_for, read_revision
from kcompat.pipeline.corpus_tasks import SAMPLE_SCHEMA, VERSION_SCHEMA, build_batches
from kcompat.pipeline.history_tasks import arrow_table, contiguous_slots
from kcompat.pipeline.outputs import Output
from kcompat.pipeline.sparkapi import label_jobs, parallelism
from kcompat.spec.versions import Versions

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


def _digest(text: bytes) -> str:
    return hashlib.sha256(text).hexdigest()


def _released(revision: Revision) -> dict[str, str]:
    """Message name -> the versions the revision itself counts as released."""
    from kcompat.spec.released import Releases

    messages = [s.message for _, _, s in revision.specs if s.message is not None]
    policy = Releases.from_base(messages)
    return {m.name: str(policy.released(m)) for m in messages}


def _bounded(versions: Versions) -> list[int]:
    if versions.empty:
        return []
    top = min(versions.highest, versions.lowest + MAX_VERSIONS - 1)
    return list(versions.clip(top))


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
    revision = read_revision(side, pathspecs_for(request.specs_paths, request.config, side))
    out = Output.of(request.out)
    if out.local:  # a remote --out is checked once Spark (and its FileSystem) is up
        check_out(out)
        out.require_writable()
    return BuildPlan(request, revision, started)


def build(request: BuildRequest | BuildPlan, spark: Any) -> BuildResult:
    """Write the corpus of ``request.rev`` to ``request.out`` (see the module docstring)."""
    plan = request if isinstance(request, BuildPlan) else plan_build(request)
    request, revision, started = plan.request, plan.revision, plan.started
    out = Output.of(request.out)
    if not out.local:
        check_out(out, spark)
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
    write_manifest(spark, out, manifest)
    return BuildResult(manifest, shown_location(out), time.perf_counter() - started)
