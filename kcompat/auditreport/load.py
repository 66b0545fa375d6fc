"""Reading an audit directory: ``summary.json`` and the ``findings/`` Parquet dataset.

Only pyarrow is needed (no Spark, no JVM): a report can be made on any machine the audit
directory was copied to. Everything that can be wrong with the directory is one line.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kcompat.errors import UsageError
from kcompat.escaping import shown
from kcompat.modes import HistoryMode
from kcompat.report.audit_summary import CorpusSummary, HistorySummary
from kcompat.report.strands_summary import StrandsSummary, is_strands

#: More pairs than any history (a million commits) means a damaged summary.
MAX_PAIRS = 1_000_000
#: A summary.json larger than this is no summary kcompat wrote (it is read whole).
MAX_SUMMARY_BYTES = 256 * 1024 * 1024
_SURROGATE = re.compile("[\ud800-\udfff]")
HISTORY = "history"
CORPUS = "corpus"
STRANDS = "strands"


@dataclass(frozen=True)
class AuditData:
    """An audit as written: which command made it, its summary, and every finding."""

    kind: str  # HISTORY, CORPUS or STRANDS
    summary: HistorySummary | CorpusSummary | StrandsSummary
    findings: tuple[dict[str, Any], ...]  # strands: the pairs with APIs stranded
    source: str  # where it was read from, for the page's heading


def kind_of(summary: dict[str, Any]) -> str | None:
    """``history``, ``corpus`` (verify) or ``strands``, from the summary's own
    keys; None if none."""
    if is_strands(summary):
        return STRANDS
    if "corpus" in summary and "reader" in summary:
        return CORPUS
    mode = summary.get("mode")
    if isinstance(mode, str) and mode in set(HistoryMode):
        return HISTORY
    return None


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


def load_audit(directory: Path) -> AuditData:
    """The audit in ``directory`` (local), or a :class:`UsageError` saying what is wrong."""
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
    summary = _summary(directory)
    kind = kind_of(summary)
    if kind is None:
        raise UsageError(
            f"{directory / 'summary.json'}: not the summary of kcompat history, corpus "
            "verify or strands"
        )
    if kind == STRANDS:
        return _strands(directory, summary)
    findings = tuple(read_findings(directory / "findings"))
    if kind == HISTORY:
        _check_pairs(directory, summary, findings)
        return AuditData(kind, HistorySummary.from_json(summary), findings, str(directory))
    return AuditData(kind, CorpusSummary.from_json(summary), findings, str(directory))


def _check_pairs(
    directory: Path, summary: dict[str, Any], findings: tuple[dict[str, Any], ...]
) -> None:
    """Every finding of a history audit names a pair the summary has: the page lists the
    compared pairs by index, so an index outside them is an inconsistent audit."""
    where = directory / "summary.json"
    listed, comparisons = summary.get("pairs"), summary.get("comparisons")
    if listed is not None:
        if not isinstance(listed, list) or not all(_is_pair(p) for p in listed):
            raise UsageError(f"{where}: 'pairs' is not a list of [base, head] labels; rerun it")
        count = len(listed)
    elif isinstance(comparisons, int) and not isinstance(comparisons, bool):
        if not 0 <= comparisons <= MAX_PAIRS:  # the page lists every pair: keep it bounded
            raise UsageError(f"{where}: {comparisons} comparisons is no real audit; rerun it")
        count = comparisons  # a summary written before the pairs were listed
    else:
        raise UsageError(f"{where}: no 'pairs' (nor a count of 'comparisons'); rerun the audit")
    has = f"{count} pairs (0 to {count - 1})" if count else "no pairs"
    for row, finding in enumerate(findings, 1):
        index = finding.get("pair_index")
        if not isinstance(index, int) or not 0 <= index < count:
            raise UsageError(
                f"{directory / 'findings'}: finding {row} ({_shown(finding.get('rule'))}) "
                f"names pair {_shown(index)}, but {where.name} has {has}; the audit is "
                "inconsistent, rerun it"
            )


def _strands(directory: Path, data: dict[str, Any]) -> AuditData:
    """A ``strands`` run: its summary, and the pairs of its ``strandings`` Parquet
    that strand an API (each must name a commit and a client release the summary has)."""
    where = directory / "summary.json"
    try:
        summary = StrandsSummary.from_json(data)
    except (ValueError, TypeError, KeyError) as err:
        raise UsageError(f"{where}: not a strands summary ({_shown(err)}); rerun it") from None
    location = directory / "strandings"
    table = _parquet(location, {"commit_index", "client", "stranded", "count"})
    rows = [row for row in _rows(table, location) if row["count"]]
    clients = set(summary.clients)
    for row in rows:
        index = row["commit_index"]
        if not isinstance(index, int) or not 0 <= index < len(summary.commits):
            raise UsageError(
                f"{location}: a row names commit {_shown(index)}, but {where.name} has "
                f"{len(summary.commits)}; the run is inconsistent, rerun it"
            )
        if row["client"] not in clients:
            raise UsageError(
                f"{location}: a row names client release {_shown(row['client'])}, which "
                f"{where.name} does not list; the run is inconsistent, rerun it"
            )
    return AuditData(STRANDS, summary, tuple(rows), str(directory))


def _parquet(location: Path, columns: set[str]) -> Any:
    """A Parquet dataset with (at least) ``columns``, or one line saying what is wrong."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise UsageError(
            "pyarrow is not installed: pip install 'kcompat[report]' to read audits"
        ) from None
    if not location.is_dir():
        raise UsageError(f"{location}: missing; the run is incomplete, rerun it")
    try:
        table = pq.read_table(location)
    except Exception as err:  # pyarrow's ArrowInvalid, OSError, ...: a damaged dataset
        raise UsageError(f"{location}: unreadable Parquet ({_reason(err)}); rerun it") from None
    missing = columns - set(table.schema.names)
    if missing:
        raise UsageError(f"{location}: no column {', '.join(sorted(missing))}; rerun it")
    return table


def _is_pair(value: object) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)


def _shown(value: object) -> str:
    """A value from the audit in one line, escaped and short."""
    return shown(str(value))[:80]


def _summary(directory: Path) -> dict[str, Any]:
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
            f"{directory}: not a kcompat audit (no summary.json); make one with "
            "kcompat history --out DIR or kcompat corpus verify --out DIR"
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


def read_findings(location: Path) -> list[dict[str, Any]]:
    """Every row of the findings dataset, as dicts."""
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
    missing = {"rule", "severity", "message"} - set(table.schema.names)
    if missing:
        raise UsageError(
            f"{location}: not kcompat findings (no column {', '.join(sorted(missing))})"
        )
    return _rows(table, location)


def _rows(table: Any, location: Path) -> list[dict[str, Any]]:
    """A Parquet table's rows as dicts, lone surrogates escaped; one line when its text is
    not UTF-8."""
    try:
        rows: list[dict[str, Any]] = table.to_pylist()
    except UnicodeDecodeError as err:
        raise UsageError(
            f"{location}: a row's text is not UTF-8 ({_reason(err)}); rerun the audit"
        ) from None
    return [escaped(row) for row in rows]


def _reason(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0] if text else type(err).__name__
