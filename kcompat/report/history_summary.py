"""The summary ``kcompat history`` prints: counts per rule and message, what introduced
each error, per release, and the breaks (rich tables on a terminal, else Markdown or text)."""

from __future__ import annotations

from typing import Any

from kcompat.modes import HistoryMode

#: rows of the "introduced" table shown (summary.json has them all)
_INTRODUCED_ROWS = 40


def render_summary(
    result: Any, console: Any, *, markdown: bool = False, chosen: bool = True
) -> None:
    from kcompat.report.tables import Table, per_rule_table, written_to

    summary = result.summary
    head = (
        f"{summary['comparisons']} comparisons ({summary['mode']}), released versions from "
        f"{summary['released']}: {summary['findings']} findings in {result.seconds:.1f} s; "
        + written_to(result.out, chosen)
    )
    tables: list[Table] = [
        per_rule_table(summary),
        (
            "Errors per message",
            ["message", "errors"],
            [[m["message"], str(m["errors"])] for m in summary["per_message"][:25]],
        ),
    ]
    introduced = summary.get("introduced") or []
    if introduced:
        commits = summary["mode"] == HistoryMode.CONSECUTIVE
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
                        e["introduced_in"],
                        e.get("subject", "") if commits else e["against"],
                        e["rule"],
                        e["message"],
                        e["field_path"],
                    ]
                    for e in introduced[:_INTRODUCED_ROWS]
                ],
            )
        )
    if summary.get("per_release"):
        tables.append(
            (
                "Per release",
                ["release", "against", "errors", "warnings", "infos"],
                [
                    [r["release"], r["base"], str(r["error"]), str(r["warning"]), str(r["info"])]
                    for r in summary["per_release"]
                ],
            )
        )
    if summary.get("breaks"):
        tables.append(
            (
                "Breaks: first release and every pair affected",
                ["first release", "rule", "message", "field", "pairs"],
                [
                    [
                        b["first_release"],
                        b["rule"],
                        b["message"],
                        b["field_path"],
                        f"{len(b['pairs'])}: "
                        + ", ".join(b["pairs"][:4])
                        + (" ..." if len(b["pairs"]) > 4 else ""),
                    ]
                    for b in summary["breaks"]
                ],
            )
        )
    from kcompat.report.tables import markdown_tables, print_tables

    if markdown:
        lines = markdown_tables("kcompat history", head, tables)
        console.print("\n".join(lines), markup=False, highlight=False)
        return
    print_tables(console, head, tables)
