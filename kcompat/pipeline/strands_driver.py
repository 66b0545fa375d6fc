"""The driver side of ``kcompat strands``: plan from git, read the texts and judge
every commit against every client release on Spark, write Parquet, summarise.

"Since which commit of trunk can client release X no longer talk to trunk" is every
commit of the line (each one a broker) against every client release: ten thousand
commits by fifty releases on Apache Kafka. ``kcompat matrix`` answers the same question
for release tags alone, locally.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kcompat.auditreport.strands import STRANDS
from kcompat.config import Config
from kcompat.matrix.releases import Span
from kcompat.matrix.run import named_keys
from kcompat.negotiation.apis import ApiSpec, ReleaseApis, Role
from kcompat.negotiation.grid import Api, apis_of, chosen, ranges_of
from kcompat.pipeline.job import Job, run_job
from kcompat.pipeline.job import Run as JobRun
from kcompat.pipeline.outputs import Output
from kcompat.pipeline.strands_plan import TrunkPlan, plan_trunk
from kcompat.pipeline.strands_tasks import Judged, facts_of, judge, read_texts, spec_of
from kcompat.report.strands_summary import ClientLine, Run, StrandsSummary
from kcompat.sources.git import GitRepo


@dataclass(frozen=True)
class StrandsRequest:
    repo: Path = Path(".")
    revision_range: str | None = None  # the line's commits (default: HEAD's line)
    clients: str | None = None  # --clients A..B: the client releases
    tags: str | None = None  # release tag pattern (default: configuration)
    apis: tuple[str, ...] = ()
    controller: bool = False
    inter_broker: bool = False
    unstable: bool = False
    out: Path | str | None = None
    partitions: int | None = None
    config: Config = field(default_factory=Config)


@dataclass(frozen=True)
class StrandsResult:
    summary: StrandsSummary
    out: Path | str
    rows: list[dict[str, Any]]  # the (commit, client) pairs with an API stranded
    seconds: float


@dataclass(frozen=True)
class StrandsPlan:
    """A line planned from git, and the APIs judged, before Spark starts."""

    trunk: TrunkPlan
    apis: tuple[Api, ...]
    roles: tuple[Role, ...]
    named: bool  # --apis named the APIs (else every API of the roles)


@dataclass(frozen=True)
class Texts:
    """What every text of the line declares, read on Spark."""

    facts: dict[str, ApiSpec | None]


class StrandsJob(Job[StrandsPlan, Texts, list[dict[str, Any]], StrandsSummary]):
    """``kcompat strands``: every commit of a line against every client release."""

    kind = STRANDS

    def __init__(self, request: StrandsRequest) -> None:
        self.request = request

    def plan(self) -> tuple[StrandsPlan, Output]:
        """The line's commits and texts from git, and the APIs judged: an unknown
        ``--apis`` name or a bad range is one line before the JVM starts."""
        from kcompat.diff.run import pathspecs as configured_paths

        request = self.request
        repo = GitRepo.open(request.repo)
        config = request.config
        specs = configured_paths(config, repo)
        plan = plan_trunk(
            repo,
            request.revision_range,
            specs,
            config.is_fixture,
            request.tags or config.release_tags,
            Span.parse(request.clients),
        )
        # The APIs judged are named by the client releases and the line's last commit.
        last = len(plan.commits) - 1
        newest = {d: spec_of(facts_of(d, plan.texts[d])) for _path, d in plan.trees[last]}
        every = apis_of([*plan.clients, ReleaseApis.of("HEAD", list(apis_at(plan, last, newest)))])
        keys = named_keys(every, request.apis) if request.apis else None
        roles = [Role.CLIENT]
        roles += [Role.CONTROLLER] if request.controller else []
        roles += [Role.INTER_BROKER] if request.inter_broker else []
        apis = tuple(chosen(every, frozenset(roles), keys))
        out = Output.of(request.out or tempfile.mkdtemp(prefix="kcompat-strands-"))
        out.require_writable()
        return StrandsPlan(plan, apis, tuple(roles), keys is not None), out

    def prepare(self, run: JobRun[StrandsPlan], spark: Callable[[], Any]) -> Texts:
        run.mark("planned")
        facts = read_texts(spark(), run.plan.trunk.texts, self.request.partitions)
        run.mark("read")
        return Texts(facts)

    def tasks(self, run: JobRun[StrandsPlan], work: Texts) -> list[Any]:
        plan, unstable = run.plan.trunk, self.request.unstable
        apis = list(run.plan.apis)
        brokers = [apis_at(plan, i, work.facts) for i in range(len(plan.commits))]
        judged = judged_commits(plan, brokers, apis, unstable)
        clients = [(client.name, ranges_of(client, apis, unstable)[0]) for client in plan.clients]
        frame = judge(
            run.session,
            judged,
            clients,
            apis,
            unstable=unstable,
            partitions=self.request.partitions,
        )
        return [frame]

    def read(self, run: JobRun[StrandsPlan], work: Texts | None) -> list[dict[str, Any]]:
        return stranded_rows(run.session, run.out)

    def summarise(
        self, run: JobRun[StrandsPlan], work: Texts | None, found: list[dict[str, Any]]
    ) -> StrandsSummary:
        planned = run.plan
        named = planned.named
        roles = tuple(
            r.value for r in Role if (r in planned.roles if not named else _has(planned.apis, r))
        )
        summary = summarise(
            planned.trunk, planned.apis, roles, found, self.request.revision_range or "HEAD"
        )
        stages = {"planned": "planned", "read": "read", "judged": "written"}
        timings = {k: round(run.timings[v], 2) for k, v in stages.items() if v in run.timings}
        return replace(summary, seconds=round(run.seconds, 2), timings=timings)


def run_strands(request: StrandsRequest, spark: Any) -> StrandsResult:
    """Plan, read and judge on Spark, write ``strandings/`` and ``summary.json``.

    ``spark`` is a session, or a function that makes one (called once the plan is made:
    a bad range is one line before the JVM starts)."""
    outcome = run_job(StrandsJob(request), spark)
    return StrandsResult(outcome.summary, outcome.shown, outcome.found, outcome.summary.seconds)


def _has(apis: Sequence[Api], role: Role) -> bool:
    return any(api.role is role for api in apis)


def apis_at(plan: TrunkPlan, index: int, facts: dict[str, ApiSpec | None]) -> tuple[ApiSpec, ...]:
    """A commit's APIs (the first file of a key wins, by path)."""
    found = [facts.get(digest) for _path, digest in plan.trees[index]]
    release = ReleaseApis.of(plan.commits[index], [spec for spec in found if spec is not None])
    return tuple(release.apis.values())


