"""The driver side of ``kcompat history``: enumerate, prepare, run on Spark, summarise."""

from __future__ import annotations

import contextlib
import json
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kcompat.config import Config
from kcompat.findings import Severity
from kcompat.modes import HistoryMode, ReleasedMode
from kcompat.naming import release_order
from kcompat.pipeline.history_tasks import (
    FINDING_SCHEMA,
    CheckOptions,
    arrow_findings_schema,
    run_checks,
    warm_up,
)
from kcompat.pipeline.outputs import Output
from kcompat.pipeline.prepare import Preparation, PrepareJob, prefetched, worker_count
from kcompat.pipeline.revisions import Comparison, consecutive, not_ancestors, releases
from kcompat.pipeline.sparkapi import is_connect, label_jobs
from kcompat.report.audit_summary import (
    Break,
    HistorySummary,
    Introduced,
    MessageErrors,
    ReleaseCounts,
    RuleCount,
)
from kcompat.sources.git import GitRepo
from kcompat.sources.gitwalk import subjects
from kcompat.sources.release_source import repository_releases


@dataclass(frozen=True)
class HistoryRequest:
    repo: Path = Path(".")
    mode: HistoryMode = HistoryMode.CONSECUTIVE
    revision_range: str | None = None
    tags: str | None = None  # release tag pattern (default: configuration)
    released: ReleasedMode | None = None  # default: tags when the repo has release tags
    out: Path | str | None = None  # a directory, or a URI Spark writes (hdfs://, s3a://)
    master: str | None = None
    proof: bool = True
    samples: int = 20
    history: bool = True
    partitions: int | None = None
    config: Config = field(default_factory=Config)
    workers: int | None = None  # preparation processes (default: the master's cores)
    remote: str | None = None  # a Spark Connect address (for the preparation's cores)
    changelog: bool = False  # releases: each release's changelog beside the audit


@dataclass(frozen=True)
class HistoryResult:
    comparisons: int
    findings: list[dict[str, Any]]
    summary: HistorySummary
    out: Path | str
    released_mode: ReleasedMode
    seconds: float

    @property
    def severities(self) -> list[Severity]:
        return [Severity.parse(f["severity"]) for f in self.findings]

    @property
    def internal(self) -> int:
        """Findings of pairs that could not be checked at all (``internal-error``)."""
        return sum(1 for f in self.findings if f["rule"] == "internal-error")


def plan(request: HistoryRequest, repo: GitRepo, pathspecs: Sequence[str]) -> list[Comparison]:
    pattern = request.tags or request.config.release_tags
    if request.mode == HistoryMode.CONSECUTIVE:
        return consecutive(repo, request.revision_range, pathspecs)
    return releases(
        repo,
        pattern,
        transitive=request.mode == HistoryMode.TRANSITIVE,
        revision_range=request.revision_range,
        pathspecs=pathspecs,
    )


def released_mode_for(request: HistoryRequest, repo: GitRepo) -> ReleasedMode:
    """``tags`` when the repository has release tags (and the user did not choose)."""
    if request.released is not None and request.released != ReleasedMode.AUTO:
        return request.released
    pattern = request.tags or request.config.release_tags
    found = repository_releases(repo, pattern, request.config.release_branches or None)
    return ReleasedMode.TAGS if found is not None else ReleasedMode.BASE


def prepare_job(
    request: HistoryRequest,
    repo: GitRepo,
    comparisons: Sequence[Comparison],
    released_mode: ReleasedMode,
    pathspecs: Sequence[str],
) -> PrepareJob:
    """What preparing needs: the policies, and git's answers prefetched for every pair."""
    from kcompat.sources.releases import releases_for

    pattern = request.tags or request.config.release_tags
    known = (
        releases_for(repo, pattern, request.config.release_branches or None)
        if released_mode != ReleasedMode.BASE
        else None
    )
    return PrepareJob(
        str(repo.root),
        released_mode,
        pattern,
        request.config,
        request.history,
        tuple(pathspecs),
        prefetched(repo, comparisons, pathspecs, known.tags if known is not None else ()),
    )


