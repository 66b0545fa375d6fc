"""What kcompat asks of a session beyond DataFrames, for classic Spark and Spark Connect.

A classic session has a SparkContext (parallelism, job groups, a status tracker, the
JVM); a Spark Connect session (``--remote sc://HOST:PORT``) has none of these, only the
DataFrame API and the server's configuration. The pipeline's checks run in
``mapInArrow`` and need nothing more; these helpers answer the rest either way.
"""

from __future__ import annotations

import os
import re
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
