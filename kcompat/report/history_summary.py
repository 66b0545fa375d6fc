"""The summary ``kcompat history`` shows: counts per rule and message, what introduced
each error, per release, and the breaks (tables; JSON: the summary itself)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kcompat.modes import HistoryMode
from kcompat.report.tables import TableDocument

if TYPE_CHECKING:
    from pathlib import Path

    from kcompat.report.audit_summary import HistorySummary

#: rows of the "introduced" table shown (summary.json has them all)
_INTRODUCED_ROWS = 40


def history_document(
    summary: HistorySummary, out: Path | str, seconds: float, *, chosen: bool = True
) -> TableDocument:
    from kcompat.report.tables import Table, per_rule_table, written_to

    head = (
        f"{summary.comparisons} comparisons ({summary.mode}), released versions from "
        f"{summary.released}: {summary.findings} findings in {seconds:.1f} s; "
        + written_to(out, chosen)
    )
    tables: list[Table] = [
        per_rule_table(summary.per_rule),
        (
            "Errors per message",
            ["message", "errors"],
            [[m.message, str(m.errors)] for m in summary.per_message[:25]],
        ),
    ]
    introduced = summary.introduced or ()
    if introduced:
        commits = summary.mode == HistoryMode.CONSECUTIVE
        more = len(introduced) - _INTRODUCED_ROWS
        tail = f" (first {_INTRODUCED_ROWS} of {len(introduced)}: all in summary.json)"
        tables.append(
            (
                "Errors and the "
                + ("commit" if commits else "release")
                + " that introduced each"
                + (tail if more > 0 else ""),
                [
                    *(["commit", "subject"] if commits else ["release", "against"]),
                    "rule",
                    "message",
                    "field",
                ],
                [
                    [
                        e.introduced_in,
                        (e.subject or "") if commits else e.against,
                        e.rule,
                        e.message,
                        e.field_path,
                    ]
                    for e in introduced[:_INTRODUCED_ROWS]
                ],
            )
        )
    if summary.per_release:
        tables.append(
            (
                "Per release",
                ["release", "against", "errors", "warnings", "infos"],
                [
                    [r.release, r.base, str(r.error), str(r.warning), str(r.info)]
                    for r in summary.per_release
                ],
            )
        )
    if summary.breaks:
        tables.append(
            (
                "Breaks: first release and every pair affected",
                ["first release", "rule", "message", "field", "pairs"],
                [
                    [
                        b.first_release,
                        b.rule,
                        b.message,
                        b.field_path,
                        f"{len(b.pairs)}: "
                        + ", ".join(b.pairs[:4])
                        + (" ..." if len(b.pairs) > 4 else ""),
                    ]
                    for b in summary.breaks
                ],
            )
        )
    return TableDocument(
        {**summary.to_json(), "out": str(out)},
        head,
        tuple(tables),
        title="kcompat history",
        ascii_json=True,
    )
