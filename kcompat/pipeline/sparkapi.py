"""What kcompat asks of a session beyond DataFrames, for classic Spark and Spark Connect.

A classic session has a SparkContext (parallelism, job groups, a status tracker, the
JVM); a Spark Connect session (``--remote sc://HOST:PORT``) has none of these, only the
DataFrame API and the server's configuration. The pipeline's checks run in
``mapInArrow`` and need nothing more; these helpers answer the rest either way.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable
from typing import Any

#: Partitions per audit over Spark Connect when the server says nothing about its size.
CONNECT_PARALLELISM = 8


def is_connect(spark: Any) -> bool:
    """Whether ``spark`` is a Spark Connect session (it has no SparkContext)."""
    return type(spark).__module__.startswith("pyspark.sql.connect")


def parallelism(spark: Any) -> int:
    """How many tasks can run at once: the SparkContext's answer, or over Spark Connect
    the server's ``spark.default.parallelism``, its executors' cores, or its local
    master's thread count, in that order."""
    if not is_connect(spark):
        return max(1, int(spark.sparkContext.defaultParallelism))
    conf = spark.conf
    configured = conf.get("spark.default.parallelism", None)
    if configured:
        return max(1, int(configured))
    instances = conf.get("spark.executor.instances", None)
    if instances:
        return max(1, int(instances) * int(conf.get("spark.executor.cores", "1") or 1))
    return local_threads(conf.get("spark.master", None)) or CONNECT_PARALLELISM


def local_threads(master: str | None) -> int | None:
    """N for ``local[N]`` (``local`` is 1, ``local[*]`` every core); None for a cluster."""
    if master is None:
        return None
    match = re.fullmatch(r"local(?:\[(\d+|\*)(?:,\s*\d+)?\])?", master.strip())
    if match is None:
        return None
    count = match.group(1)
    if count is None:
        return 1
    return (os.cpu_count() or 1) if count == "*" else max(1, int(count))


def label_jobs(spark: Any, group: str, description: str) -> None:
    """Name the jobs that follow (a job group; a tag over Spark Connect)."""
    if is_connect(spark):
        spark.addTag(group)
    else:
        spark.sparkContext.setJobGroup(group, description)


def quiet(spark: Any) -> None:
    """Spark's own log at ERROR (a Connect server's log is its operator's business)."""
    if not is_connect(spark):
        spark.sparkContext.setLogLevel("ERROR")


# -- task progress --------------------------------------------------------------------------


class SparkProgress:
    """Poll Spark's status tracker and report finished tasks of one job group."""

    def __init__(self, spark: Any, group: str, update: Callable[[int, int], None]) -> None:
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

    def __init__(self, spark: Any, update: Callable[[int, int], None]) -> None:
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


def progress_of(
    spark: Any, group: str, update: Callable[[int, int], None]
) -> SparkProgress | ConnectProgress:
    """Task progress of the jobs that follow, reported to ``update(done, total)``."""
    if is_connect(spark):
        return ConnectProgress(spark, update)
    return SparkProgress(spark, group, update)
