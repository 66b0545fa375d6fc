"""The driver side of ``kcompat history``: enumerate, prepare, run on Spark, summarise.

A :class:`HistoryJob` is the job seam's steps (:mod:`kcompat.pipeline.job`) for
history: plan the comparisons, prepare them from git in worker processes while Spark
starts, check them on Spark (:mod:`kcompat.pipeline.history_tasks`), read the findings
back, summarise.
"""

from __future__ import annotations

import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kcompat import progress
from kcompat.auditreport.history import HISTORY
from kcompat.config import Config
from kcompat.diff.check import CheckOptions
from kcompat.findings import Severity
from kcompat.modes import HistoryMode, ReleasedMode
from kcompat.naming import release_order
from kcompat.pipeline.history_tasks import TABLE, Texts, run_checks, warm_up
from kcompat.pipeline.job import Job, Run, read_rows, run_job
from kcompat.pipeline.outputs import Output
from kcompat.pipeline.prepare import Preparation, PrepareJob, prefetched, worker_count
from kcompat.pipeline.revisions import Comparison, consecutive, not_ancestors, releases
from kcompat.report.audit_summary import (
    Break,
    HistorySummary,
    Introduced,
    MessageErrors,
    ReleaseCounts,
    RuleCount,
)
from kcompat.report.columns import AuditRow, Pair
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
    findings: list[AuditRow[Pair]]
    summary: HistorySummary
    out: Path | str
    released_mode: ReleasedMode
    seconds: float

    @property
    def severities(self) -> list[Severity]:
        return [Severity.parse(row.finding.severity) for row in self.findings]

    @property
    def internal(self) -> int:
        """Findings of pairs that could not be checked at all (``internal-error``)."""
        return sum(1 for row in self.findings if row.finding.rule == "internal-error")


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


@dataclass(frozen=True)
class HistoryPlan:
    """An audit planned on the driver: the repository, its pairs, the released mode."""

    request: HistoryRequest
    repo: GitRepo
    pathspecs: tuple[str, ...]
    comparisons: tuple[Comparison, ...]
    released_mode: ReleasedMode


@dataclass(frozen=True)
class Prepared:
    """The comparisons prepared on the driver: rows naming their texts by digest."""

    rows: list[dict[str, Any]]
    texts: Texts
    workers: int


Rows = list[AuditRow[Pair]]


class HistoryJob(Job[HistoryPlan, Prepared, Rows, HistorySummary]):
    """``kcompat history``: every pair of revisions diffed on Spark."""

    kind = HISTORY

    def __init__(self, request: HistoryRequest) -> None:
        self.request = request

    def plan(self) -> tuple[HistoryPlan, Output]:
        request = self.request
        repo = GitRepo.open(request.repo)
        from kcompat.diff.run import pathspecs as configured_paths

        specs_paths = configured_paths(request.config, repo)
        comparisons = plan(request, repo, specs_paths)
        mode = released_mode_for(request, repo)
        out = Output.of(request.out or tempfile.mkdtemp(prefix="kcompat-history-"))
        out.require_writable()
        planned = HistoryPlan(request, repo, tuple(specs_paths), tuple(comparisons), mode)
        return planned, out

    def idle(self, plan: HistoryPlan) -> bool:
        """A range with no spec changes (a CI run on a branch that touched none)."""
        return not plan.comparisons

    def prepare(self, run: Run[HistoryPlan], spark: Callable[[], Any]) -> Prepared:
        """Every pair read from git in worker processes while Spark starts; Python
        workers warm up if the driver is still at it once Spark is up."""
        plan, request = run.plan, self.request
        progress.step("reading revisions", len(plan.comparisons))
        job = prepare_job(request, plan.repo, plan.comparisons, plan.released_mode, plan.pathspecs)
        workers = request.workers or worker_count(request.master or request.remote)
        preparation = Preparation(
            plan.repo, plan.comparisons, job, workers, progress.carried(progress.advance)
        )
        try:
            session = spark()
            if not preparation.done():
                warm_up(session)  # Python workers start while the driver still prepares
                run.mark("warm")
            rows, texts = preparation.result()
        except BaseException:
            preparation.cancel()
            raise
        run.mark("prepared")
        return Prepared(rows, texts, workers)

    def tasks(self, run: Run[HistoryPlan], work: Prepared) -> list[Any]:
        options = CheckOptions(self.request.config, self.request.proof, self.request.samples)
        if not work.rows:
            return []
        return [run_checks(run.session, work.rows, options, self.request.partitions, work.texts)]

    def read(self, run: Run[HistoryPlan], work: Prepared | None) -> Rows:
        """The findings just written, in audit order."""
        rows = read_rows(run.session, run.out, TABLE)
        return sorted(
            rows,
            key=lambda r: (
                r.about.pair_index,
                r.finding.file or "",
                r.finding.line or 0,
                r.finding.rule,
            ),
        )

    def summarise(
        self, run: Run[HistoryPlan], work: Prepared | None, found: Rows
    ) -> HistorySummary:
        plan, request = run.plan, self.request
        if work is None:  # idle: nothing compared, nothing told by git, no stages
            return replace(
                summarise([], [], request.mode, plan.released_mode),
                seconds=round(run.seconds, 2),
                timings={},
            )
        summary = told_by_git(
            summarise(found, plan.comparisons, request.mode, plan.released_mode),
            plan.repo,
            plan.comparisons,
        )
        if request.changelog and request.mode == HistoryMode.RELEASES:
            from kcompat.pipeline.history_changelogs import write_changelogs

            changelogs = write_changelogs(run.out, run.session, work.rows, work.texts, found)
            summary = replace(summary, changelogs=changelogs)
        timings = {key: round(v, 2) for key, v in run.timings.items()}
        return replace(
            summary,
            seconds=round(run.seconds, 2),
            timings={"workers": work.workers, **timings},
        )