class SparkProgress:
    """Poll Spark's status tracker and report finished tasks of one job group."""

    def __init__(self, spark: Any, group: str, update: Any) -> None:
        self.tracker = spark.sparkContext.statusTracker()
        self.group = group
        self.update = update
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        while not self.stop.wait(0.25):
            done = total = 0
            for job_id in self.tracker.getJobIdsForGroup(self.group) or []:
                job = self.tracker.getJobInfo(job_id)
                for stage_id in job.stageIds if job else []:
                    stage = self.tracker.getStageInfo(stage_id)
                    if stage is not None:
                        done += stage.numCompletedTasks
                        total += stage.numTasks
            if total:
                self.update(done, total)

    def __enter__(self) -> SparkProgress:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=2)


class ConnectProgress:
    """The same report over Spark Connect, which has no status tracker: the server
    streams each operation's stages to a progress handler instead."""

    def __init__(self, spark: Any, update: Any) -> None:
        self.spark = spark
        self.update = update

    def __call__(self, stages: Any, inflight_tasks: int, operation_id: Any, done: bool) -> None:
        stages = list(stages or [])
        total = sum(int(stage.num_tasks) for stage in stages)
        if total:
            self.update(sum(int(stage.num_completed_tasks) for stage in stages), total)

    def __enter__(self) -> ConnectProgress:
        self.spark.registerProgressHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        self.spark.removeProgressHandler(self)


def progress_of(spark: Any, group: str, update: Any) -> SparkProgress | ConnectProgress:
    """Task progress of the jobs that follow, reported to ``update(done, total)``."""
    if is_connect(spark):
        return ConnectProgress(spark, update)
    return SparkProgress(spark, group, update)


def run_history(request: HistoryRequest, spark: Any, console: Any = None) -> HistoryResult:
    """Plan, prepare (in the background), check on Spark, write Parquet, summarise.

    ``spark`` is a session, or a function that makes one: it is then called while the
    comparisons are being prepared, so the JVM starts in the meantime.
    """
    started = time.perf_counter()
    repo = GitRepo.open(request.repo)
    from kcompat.diff.run import pathspecs as configured_paths

    specs_paths = configured_paths(request.config, repo)
    comparisons = plan(request, repo, specs_paths)
    mode = released_mode_for(request, repo)
    out = Output.of(request.out or tempfile.mkdtemp(prefix="kcompat-history-"))
    out.require_writable()
    if not comparisons and out.local:
        return _nothing_to_compare(request, out, mode, started)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    timings: dict[str, float] = {}
    shown = console is not None and console.is_terminal
    with Progress(
        *columns,
        console=console,
        transient=True,
        disable=not shown,
    ) as bar:
        reading = bar.add_task("reading revisions", total=len(comparisons))
        job = prepare_job(request, repo, comparisons, mode, specs_paths)
        workers = request.workers or worker_count(request.master or request.remote)
        preparation = Preparation(
            repo, comparisons, job, workers, lambda n: bar.advance(reading, n)
        )
        try:
            session = spark() if callable(spark) else spark
            timings["spark_ready"] = time.perf_counter() - started
            if not preparation.done():
                warm_up(session)  # Python workers start while the driver still prepares
                timings["warm"] = time.perf_counter() - started
            rows, texts = preparation.result()
        except BaseException:
            preparation.cancel()
            raise
        timings["prepared"] = time.perf_counter() - started
        options = CheckOptions(request.config, request.proof, request.samples)
        checking = bar.add_task("checking on Spark", total=None)
        label_jobs(session, "kcompat-history", "kcompat history checks")
        progress: Any = (
            progress_of(
                session,
                "kcompat-history",
                lambda done, total: bar.update(checking, completed=done, total=total),
            )
            if shown  # polling the tracker costs py4j calls: only for a visible bar
            else contextlib.nullcontext()
        )
        with progress:
            findings_frame = (
                run_checks(session, rows, options, request.partitions, texts) if rows else None
            )
            if findings_frame is None:  # nothing to compare: an empty table all the same
                findings_frame = session.createDataFrame([], FINDING_SCHEMA)
            findings_frame.write.mode("overwrite").parquet(out.child("findings"))
            timings["written"] = time.perf_counter() - started
            findings = read_findings(session, out)
        timings["checked"] = time.perf_counter() - started
    summary = told_by_git(summarise(findings, comparisons, request.mode, mode), repo, comparisons)
    if request.changelog and request.mode == HistoryMode.RELEASES:
        from kcompat.pipeline.history_changelogs import write_changelogs

        changelogs = write_changelogs(out, session, rows, texts, findings)
        summary = replace(summary, changelogs=changelogs)
    summary = replace(
        summary,
        seconds=round(time.perf_counter() - started, 2),
        timings={"workers": workers, **{key: round(v, 2) for key, v in timings.items()}},
    )
    out.write_text(session, "summary.json", json.dumps(summary.to_json(), indent=2))
    shown = out.path if out.local else out.location
    return HistoryResult(
        len(comparisons), findings, summary, shown, mode, time.perf_counter() - started
    )


