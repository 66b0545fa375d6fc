"""``kcompat history``: diff many revision pairs on Spark.

The driver enumerates the comparisons and prepares each one from git
(:func:`kcompat.diff.prepared.prepare_pair`: the changed spec texts, the released-version
policy, the tag ledger), so the texts travel in the DataFrame and executors need no
checkout. Executors run :func:`kcompat.diff.prepared.check_pair` (rules and the
round-trip proof) inside ``mapInArrow``, which also works over Spark Connect. Findings
are written as Parquet; the driver prints a summary per rule, per message and per release.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from kcompat.config import Config
from kcompat.diff.prepared import PreparedPair, check_pair
from kcompat.pipeline.revisions import Comparison
from kcompat.report.json_report import finding_dict
from kcompat.rules.engine import Finding, Location, Severity

PAIR_SCHEMA = (
    "pair_index int, base_rev string, head_rev string, base_label string, head_label string, "
    "base_paths array<string>, base_texts array<binary>, head_paths array<string>, "
    "head_texts array<binary>, released string, ledger string, compared int, cost long"
)
FINDING_SCHEMA = (
    "pair_index int, base_rev string, head_rev string, base_label string, head_label string, "
    "rule string, severity string, message string, hint string, file string, line int, "
    "`column` int, base_file string, base_line int, message_name string, field_path string, "
    "versions string, fingerprint string, released_by string, evidence string"
)


@dataclass(frozen=True)
class CheckOptions:
    """What executors need besides the rows (pickled into the task closure)."""

    config: Config = field(default_factory=Config)
    proof: bool = True
    samples: int = 20


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


def finding_rows(row: dict[str, Any], options: CheckOptions) -> list[dict[str, Any]]:
    """Check one prepared pair; a crash becomes an ``internal-error`` row, the audit goes on."""
    try:
        findings = check_pair(
            PreparedPair.from_row(row),
            config=options.config,
            proof=options.proof,
            samples=options.samples,
        )
    except Exception as err:  # a kcompat bug on one pair must not lose the other pairs
        findings = [
            Finding(
                "internal-error",
                Severity.ERROR,
                f"kcompat failed on this pair: {type(err).__name__}: {err}",
                Location(row["head_label"]),
            )
        ]
    out = []
    for finding in findings:
        data = finding_dict(finding)
        out.append(
            {
                "pair_index": row["pair_index"],
                "base_rev": row["base_rev"],
                "head_rev": row["head_rev"],
                "base_label": row["base_label"],
                "head_label": row["head_label"],
                "rule": data["rule"],
                "severity": data["severity"],
                "message": data["message"],
                "hint": data["hint"],
                "file": data["file"],
                "line": data["line"],
                "column": data["column"],
                "base_file": data["base_file"],
                "base_line": data["base_line"],
                "message_name": data["message_name"],
                "field_path": data["field_path"],
                "versions": data["versions"],
                "fingerprint": data["fingerprint"],
                "released_by": data["released_by"],
                "evidence": json.dumps(data["evidence"]) if data["evidence"] is not None else None,
            }
        )
    return out


def check_batches(options: CheckOptions) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """The ``mapInArrow`` function: Arrow batches of pairs in, batches of findings out."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        schema = _arrow_findings_schema()
        for batch in batches:
            rows: list[dict[str, Any]] = []
            for row in batch.to_pylist():
                rows.extend(finding_rows(row, options))
            yield pa.RecordBatch.from_pylist(rows, schema=schema)

    return run


def _arrow_findings_schema() -> Any:
    import pyarrow as pa

    text = pa.string()
    number = pa.int32()
    return pa.schema(
        [
            ("pair_index", number),
            ("base_rev", text),
            ("head_rev", text),
            ("base_label", text),
            ("head_label", text),
            ("rule", text),
            ("severity", text),
            ("message", text),
            ("hint", text),
            ("file", text),
            ("line", number),
            ("column", number),
            ("base_file", text),
            ("base_line", number),
            ("message_name", text),
            ("field_path", text),
            ("versions", text),
            ("fingerprint", text),
            ("released_by", text),
            ("evidence", text),
        ]
    )


def run_checks(
    spark: Any, rows: Sequence[dict[str, Any]], options: CheckOptions, partitions: int | None = None
) -> Any:
    """A DataFrame of findings for prepared pair rows (lazy until an action runs)."""
    # Spread the expensive pairs: sort by cost and deal them round-robin to partitions.
    count = max(1, min(len(rows), partitions or spark.sparkContext.defaultParallelism * 2))
    ordered = sorted(rows, key=lambda r: -int(r["cost"]))
    dealt = [dict(r, slot=i % count) for i, r in enumerate(ordered)]
    frame = spark.createDataFrame(dealt, schema=PAIR_SCHEMA + ", slot int")
    frame = frame.repartitionByRange(count, "slot").drop("slot")
    return frame.mapInArrow(check_batches(options), FINDING_SCHEMA)