def run_history(request: HistoryRequest, spark: Any) -> HistoryResult:
    """Plan, prepare (in the background), check on Spark, write Parquet, summarise.

    ``spark`` is a session, or a function that makes one: it is then called while the
    comparisons are being prepared, so the JVM starts in the meantime.
    """
    outcome = run_job(HistoryJob(request), spark)
    return HistoryResult(
        len(outcome.plan.comparisons),
        outcome.found,
        outcome.summary,
        outcome.shown,
        outcome.plan.released_mode,
        outcome.seconds,
    )


def _finding_key(row: AuditRow[Pair]) -> tuple[str, str, str]:
    return (row.finding.rule, row.finding.subject, row.finding.field_path or "")


def summarise(
    findings: Sequence[AuditRow[Pair]],
    comparisons: Sequence[Comparison],
    audit_mode: HistoryMode,
    released_mode: ReleasedMode,
) -> HistorySummary:
    """Counts per rule, per message and per release; the error each comparison introduced
    (consecutive and releases audits), or each break's first release and every release
    pair it affects (transitive)."""
    per_rule: Counter[tuple[str, str]] = Counter(
        (f.finding.rule, f.finding.severity) for f in findings
    )
    per_message: Counter[str] = Counter(
        f.finding.subject for f in findings if f.finding.severity == "error"
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
    findings: Sequence[AuditRow[Pair]], comparisons: Sequence[Comparison]
) -> tuple[ReleaseCounts, ...]:
    per_release: dict[str, Counter[str]] = defaultdict(Counter)
    for f in findings:
        per_release[f.about.head_label][f.finding.severity] += 1
    return tuple(
        ReleaseCounts(
            c.head_label,
            c.base_label,
            *(per_release[c.head_label].get(s, 0) for s in ("error", "warning", "info")),
        )
        for c in comparisons
    )


def _breaks(
    findings: Sequence[AuditRow[Pair]], comparisons: Sequence[Comparison]
) -> tuple[Break, ...]:
    """Each error (rule, message, field) once: the first release that has it, and every
    release pair it affects, in release order."""
    pairs_of: dict[tuple[str, str, str], list[str]] = {}
    for f in findings:
        if f.finding.severity == "error":
            pairs_of.setdefault(_finding_key(f), []).append(f.about.step)
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


def introduced(findings: Sequence[AuditRow[Pair]]) -> tuple[Introduced, ...]:
    """Each error (rule, message, field) once, with the comparison that first has it: the
    commit (consecutive) or release (releases) that introduced it, in audit order."""
    first: dict[tuple[str, str, str], Introduced] = {}
    for f in sorted(findings, key=lambda f: f.about.pair_index):
        if f.finding.severity == "error":
            key = _finding_key(f)
            first.setdefault(key, Introduced(*key, f.about.head_label, f.about.base_label))
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
