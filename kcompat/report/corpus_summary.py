"""What ``kcompat corpus verify`` prints: the findings report (one finding per group of
samples, with its counterexample and count) and the summary tables."""

from __future__ import annotations

import json
from typing import Any

from kcompat.report.columns import FINDING_COLUMNS

#: The finding's own columns a group carries as they are (not the JSON-text ones).
FLAT_COLUMNS = tuple(c.name for c in FINDING_COLUMNS if not c.structured)


def corpus_json(result: Any) -> str:
    """The standard findings report (one finding per group, with its counterexample and
    count), with the corpus summary under ``"corpus"``."""
    from kcompat.escaping import json_safe
    from kcompat.report.json_report import envelope

    counts = {s: 0 for s in ("error", "warning", "info")}
    findings = []
    for group in result.groups:
        counts[group["severity"]] += group["count"]
        finding = {name: group.get(name) for name in FLAT_COLUMNS}
        finding["evidence"] = json.loads(group["evidence"]) if group["evidence"] else None
        finding["count"] = group["count"]
        findings.append(finding)
    document = {
        **envelope("corpus-verify"),
        "base": result.summary["corpus"]["revision_label"],
        "head": result.summary["reader"],
        "findings": findings,
        "summary": {"files": result.summary["messages"], **counts},
        "corpus": result.summary,
    }
    return json_safe(json.dumps(document, indent=2, ensure_ascii=False))


def render_summary(
    result: Any, console: Any, *, markdown: bool = False, chosen: bool = True
) -> None:
    from kcompat.escaping import shown, shown_block
    from kcompat.report.markdown import escape, fenced
    from kcompat.report.tables import Table, per_rule_table, written_to

    summary = result.summary
    head = (
        f"{summary['rows']} samples of {summary['messages']} messages from "
        f"{summary['corpus']['revision_label']} read with {summary['reader']}: "
        f"{summary['mismatches']} mismatches, {summary['findings']} findings in "
        f"{result.seconds:.1f} s; " + written_to(result.out, chosen)
    )
    tables: list[Table] = [
        per_rule_table(summary),
        (
            "Mismatches per message",
            ["message", "samples", "mismatches", "versions"],
            [
                [m["message"], str(m["samples"]), str(m["mismatches"]), m["versions"]]
                for m in summary["per_message"][:40]
            ],
        ),
        (
            "Findings",
            ["severity", "rule", "message", "version", "field", "count"],
            [
                [
                    g["severity"],
                    g["rule"],
                    g["message_name"] or "",
                    "" if g["version"] is None else str(g["version"]),
                    g["field_path"] or "",
                    str(g["count"]),
                ]
                for g in result.groups[:60]
            ],
        ),
    ]
    examples = [g for g in result.groups if g["evidence"]][:5]
    from kcompat.report.tables import markdown_tables, print_tables

    if markdown:
        lines = markdown_tables("kcompat corpus verify", head, tables)
        for group in examples:
            dump = fenced([shown(line) for line in _dump(group)])
            lines += [f"#### {escape(group['message'])}", "", *dump, ""]
        console.print("\n".join(lines), markup=False, highlight=False)
        return
    print_tables(console, head, tables)
    for group in examples:
        where = shown(f"{group['file']}:{group['line']}: {group['message']}")
        console.print(f"\n{where}", markup=False)
        console.print(shown_block("\n".join(f"  {line}" for line in _dump(group))), markup=False)


def _dump(group: dict[str, Any]) -> list[str]:
    evidence = json.loads(group["evidence"])
    return [f"hex {evidence['hex'][:96]}", *evidence["annotated"][:22]]
