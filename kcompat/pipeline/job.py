"""One driver for every Spark job: plan, prepare, tasks, Parquet, summary.

A job (``history``, ``corpus verify``) is a :class:`Job`: its kind (registered once in
:mod:`kcompat.auditreport.kinds`: its name, summary, findings table and report) and the
steps only it knows. :func:`run_job` runs them in order, the same way for every job:

1. ``plan``: on the driver, before Spark starts: git is read and every usage error is
   raised; the plan says where the audit goes.
2. ``prepare``: what the tasks need, made on the driver. It asks for the session
   (``spark()``) only when it needs one, so a job that prepares from git lets the JVM
   start meanwhile.
3. ``tasks``: the findings, as lazy DataFrames of the kind's table (``mapInArrow`` over
   typed rows, :class:`~kcompat.report.columns.FindingsTable`); the driver writes them as
   the audit's ``findings/`` Parquet while Spark's finished tasks show as progress.
4. ``read``: what the job reports of its findings, read back (every row, or groups).
5. ``summarise``: what the run adds up to; the driver writes it as ``summary.json``,
   its kind first.

A plan with nothing to check (``idle``) and a local output starts no Spark at all: the
same empty table and summary are written with pyarrow. Progress goes through
:mod:`kcompat.progress` only (the driver's steps, then Spark's finished tasks), and only
a command draws it.
"""

from __future__ import annotations

import contextlib
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from kcompat import progress
from kcompat.auditreport.kinds import JobKind, Summary, Table
from kcompat.pipeline.outputs import Output
from kcompat.pipeline.sparkapi import label_jobs, progress_of

Plan = TypeVar("Plan")
Work = TypeVar("Work")
Found = TypeVar("Found")
S = TypeVar("S", bound=Summary)
Row = TypeVar("Row")

#: What the driver's progress calls the tasks' step.
CHECKING = "checking on Spark"


@dataclass
class Run(Generic[Plan]):
    """One run of a job: its plan, where it writes, its session once started, and when
    each stage ended (seconds since the start, by stage name)."""

    plan: Plan
    out: Output
    started: float
    session: Any = None
    timings: dict[str, float] = field(default_factory=dict)

    def mark(self, stage: str) -> None:
        self.timings[stage] = time.perf_counter() - self.started

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started


class Job(ABC, Generic[Plan, Work, Found, S]):
    """A Spark job's own steps (see the module docstring); :func:`run_job` runs them."""

    kind: JobKind[S, Any]

    @abstractmethod
    def plan(self) -> tuple[Plan, Output]:
        """Everything before Spark: git read, usage errors raised, the output chosen."""

    def idle(self, plan: Plan) -> bool:
        """Whether there is nothing to check (then, for a local output, no Spark starts)."""
        return False

    @abstractmethod
    def prepare(self, run: Run[Plan], spark: Callable[[], Any]) -> Work:
        """What the tasks need; ``spark()`` starts the session (once) when it is needed."""

    @abstractmethod
    def tasks(self, run: Run[Plan], work: Work) -> Sequence[Any]:
        """Lazy DataFrames of the kind's table: the findings, written in order."""

    @abstractmethod
    def read(self, run: Run[Plan], work: Work | None) -> Found:
        """The findings written, as the job reports them (``work`` is None when idle)."""

    @abstractmethod
    def summarise(self, run: Run[Plan], work: Work | None, found: Found) -> S:
        """What the run adds up to (``work`` is None when idle)."""


@dataclass(frozen=True)
class Outcome(Generic[Plan, Work, Found, S]):
    """A job's run: its plan, its preparation (None when idle), what it found, its
    summary, where it wrote, how long."""

    plan: Plan
    work: Work | None
    found: Found
    summary: S
    out: Output
    seconds: float

    @property
    def shown(self) -> Path | str:
        """How the output is named to the user: its local path, else its URI."""
        return self.out.path if self.out.local else self.out.location


def run_job(job: Job[Plan, Work, Found, S], spark: Any) -> Outcome[Plan, Work, Found, S]:
    """Run ``job``. ``spark`` is a session, or a function that makes one: it is called
    when the job's preparation first needs it (the JVM starts while the driver works)."""
    started = time.perf_counter()
    plan, out = job.plan()
    run = Run(plan, out, started)
    kind = job.kind
    if out.local and job.idle(plan):
        _write_empty(out, kind.table)
        found = job.read(run, None)
        summary = job.summarise(run, None, found)
        out.write_text(None, "summary.json", kind.summary_text(summary))
        return Outcome(plan, None, found, summary, out, run.seconds)

    def session() -> Any:
        if run.session is None:
            run.session = spark() if callable(spark) else spark
            run.mark("spark_ready")
        return run.session

    work = job.prepare(run, session)
    group = f"kcompat-{kind.name}"
    label_jobs(session(), group, f"kcompat {kind.command}")
    progress.step(CHECKING)
    with task_progress(run.session, group):
        frames = list(job.tasks(run, work))
        if not frames:  # nothing to check: an empty table all the same
            frames = [run.session.createDataFrame([], kind.table.ddl)]
        for index, frame in enumerate(frames):
            written = out.child(kind.table.directory)
            frame.write.mode("append" if index else "overwrite").parquet(written)
        run.mark("written")
        found = job.read(run, work)
    run.mark("checked")
    summary = job.summarise(run, work, found)
    out.write_text(run.session, "summary.json", kind.summary_text(summary))
    return Outcome(plan, work, found, summary, out, run.seconds)


def _write_empty(out: Output, table: Table[Any]) -> None:
    """The table without rows, as Spark's writer would leave it ("overwrite")."""
    import pyarrow.parquet as pq

    findings = out.path / table.directory
    findings.mkdir(parents=True, exist_ok=True)
    for stale in findings.iterdir():
        if stale.is_file():
            stale.unlink()
    pq.write_table(table.empty(), findings / "part-0.parquet")


def read_rows(session: Any, out: Output, table: Table[Row]) -> list[Row]:
    """Every row written, typed. A local directory is read with pyarrow (no Spark job);
    anything else (HDFS, S3, ...) through Spark."""
    if out.local:
        import pyarrow.parquet as pq

        records = pq.read_table(out.path / table.directory).to_pylist()
    else:
        frame = session.read.parquet(out.readable(table.directory))
        records = [r.asDict() for r in frame.collect()]
    return table.read(records)


class TaskCount:
    """Spark's finished tasks, as a progress step: a new total is a new step."""

    def __init__(self, description: str = CHECKING) -> None:
        self.description = description
        self.total: int | None = None
        self.done = 0
        self.lock = threading.Lock()

    def update(self, done: int, total: int) -> None:
        with self.lock:
            if total != self.total:
                progress.step(self.description, total)
                self.total, self.done = total, 0
            if done > self.done:
                progress.advance(done - self.done)
                self.done = done


def task_progress(session: Any, group: str) -> contextlib.AbstractContextManager[Any]:
    """Spark's finished tasks of ``group`` as progress, while anyone watches (polling
    Spark's tracker costs py4j calls: not for nobody)."""
    if not progress.watched():
        return contextlib.nullcontext()
    return progress_of(session, group, progress.carried(TaskCount().update))
