"""The executor side of ``kcompat history``: the tasks that diff many revision pairs on
Spark, and the findings' table.

The driver (:mod:`kcompat.pipeline.history_driver`) enumerates the comparisons and
prepares each one from git
(:func:`kcompat.diff.prepared.prepare_pair`: the changed spec texts, the released-version
policy, the tag ledger), so the texts travel with the tasks and executors need no
checkout. Executors run :func:`kcompat.diff.check.check` (rules and the
round-trip proof) inside ``mapInArrow``, which also works over Spark Connect. Findings
are written as Parquet; the driver prints a summary per rule, per message and per release.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from kcompat.auditreport.history import FINDINGS
from kcompat.diff.check import CheckOptions, check
from kcompat.diff.prepared import PreparedPair
from kcompat.findings import Finding, Location, Severity
from kcompat.pipeline.revisions import Comparison
from kcompat.pipeline.sparkapi import parallelism
from kcompat.report.columns import AuditRow, FindingRow, Pair, arrow_schema

#: The findings table: the pair a finding belongs to, then the finding's own columns.
TABLE = FINDINGS
FINDING_SCHEMA = TABLE.ddl


def pair_row(comparison: Comparison, prepared: PreparedPair) -> dict[str, Any]:
    row = prepared.to_row()
    row.update(
        pair_index=comparison.index,
        base_rev=comparison.base,
        head_rev=comparison.head,
        base_label=comparison.base_label,
        head_label=comparison.head_label,
        cost=sum(len(t) for t in row["base_texts"]) + sum(len(t) for t in row["head_texts"]),
    )
    return row


Texts = dict[str, bytes]
"""Spec texts by digest. Rows name their texts by digest and the texts travel once, in
the task closure (PySpark broadcasts a large closure): the pairs of a transitive audit
repeat the same few thousand files hundreds of times, which would not fit in memory."""


def text_digest(text: bytes) -> str:
    import hashlib

    return hashlib.blake2b(text, digest_size=16).hexdigest()


def split_texts(row: dict[str, Any], texts: Texts) -> dict[str, Any]:
    """``row`` with its texts replaced by digests; the texts are added to ``texts``."""
    out = {k: v for k, v in row.items() if k not in ("base_texts", "head_texts")}
    for side in ("base", "head"):
        digests = []
        for text in row[f"{side}_texts"]:
            digest = text_digest(bytes(text))
            texts.setdefault(digest, bytes(text))
            digests.append(digest)
        out[f"{side}_digests"] = digests
    return out


def join_texts(row: dict[str, Any], texts: Texts) -> dict[str, Any]:
    """The inverse of :func:`split_texts`: the row :meth:`PreparedPair.from_row` reads."""
    out = {k: v for k, v in row.items() if k not in ("base_digests", "head_digests")}
    for side in ("base", "head"):
        out[f"{side}_texts"] = [texts[d] for d in row[f"{side}_digests"]]
    return out


def pair_of(row: dict[str, Any]) -> Pair:
    """The pair a prepared row compares (what its findings are about)."""
    return Pair(
        int(row["pair_index"]),
        row["base_rev"],
        row["head_rev"],
        row["base_label"],
        row["head_label"],
    )


def finding_rows(row: dict[str, Any], options: CheckOptions) -> list[AuditRow[Pair]]:
    """Check one prepared pair; a crash becomes an ``internal-error`` row, the audit goes on."""
    try:
        findings = list(check(PreparedPair.from_row(row), options).findings)
    except Exception as err:  # a kcompat bug on one pair must not lose the other pairs
        findings = [
            Finding(
                "internal-error",
                Severity.ERROR,
                f"kcompat failed on this pair: {type(err).__name__}: {err}",
                Location(row["head_label"]),
            )
        ]
    pair = pair_of(row)
    return [AuditRow(FindingRow.of(finding), pair) for finding in findings]


def check_slots(
    options: CheckOptions,
    slots: Sequence[Sequence[dict[str, Any]]],
    texts: Texts,
    sharers: dict[int, list[Pair]],
) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """The ``mapInArrow`` function: slot numbers in, batches of findings out.

    The rows of every slot travel in the closure with the texts, so a task reads its
    slot number and checks that slot's pairs; each check's findings are given to every
    pair in ``sharers`` (the pairs that prepared alike, :func:`distinct_checks`).
    """

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        from kcompat.spec.specfile import enable_parse_cache

        enable_parse_cache()  # Python workers are reused: texts seen by earlier tasks parse once
        for batch in batches:
            for slot in batch.column(0).to_pylist():
                out: list[AuditRow[Pair]] = []
                for row in slots[int(slot)]:
                    found = finding_rows(join_texts(row, texts), options)
                    for pair in sharers.get(int(row["pair_index"]), [pair_of(row)]):
                        out.extend(AuditRow(f.finding, pair) for f in found)
                    if len(out) >= OUTPUT_BATCH:
                        yield TABLE.batch(out)
                        out = []
                if out:
                    yield TABLE.batch(out)

    return run


def warm_up(spark: Any) -> None:
    """Start one Python worker per core, with kcompat imported, before the checks need
    them: the first Python task of a session waits for the worker daemon and the JVM's
    first job; done while the driver still prepares, that wait costs nothing."""
    count = parallelism(spark)
    spark.range(count, numPartitions=count).mapInArrow(_warm, "ready long").collect()


def _warm(batches: Iterator[Any]) -> Iterator[Any]:
    import pyarrow as pa

    import kcompat.diff.check
    import kcompat.rules.evolution.proof  # noqa: F401
    from kcompat.rules.registry import all_rules
    from kcompat.spec.specfile import enable_parse_cache

    enable_parse_cache()
    all_rules()
    for batch in batches:
        yield pa.RecordBatch.from_pydict({"ready": [1] * batch.num_rows})


def arrow_table(rows: Sequence[dict[str, Any]], schema: str) -> Any:
    """``rows`` as a pyarrow Table with the types of a DDL schema (ints, strings, arrays)."""
    import pyarrow as pa

    return pa.Table.from_pylist(list(rows), schema=arrow_schema(schema))


def arrow_findings_schema() -> Any:
    return TABLE.arrow_schema()


#: What a check reads of a row: two rows that agree on these have the same findings.
CHECKED = (
    "base_paths",
    "base_digests",
    "head_paths",
    "head_digests",
    "released",
    "ledger",
    "compared",
)
#: Findings per Arrow batch a task yields (a transitive audit's pairs share checks, so a
#: slot can give tens of thousands).
OUTPUT_BATCH = 8192


def distinct_checks(rows: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[int, int]]:
    """One row per distinct check, and pair index -> the index of the row checked for it.

    :func:`~kcompat.diff.check.check` reads texts, paths and policies, never the
    revisions' names, so pairs that prepare alike have the same findings. In a transitive
    audit most do: a patch release that changed no spec repeats every pair of its
    predecessor (on Kafka's 43 releases, 903 pairs are 317 distinct checks).
    """
    chosen: dict[tuple[Any, ...], dict[str, Any]] = {}
    checked_as: dict[int, int] = {}
    for row in rows:
        key = tuple(tuple(row[k]) if isinstance(row[k], list | tuple) else row[k] for k in CHECKED)
        first = chosen.setdefault(key, row)
        checked_as[int(row["pair_index"])] = int(first["pair_index"])
    return list(chosen.values()), checked_as


def contiguous_slots(rows: Sequence[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """``rows`` (in audit order) cut into ``count`` runs of about equal cost, as ``slot``.

    Neighbouring comparisons share most of their files, and a Python worker parses each
    text once (:func:`kcompat.spec.specfile.enable_parse_cache`): runs of neighbours cost about 15%
    less CPU than dealing pairs round-robin, where every worker parses nearly every file.
    Twice as many runs as cores lets the scheduler even out what the cost (the texts'
    size) mispredicts.
    """
    total = sum(int(r["cost"]) for r in rows) or 1
    slot, spent, out = 0, 0, []
    for index, row in enumerate(rows):
        out.append(dict(row, slot=slot))
        spent += int(row["cost"])
        rows_left, slots_left = len(rows) - index - 1, count - slot - 1
        if slots_left > 0 and (spent >= total * (slot + 1) / count or rows_left <= slots_left):
            slot += 1
    return out


def run_checks(
    spark: Any,
    rows: Sequence[dict[str, Any]],
    options: CheckOptions,
    partitions: int | None = None,
    texts: Texts | None = None,
) -> Any:
    """A DataFrame of findings for prepared pair rows (lazy until an action runs).

    Rows come with their texts (as :func:`pair_row` makes them), or split by
    :func:`split_texts` with the ``texts`` they refer to. Each distinct check runs once
    (:func:`distinct_checks`); its findings are then given to every pair that shares it.

    The plan is one stage: ``spark.range(n, numPartitions=n)`` makes one task per slot
    of :func:`contiguous_slots`, and the slots' rows travel with the texts in the task
    closure (PySpark broadcasts a large one). A DataFrame of the rows, repartitioned by
    slot, cost a conversion, a shuffle and three sampling jobs for the range partitioner,
    and its sampled bounds could put two slots in one partition and leave another empty.
    """
    if texts is None:
        texts = {}
        rows = [split_texts(r, texts) if "base_texts" in r else r for r in rows]
    unique, checked_as = distinct_checks(rows)
    count = max(1, min(len(unique), partitions or parallelism(spark) * 2))
    slots: list[list[dict[str, Any]]] = [[] for _ in range(count)]
    for row in contiguous_slots(sorted(unique, key=lambda r: int(r["pair_index"])), count):
        slots[row.pop("slot")].append(row)
    sharers: dict[int, list[Pair]] = {}
    if len(unique) != len(rows):
        for row in rows:
            sharers.setdefault(checked_as[int(row["pair_index"])], []).append(pair_of(row))
    slot_numbers = spark.range(count, numPartitions=count)
    return slot_numbers.mapInArrow(check_slots(options, slots, texts, sharers), FINDING_SCHEMA)
