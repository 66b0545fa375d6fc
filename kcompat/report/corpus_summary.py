"""What ``kcompat corpus verify`` shows: the summary tables, and in JSON the findings
report (one finding per group of samples, with its counterexample and count)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from kcompat.report.columns import FINDING_COLUMNS, AuditRow, FindingRow, Sample
from kcompat.report.tables import TableDocument

#: The finding's own columns a group carries as they are (not the JSON-text ones).
FLAT_COLUMNS = tuple(c.name for c in FINDING_COLUMNS if not c.structured)


@dataclass(frozen=True)
class SampleGroup:
    """Findings alike (rule, severity, message, version, field): how many, and the one
    with the lowest sample id (its counterexample stands for the group)."""

    row: AuditRow[Sample]
    count: int


def corpus_data(result: Any) -> dict[str, Any]:
    """The standard findings report (one finding per group, with its counterexample and
    count), with the corpus summary under ``"corpus"``."""
    from kcompat.report.json_report import envelope

    counts = {s: 0 for s in ("error", "warning", "info")}
    findings = []
    for group in result.groups:
        row = group.row.finding
        counts[row.severity] += group.count
        values = row.values()
        finding = {name: values[name] for name in FLAT_COLUMNS}
        finding["evidence"] = json.loads(row.evidence) if row.evidence else None
        finding["count"] = group.count
        findings.append(finding)
    document = {
        **envelope("corpus-verify"),
        "base": result.summary.corpus.revision_label,
        "head": result.summary.reader,
        "findings": findings,
        "summary": {"files": result.summary.messages, **counts},
        "corpus": result.summary.to_json(),
    }
    return document


def corpus_document(result: Any, *, chosen: bool = True) -> TableDocument:
    """The summary tables and the first counterexamples (JSON: :func:`corpus_data`)."""
    from kcompat.report.tables import Note, per_rule_table, written_to

    summary = result.summary
    head = (
        f"{summary.rows} samples of {summary.messages} messages from "
        f"{summary.corpus.revision_label} read with {summary.reader}: "
        f"{summary.mismatches} mismatches, {summary.findings} findings in "
        f"{result.seconds:.1f} s; " + written_to(result.out, chosen)
    )
    tables = (
        per_rule_table(summary.per_rule),
        (
            "Mismatches per message",
            ["message", "samples", "mismatches", "versions"],
            [
                [m.message, str(m.samples), str(m.mismatches), m.versions]
                for m in summary.per_message[:40]
            ],
        ),
        (
            "Findings",
            ["severity", "rule", "message", "version", "field", "count"],
            [
                [
                    g.row.finding.severity,
                    g.row.finding.rule,
                    g.row.finding.message_name or "",
                    "" if g.row.about.version is None else str(g.row.about.version),
                    g.row.finding.field_path or "",
                    str(g.count),
                ]
                for g in result.groups[:60]
            ],
        ),
    )
    shown = [g.row.finding for g in result.groups if g.row.finding.evidence][:5]
    notes = tuple(Note(f"{f.file}:{f.line}", f.message, tuple(_dump(f))) for f in shown)
    return TableDocument(corpus_data(result), head, tables, notes, title="kcompat corpus verify")


def _dump(finding: FindingRow) -> list[str]:
    evidence = json.loads(finding.evidence or "{}")
    return [f"hex {evidence['hex'][:96]}", *evidence["annotated"][:22]]
