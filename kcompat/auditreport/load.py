"""Reading an audit directory: ``summary.json`` and the ``findings/`` Parquet dataset.

Only pyarrow is needed (no Spark, no JVM): a report can be made on any machine the audit
directory was copied to. Everything that can be wrong with the directory is one line.
Which job wrote it, and what its rows are, is the job kind's to say
(:mod:`kcompat.auditreport.kinds`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from kcompat.errors import UsageError
from kcompat.escaping import shown

#: A summary.json larger than this is no summary kcompat wrote (it is read whole).
MAX_SUMMARY_BYTES = 256 * 1024 * 1024
_SURROGATE = re.compile("[\ud800-\udfff]")


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
    from kcompat.bounded import read_capped

    try:
        got = read_capped(path, MAX_SUMMARY_BYTES)
        raw = got.data.decode("utf-8")
    except FileNotFoundError:
        raise UsageError(
            f"{directory}: not a kcompat audit (no summary.json); make one with {makers}"
        ) from None
    except (OSError, UnicodeDecodeError) as err:
        raise UsageError(f"{path}: unreadable ({_reason(err)})") from None
    if got.over:
        raise UsageError(
            f"{path}: over {MAX_SUMMARY_BYTES // 1024**2} MiB, no summary kcompat writes; "
            "rerun the audit"
        )
    try:
        summary = parse_json(raw)
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
    try:
        rows: list[dict[str, Any]] = table.to_pylist()
    except UnicodeDecodeError as err:
        raise UsageError(
            f"{location}: a row's text is not UTF-8 ({_reason(err)}); rerun the audit"
        ) from None
    return [escaped(row) for row in rows]


def parse_json(text: str) -> Any:
    """``text`` read as JSON, every lone surrogate in its strings (``"\\ud800"``, which
    JSON allows and UTF-8 cannot carry) written out as its escape, so a page shows it;
    a ``ValueError`` for what is not JSON, nesting too deep included."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError("nested too deep") from None
    return escaped(value)


def escaped(value: Any) -> Any:
    """A JSON value with every lone surrogate of its strings (keys too) escaped
    (iteratively: a value nests as deep as JSON allowed it)."""
    if isinstance(value, str):
        return _escaped_text(value)
    if not isinstance(value, dict | list):
        return value
    root: list[Any] = [value]
    stack: list[tuple[Any, Any, Any]] = [(root, 0, value)]
    while stack:
        holder, key, item = stack.pop()
        if isinstance(item, str):
            holder[key] = _escaped_text(item)
        elif isinstance(item, list):
            copy = list(item)
            holder[key] = copy
            stack.extend((copy, index, child) for index, child in enumerate(copy))
        elif isinstance(item, dict):
            copy_map = {_escaped_text(k): v for k, v in item.items()}
            holder[key] = copy_map
            stack.extend((copy_map, k, child) for k, child in copy_map.items())
    return root[0]


def _escaped_text(text: str) -> str:
    if not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _reason(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0] if text else type(err).__name__
