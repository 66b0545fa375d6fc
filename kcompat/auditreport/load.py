"""Reading an audit directory: ``summary.json`` and the ``findings/`` Parquet dataset.

Only pyarrow is needed (no Spark, no JVM): a report can be made on any machine the audit
directory was copied to. Everything that can be wrong with the directory is one line.
Which job wrote it, and what its rows are, is the job kind's to say
(:mod:`kcompat.auditreport.kinds`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kcompat.errors import UsageError
from kcompat.escaping import shown


def check_directory(directory: Path) -> None:
    """A local directory that exists, or one line saying what it is instead."""
    text = str(directory)
    if "://" in text:
        raise UsageError(
            f"{text}: kcompat report reads local directories; copy the audit here first "
            "(e.g. hdfs dfs -get)"
        )
    if not directory.exists():
        raise UsageError(f"{directory}: no such audit directory")
    if not directory.is_dir():
        raise UsageError(f"{directory}: not a directory; give the --out of kcompat history")


def shown_value(value: object) -> str:
    """A value from the audit in one line, escaped and short."""
    return shown(str(value))[:80]


def read_summary(directory: Path, makers: str) -> dict[str, Any]:
    """The audit's ``summary.json`` as a JSON object (``makers``: the commands that write
    one, for the line that says there is none)."""
    path = directory / "summary.json"
    if path.is_dir():  # over Spark Connect, a one-file text dataset of that name
        parts = sorted(p for p in path.iterdir() if p.name.startswith("part-"))
        path = parts[0] if parts else path / "part-00000"
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(
            f"{directory}: not a kcompat audit (no summary.json); make one with {makers}"
        ) from None
    except (OSError, UnicodeDecodeError) as err:
        raise UsageError(f"{path}: unreadable ({_reason(err)})") from None
    try:
        summary = json.loads(raw)
    except ValueError as err:
        raise UsageError(f"{path}: not JSON ({err}); rerun the audit") from None
    if not isinstance(summary, dict):
        raise UsageError(f"{path}: not an audit summary (a JSON object); rerun the audit")
    return summary


def read_records(
    location: Path, required: frozenset[str] = frozenset(), noun: str = "findings"
) -> list[dict[str, Any]]:
    """Every record of an audit's dataset (its kind's table types them), which must have
    the ``required`` columns of kcompat's ``noun``."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        from kcompat.provenance import installed

        raise UsageError(
            f"pyarrow is not installed: {installed().install_line('report')} to read audits"
        ) from None
    if not location.is_dir():
        raise UsageError(f"{location}: missing; the audit is incomplete, rerun it")
    try:
        table = pq.read_table(location)
    except Exception as err:  # pyarrow's ArrowInvalid, OSError, ...: a damaged dataset
        raise UsageError(
            f"{location}: unreadable Parquet ({_reason(err)}); rerun the audit"
        ) from None
    missing = required - set(table.schema.names)
    if missing:
        raise UsageError(f"{location}: not kcompat {noun} (no column {', '.join(sorted(missing))})")
    rows: list[dict[str, Any]] = table.to_pylist()
    return rows


def _reason(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0] if text else type(err).__name__
