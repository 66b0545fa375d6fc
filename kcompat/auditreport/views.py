"""What the report shows, whatever job wrote the audit (pure values, no I/O).

Each job kind computes its :class:`View` from its summary and findings (its module:
:mod:`.history`, :mod:`.corpus`); the page (:mod:`.page`) and the plot (:mod:`.plot`)
draw any view. Findings repeat (in a transitive audit of 43 releases one break is found
again in every release pair that spans it: 147,344 findings are 2,039 distinct ones), so
a view lists each distinct finding once, as a :class:`Group` with the steps it occurs in;
the timeline and the per-message table are counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kcompat.auditreport.load import parse_json
from kcompat.report.columns import FindingRow

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class Series:
    """How many findings of one rule and severity fall on each point of the timeline."""

    severity: str
    rule: str
    counts: tuple[int, ...]


@dataclass(frozen=True)
class Timeline:
    labels: tuple[str, ...]  # the x axis: commits, releases, or messages
    axis: str  # what a label is: "commit", "release" or "message"
    caption: str
    series: tuple[Series, ...]


@dataclass(frozen=True)
class Break:
    """One error of a message (rule and field) and where it starts."""

    rule: str
    field_path: str
    first: str  # the first release (or commit) that has it
    pairs: int  # how many compared pairs have it


@dataclass(frozen=True)
class MessageRow:
    name: str
    errors: int
    warnings: int
    broken_by: tuple[str, ...]  # releases (or commits) that broke it, in audit order
    breaks: tuple[Break, ...]


@dataclass(frozen=True)
class Group:
    """One distinct finding and every step (compared pair) it occurs in."""

    severity: str
    rule: str
    message_name: str
    field_path: str
    text: str
    hint: str
    where: str  # file:line
    versions: str
    steps: tuple[int, ...]  # indexes into View.steps
    count: int  # findings it stands for
    evidence: dict[str, Any] | None


@dataclass(frozen=True)
class View:
    kind: str
    title: str
    facts: tuple[tuple[str, str], ...]  # (label, value) lines under the title
    steps: tuple[str, ...]  # "BASE..HEAD" of every compared pair (or writer..reader)
    timeline: Timeline
    messages: tuple[MessageRow, ...]
    groups: tuple[Group, ...]
    totals: dict[str, int]  # findings per severity
    #: the messages table's title, and what its last column lists
    messages_heading: tuple[str, str]


def group_of(finding: FindingRow, steps: Sequence[int], count: int) -> Group:
    """The group a finding stands for, found in ``steps``, ``count`` findings in all."""
    where = str(finding.file or "")
    if finding.line:
        where += f":{finding.line}"
    return Group(
        severity=str(finding.severity),
        rule=str(finding.rule),
        message_name=str(finding.message_name or finding.file or ""),
        field_path=str(finding.field_path or ""),
        text=str(finding.message or ""),
        hint=str(finding.hint or ""),
        where=where,
        versions=str(finding.versions or ""),
        steps=tuple(steps),
        count=count,
        evidence=_evidence(finding.evidence),
    )


def _evidence(raw: Any) -> dict[str, Any] | None:
    if not raw:
        return None
    try:
        value = parse_json(raw) if isinstance(raw, str) else raw
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def group_order(group: Group) -> tuple[int, int, str, str, str]:
    rank = SEVERITIES.index(group.severity) if group.severity in SEVERITIES else len(SEVERITIES)
    first = group.steps[0] if group.steps else -1
    return rank, first, group.message_name, group.rule, group.field_path


def severity_counts(totals: Counter[str] | dict[str, int]) -> str:
    return ", ".join(f"{totals.get(s, 0)} {s}s" for s in SEVERITIES)


def series_of(counts: dict[tuple[str, str], list[int]]) -> tuple[Series, ...]:
    """One series per (severity, rule): errors first, then the most frequent."""
    ordered = sorted(counts.items(), key=lambda kv: (SEVERITIES.index(kv[0][0]), -sum(kv[1])))
    return tuple(Series(severity, rule, tuple(values)) for (severity, rule), values in ordered)


def totals_of(findings: Sequence[FindingRow]) -> Counter[str]:
    return Counter(str(f.severity) for f in findings)
