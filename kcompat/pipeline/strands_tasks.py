"""The executor side of ``kcompat strands``: two stages of one task per slot, the
data travelling in the task closure (as ``history``'s checks do, see
:mod:`kcompat.pipeline.history_tasks`), so executors need no checkout.

1. Read: every distinct request text, parsed into its API's facts
   (:class:`~kcompat.negotiation.apis.ApiSpec`), collected by the driver, which then
   knows each commit's APIs and which APIs the line served before each commit.
2. Judge: each commit, as a broker, against every client release: the APIs each client
   is stranded on (:func:`~kcompat.negotiation.grid.against`), one row per pair, written
   as Parquet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from kcompat.auditreport.strands import StrandingsTable
from kcompat.negotiation.apis import ApiSpec, ReleaseApis
from kcompat.negotiation.grid import Api, Memo, against
from kcompat.negotiation.negotiate import STRANDED
from kcompat.pipeline.sparkapi import parallelism
from kcompat.report.columns import arrow_schema
from kcompat.spec.versions import Versions

#: Stage 1's rows: one per distinct text.
FACTS_SCHEMA = (
    "digest string, key int, name string, valid string, deprecated string, "
    "unstable boolean, listeners array<string>"
)
#: Stage 2's rows (the ``strandings`` Parquet): one per commit and client release.
STRANDINGS_SCHEMA = StrandingsTable.ddl


@dataclass(frozen=True)
class Judged:
    """One commit as stage 2 judges it: its index, SHA, APIs and what the line served
    before it (by key)."""

    index: int
    commit: str
    apis: tuple[ApiSpec, ...]
    served_before: frozenset[int]


def _slots(items: Sequence[Any], count: int) -> list[list[Any]]:
    """``items`` in ``count`` runs of neighbours (neighbouring commits share most texts)."""
    size = max(1, -(-len(items) // count))
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def facts_of(digest: str, text: bytes) -> dict[str, Any]:
    """The API a text declares (key -1 when it declares none: not a request, unreadable)."""
    from kcompat.negotiation.apis import api_spec
    from kcompat.spec.specfile import read_spec

    message = read_spec(digest, text).message
    spec = api_spec(message) if message is not None else None
    if spec is None:
        return {"digest": digest, "key": -1, "name": "", "valid": "none",
                "deprecated": "none", "unstable": False, "listeners": []}  # fmt: skip
    return {
        "digest": digest,
        "key": spec.key,
        "name": spec.name,
        "valid": str(spec.valid),
        "deprecated": str(spec.deprecated),
        "unstable": spec.unstable,
        "listeners": list(spec.listeners),
    }


def spec_of(row: dict[str, Any]) -> ApiSpec | None:
    if int(row["key"]) < 0:
        return None
    return ApiSpec(
        int(row["key"]),
        str(row["name"]),
        Versions.parse(row["valid"]),
        Versions.parse(row["deprecated"]),
        bool(row["unstable"]),
        tuple(row["listeners"] or ()),
    )


def read_texts(
    spark: Any, texts: dict[str, bytes], partitions: int | None
) -> dict[str, ApiSpec | None]:
    """Stage 1: every text parsed on Spark, its API's facts back on the driver."""
    digests = sorted(texts)
    if not digests:
        return {}
    count = max(1, min(len(digests), partitions or parallelism(spark) * 2))
    slots = _slots(digests, count)

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        schema = arrow_schema(FACTS_SCHEMA)
        for batch in batches:
            for slot in batch.column(0).to_pylist():
                rows = [facts_of(d, texts[d]) for d in slots[int(slot)]]
                yield pa.RecordBatch.from_pylist(rows, schema=schema)

    frame = spark.range(len(slots), numPartitions=len(slots)).mapInArrow(run, FACTS_SCHEMA)
    return {row["digest"]: spec_of(row.asDict()) for row in frame.collect()}


def judge_slots(
    slots: Sequence[Sequence[Judged]],
    clients: Sequence[tuple[str, tuple[Versions | None, ...]]],
    apis: Sequence[Api],
    unstable: bool,
) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """Stage 2's ``mapInArrow`` function: slot numbers in, a row per (commit, client) out."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        schema = arrow_schema(STRANDINGS_SCHEMA)
        memo: Memo = {}
        offered = [ranges for _name, ranges in clients]
        for batch in batches:
            for slot in batch.column(0).to_pylist():
                rows = []
                for judged in slots[int(slot)]:
                    broker = ReleaseApis.of(judged.commit, list(judged.apis))
                    cells = against(
                        offered, broker, apis, judged.served_before, memo, unstable=unstable
                    )
                    for (client, _ranges), cell in zip(clients, cells, strict=True):
                        keys = [api.key for api, v in zip(apis, cell, strict=True) if v == STRANDED]
                        rows.append(
                            {
                                "commit_index": judged.index,
                                "commit": judged.commit,
                                "client": client,
                                "stranded": keys,
                                "count": len(keys),
                            }
                        )
                yield pa.RecordBatch.from_pylist(rows, schema=schema)

    return run


def judge(
    spark: Any,
    commits: Sequence[Judged],
    clients: Sequence[tuple[str, tuple[Versions | None, ...]]],
    apis: Sequence[Api],
    *,
    unstable: bool = False,
    partitions: int | None = None,
) -> Any:
    """Stage 2: a DataFrame of every (commit, client) pair (lazy until written)."""
    count = max(1, min(len(commits), partitions or parallelism(spark) * 2))
    slots = _slots(list(commits), count)
    numbers = spark.range(len(slots), numPartitions=len(slots))
    return numbers.mapInArrow(judge_slots(slots, clients, apis, unstable), STRANDINGS_SCHEMA)