def judged_commits(
    plan: TrunkPlan, brokers: Sequence[tuple[ApiSpec, ...]], apis: Sequence[Api], unstable: bool
) -> list[Judged]:
    """Each commit with what the line served before it: an API a commit no longer serves
    strands the clients that have it only if an earlier commit served it."""
    served: set[int] = set()
    out = []
    for index, specs in enumerate(brokers):
        out.append(Judged(index, plan.commits[index], specs, frozenset(served)))
        release = ReleaseApis.of(plan.commits[index], list(specs))
        serves = ranges_of(release, apis, unstable)[1]
        served |= {api.key for api, versions in zip(apis, serves, strict=True) if versions}
    return out


def stranded_rows(session: Any, out: Output) -> list[dict[str, Any]]:
    """The pairs with an API stranded, in commit order (pyarrow for a local directory)."""
    if out.local:
        import pyarrow.compute as pc
        import pyarrow.parquet as pq

        table = pq.read_table(out.path / "strandings")
        rows: list[dict[str, Any]] = table.filter(pc.greater(table["count"], 0)).to_pylist()
    else:
        frame = session.read.parquet(out.readable("strandings")).where("count > 0")
        rows = [r.asDict() for r in frame.collect()]
    return sorted(rows, key=lambda r: (r["commit_index"], r["client"]))


def summarise(
    plan: TrunkPlan,
    apis: Sequence[Api],
    roles: tuple[str, ...],
    rows: Sequence[dict[str, Any]],
    line: str,
) -> StrandsSummary:
    """Per client release, the runs of commits that strand it, on the same APIs."""
    by_client: dict[str, dict[int, tuple[int, ...]]] = {}
    for row in rows:
        by_client.setdefault(row["client"], {})[int(row["commit_index"])] = tuple(row["stranded"])
    lines = []
    for client in plan.clients:
        stranded = by_client.get(client.name, {})
        runs: list[Run] = []
        for index in sorted(stranded):
            keys = stranded[index]
            if runs and runs[-1].last == index - 1 and runs[-1].apis == keys:
                runs[-1] = Run(runs[-1].first, index, keys)
            else:
                runs.append(Run(index, index, keys))
        lines.append(ClientLine(client.name, tuple(runs)))
    return StrandsSummary(
        line,
        plan.labels(),
        plan.subjects,
        tuple(c.name for c in plan.clients),
        tuple((api.key, api.name) for api in apis),
        roles,
        tuple(lines),
        notes=plan.notes,
    )