def _nothing_to_compare(
    request: HistoryRequest, out: Output, released_mode: ReleasedMode, started: float
) -> HistoryResult:
    """A range with no spec changes (a CI run on a branch that touched none) needs no
    Spark: the same empty findings table and summary, written with pyarrow at once."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    findings = out.path / "findings"
    findings.mkdir(parents=True, exist_ok=True)
    for stale in findings.iterdir():  # "overwrite", as Spark's writer does
        if stale.is_file():
            stale.unlink()
    pq.write_table(
        pa.Table.from_pylist([], schema=arrow_findings_schema()), findings / "part-0.parquet"
    )
    summary = replace(
        summarise([], [], request.mode, released_mode),
        seconds=round(time.perf_counter() - started, 2),
        timings={},
    )
    out.write_text(None, "summary.json", json.dumps(summary.to_json(), indent=2))
    return HistoryResult(0, [], summary, out.path, released_mode, time.perf_counter() - started)


def read_findings(session: Any, out: Output) -> list[dict[str, Any]]:
    """The findings just written, in audit order. A local directory is read with pyarrow
    (no Spark job); anything else (HDFS, S3, ...) through Spark."""
    if out.local:
        import pyarrow.parquet as pq

        rows = pq.read_table(out.path / "findings").to_pylist()
    else:
        rows = [r.asDict() for r in session.read.parquet(out.readable("findings")).collect()]
    return sorted(rows, key=lambda r: (r["pair_index"], r["file"] or "", r["line"] or 0, r["rule"]))


def _finding_key(row: dict[str, Any]) -> tuple[str, str, str]:
    return (row["rule"], row["message_name"] or row["file"], row["field_path"] or "")


def summarise(
    findings: Sequence[dict[str, Any]],
    comparisons: Sequence[Comparison],
    audit_mode: HistoryMode,
    released_mode: ReleasedMode,
) -> HistorySummary:
    """Counts per rule, per message and per release; the error each comparison introduced
    (consecutive and releases audits), or each break's first release and every release
    pair it affects (transitive)."""
    per_rule: Counter[tuple[str, str]] = Counter((f["rule"], f["severity"]) for f in findings)
    per_message: Counter[str] = Counter(
        f["message_name"] or f["file"] for f in findings if f["severity"] == "error"
    )
    transitive = audit_mode == HistoryMode.TRANSITIVE
    return HistorySummary(
        mode=audit_mode,
        released=released_mode,
        comparisons=len(comparisons),
        findings=len(findings),
        # every compared pair, by pair index (the report's time axis; pairs without
        # findings included)
        pairs=tuple((c.base_label, c.head_label) for c in comparisons),
        per_rule=tuple(
            RuleCount(rule, severity, n)
            for (rule, severity), n in sorted(per_rule.items(), key=lambda kv: (-kv[1], kv[0]))
        ),
        per_message=tuple(MessageErrors(m, n) for m, n in per_message.most_common()),
        per_release=_per_release(findings, comparisons)
        if audit_mode == HistoryMode.RELEASES
        else (),
        introduced=None if transitive else introduced(findings),
        breaks=_breaks(findings, comparisons) if transitive else None,
    )


def _per_release(
    findings: Sequence[dict[str, Any]], comparisons: Sequence[Comparison]
) -> tuple[ReleaseCounts, ...]:
    per_release: dict[str, Counter[str]] = defaultdict(Counter)
    for f in findings:
        per_release[f["head_label"]][f["severity"]] += 1
    return tuple(
        ReleaseCounts(
            c.head_label,
            c.base_label,
            *(per_release[c.head_label].get(s, 0) for s in ("error", "warning", "info")),
        )
        for c in comparisons
    )


def _breaks(
    findings: Sequence[dict[str, Any]], comparisons: Sequence[Comparison]
) -> tuple[Break, ...]:
    """Each error (rule, message, field) once: the first release that has it, and every
    release pair it affects, in release order."""
    pairs_of: dict[tuple[str, str, str], list[str]] = {}
    for f in findings:
        if f["severity"] == "error":
            pairs_of.setdefault(_finding_key(f), []).append(f"{f['base_label']}..{f['head_label']}")
    labels = _release_order(
        [c.head_label for c in comparisons] + [c.base_label for c in comparisons]
    )
    breaks = []
    for (rule, message, field_path), pairs in pairs_of.items():
        heads = {p.split("..")[1] for p in pairs}
        ordered = sorted(
            set(pairs),
            key=lambda p: (labels.index(p.split("..")[0]), labels.index(p.split("..")[1])),
        )
        first = min(heads, key=labels.index)
        breaks.append(Break(rule, message, field_path, first, tuple(ordered)))
    return tuple(sorted(breaks, key=lambda b: (labels.index(b.first_release), b.rule)))


def introduced(findings: Sequence[dict[str, Any]]) -> tuple[Introduced, ...]:
    """Each error (rule, message, field) once, with the comparison that first has it: the
    commit (consecutive) or release (releases) that introduced it, in audit order."""
    first: dict[tuple[str, str, str], Introduced] = {}
    for f in sorted(findings, key=lambda f: f["pair_index"]):
        if f["severity"] == "error":
            key = _finding_key(f)
            first.setdefault(key, Introduced(*key, f["head_label"], f["base_label"]))
    return tuple(first.values())


def told_by_git(
    summary: HistorySummary, repo: GitRepo, comparisons: Sequence[Comparison]
) -> HistorySummary:
    """What git adds to a summary: the subject of each commit that introduced an error
    (consecutive audits), and which release pairs are not ancestor and descendant
    (releases audits)."""
    if summary.mode == HistoryMode.CONSECUTIVE:
        return replace(summary, introduced=name_commits(repo, summary.introduced or ()))
    if summary.mode == HistoryMode.RELEASES:
        return replace(summary, notes=tuple(not_ancestors(repo, comparisons)))
    return summary


def name_commits(repo: GitRepo, entries: Sequence[Introduced]) -> tuple[Introduced, ...]:
    """The entries with each introducing commit's subject line (one git call for all)."""
    labels = sorted({e.introduced_in for e in entries})
    if not labels:
        return tuple(entries)
    by_short = {full[:12]: line for full, line in subjects(repo, labels).items()}
    return tuple(replace(e, subject=by_short.get(e.introduced_in, "")) for e in entries)


def _release_order(labels: Sequence[str]) -> list[str]:
    return sorted(set(labels), key=release_order)
