"""The ``history`` job kind: its audit (pairs compared, a finding per pair) and its report.

A history audit's findings repeat: in a transitive audit of 43 releases, one break is
found again in every release pair that spans it. The view lists each distinct finding
once with the pairs (steps) it occurs in; the timeline counts per commit or release, or
for a transitive audit each break once, at the first release that has it.
"""

from __future__ import annotations

import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from kcompat.auditreport.kinds import AuditData, JobKind, Links, register
from kcompat.auditreport.load import shown_value
from kcompat.auditreport.views import (
    SEVERITIES,
    Break,
    Group,
    MessageRow,
    Timeline,
    View,
    group_of,
    group_order,
    series_of,
    severity_counts,
    totals_of,
)
from kcompat.errors import UsageError
from kcompat.modes import HistoryMode
from kcompat.naming import release_order
from kcompat.report.audit_summary import HistorySummary
from kcompat.report.columns import AuditRow, FindingsTable, Pair

#: More pairs than any history (a million commits) means a damaged summary.
MAX_PAIRS = 1_000_000
#: The columns that make two findings "the same" across pairs (everything but the pair).
FINDING_KEY = (
    "rule",
    "severity",
    "message",
    "hint",
    "file",
    "line",
    "column",
    "base_file",
    "base_line",
    "message_name",
    "field_path",
    "versions",
    "fingerprint",
    "released_by",
    "evidence",
)
#: The changelog pages ``history --changelog`` writes (a summary naming anything else,
#: a ``javascript:`` link say, is not linked).
_CHANGELOG_FILE = re.compile(r"changelog-[A-Za-z0-9._-]+\.html")

Audit = AuditData[HistorySummary, AuditRow[Pair]]
#: A history audit's findings: the pair compared, then the finding's own columns.
FINDINGS: FindingsTable[Pair] = FindingsTable(Pair)


def history_steps(summary: HistorySummary, findings: Sequence[AuditRow[Pair]]) -> list[str]:
    """``BASE..HEAD`` of every pair, by pair index: the summary's list when it has one
    (pairs without findings included), else the pairs the findings name."""
    if summary.pairs is not None:
        return [f"{base}..{head}" for base, head in summary.pairs]
    named: dict[int, str] = {}
    for row in findings:
        named.setdefault(int(row.about.pair_index), row.about.step)
    count = max(summary.comparisons, max(named, default=-1) + 1)
    return [named.get(i, "") for i in range(count)]  # "": a pair without findings


def history_view(audit: Audit) -> View:
    summary, findings = audit.summary, audit.findings
    mode = HistoryMode(summary.mode)
    steps = history_steps(summary, findings)
    groups = _history_groups(findings)
    totals = totals_of([row.finding for row in findings])
    if mode == HistoryMode.TRANSITIVE:
        timeline = _first_release_timeline(groups, steps)
    else:
        timeline = _per_pair_timeline(findings, steps, mode)
    facts = [
        ("compared", compared_phrase(mode, len(steps))),
        ("findings", severity_counts(totals)),
        ("distinct findings", str(len(groups))),
        ("released versions", summary.released),
    ]
    if summary.seconds is not None:
        facts.append(("audit time", f"{summary.seconds} s"))
    broke = "broken by (first release of each break)"
    if timeline.axis == "commit":
        broke = "broken by (commits)"
    return View(
        kind=audit.kind,
        title=f"kcompat history: {mode} audit",
        facts=tuple(facts),
        steps=tuple(steps),
        timeline=timeline,
        messages=tuple(_history_messages(groups, steps, mode)),
        groups=tuple(groups),
        totals={s: totals.get(s, 0) for s in SEVERITIES},
        messages_heading=("Messages that broke", broke),
    )


def compared_phrase(mode: HistoryMode, count: int) -> str:
    """What an audit compared, in words: "3 releases, each against the release before"."""
    many = count != 1
    if mode == HistoryMode.CONSECUTIVE:
        return f"{count} commit{'s' if many else ''}, each against its first parent"
    if mode == HistoryMode.RELEASES:
        return f"{count} release{'s' if many else ''}, each against the release before"
    return f"{count} pair{'s' if many else ''} of releases (every release against each earlier one)"


def _history_groups(findings: Iterable[AuditRow[Pair]]) -> list[Group]:
    steps_of: dict[tuple[Any, ...], list[int]] = defaultdict(list)
    first: dict[tuple[Any, ...], AuditRow[Pair]] = {}
    for row in findings:
        key = tuple(getattr(row.finding, k) for k in FINDING_KEY)
        steps_of[key].append(int(row.about.pair_index))
        first.setdefault(key, row)
    groups = [
        group_of(first[key].finding, sorted(set(steps)), len(steps))
        for key, steps in steps_of.items()
    ]
    return sorted(groups, key=group_order)


def _per_pair_timeline(
    findings: Sequence[AuditRow[Pair]], steps: Sequence[str], mode: str
) -> Timeline:
    """Errors and warnings found in each pair (each commit against its parent, each
    release against the previous one), by rule."""
    counts: dict[tuple[str, str], list[int]] = {}
    for row in findings:
        severity = str(row.finding.severity)
        if severity not in ("error", "warning"):
            continue
        series = counts.setdefault((severity, str(row.finding.rule)), [0] * len(steps))
        index = int(row.about.pair_index)
        if 0 <= index < len(steps):
            series[index] += 1
    axis = "commit" if mode == HistoryMode.CONSECUTIVE else "release"
    labels = tuple(step.split("..", 1)[-1] for step in steps)
    caption = (
        "Errors and warnings each commit brought (against its first parent), by rule."
        if axis == "commit"
        else "Errors and warnings each release brought (against the release before), by rule."
    )
    return Timeline(labels, axis, caption, series_of(counts))


def _first_release_timeline(groups: Sequence[Group], steps: Sequence[str]) -> Timeline:
    """For a transitive audit: each break once, at the first release that has it (a
    break between 3.0.0 and 3.1.0 shows again in every later pair; counting it there
    would say nothing new)."""
    heads = [step.split("..", 1)[-1] for step in steps]
    releases = sorted(
        {label for step in steps if step for label in step.split("..", 1)}, key=release_order
    )
    position = {label: i for i, label in enumerate(releases)}
    firsts: dict[tuple[str, str, str, str], int] = {}
    for group in groups:
        if group.severity not in ("error", "warning") or not group.steps:
            continue
        first = min(position[heads[s]] for s in group.steps)
        key = (group.severity, group.rule, group.message_name, group.field_path)
        firsts[key] = min(first, firsts.get(key, first))
    counts: dict[tuple[str, str], list[int]] = {}
    for (severity, rule, _, _), first in firsts.items():
        counts.setdefault((severity, rule), [0] * len(releases))[first] += 1
    caption = (
        "New errors and warnings per release: each (rule, message, field) counted once, "
        "at the first release that has it against an earlier release."
    )
    return Timeline(tuple(releases), "release", caption, series_of(counts))


def _history_messages(groups: Sequence[Group], steps: Sequence[str], mode: str) -> list[MessageRow]:
    """Every message with errors or warnings: which releases (or commits) broke it, and
    each break with the first release that has it."""
    heads = [step.split("..", 1)[-1] for step in steps]
    transitive = mode == HistoryMode.TRANSITIVE
    labels = sorted(set(heads) - {""}, key=release_order) if transitive else heads
    position = {label: i for i, label in enumerate(labels)}

    def when(step: int) -> int:  # a step's place on the time axis
        return position[heads[step]] if transitive else step

    errors: Counter[str] = Counter()
    warnings: Counter[str] = Counter()
    breaks: dict[str, dict[tuple[str, str], tuple[int, set[int]]]] = defaultdict(dict)
    for group in groups:
        if group.severity == "warning":
            warnings[group.message_name] += group.count
        if group.severity != "error" or not group.steps:
            continue
        errors[group.message_name] += group.count
        key = (group.rule, group.field_path)
        first = min(when(s) for s in group.steps)
        known, pairs = breaks[group.message_name].get(key, (first, set()))
        breaks[group.message_name][key] = (min(first, known), pairs | set(group.steps))
    rows = []
    for name in set(errors) | set(warnings):
        found = sorted(
            (
                (first, rule, field, len(pairs))
                for (rule, field), (first, pairs) in breaks[name].items()
            )
        )
        items = tuple(Break(rule, field, labels[first], n) for first, rule, field, n in found)
        broken = tuple(labels[i] for i in sorted({first for first, _, _, _ in found}))
        rows.append(MessageRow(name, errors[name], warnings[name], broken, items))
    return sorted(rows, key=lambda r: (-r.errors, -r.warnings, r.name))


# -- the audit as written ---------------------------------------------------------------


def check_pairs(
    directory: Path, summary: Mapping[str, Any], findings: Sequence[AuditRow[Pair]]
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
    for number, row in enumerate(findings, 1):
        index = row.about.pair_index
        if not isinstance(index, int) or not 0 <= index < count:
            raise UsageError(
                f"{directory / 'findings'}: finding {number} ({shown_value(row.finding.rule)}) "
                f"names pair {shown_value(index)}, but {where.name} has {has}; the audit is "
                "inconsistent, rerun it"
            )


def _is_pair(value: object) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)


def changelog_links(audit: Audit, page: Path | None) -> Links:
    """(release pair, summary, link) of each changelog ``history --changelog`` wrote,
    linked from where the page is written to where the audit is."""
    entries = audit.summary.changelogs or ()
    local = "://" not in audit.source
    where = Path(audit.source)
    if local and page is not None:
        where = Path(os.path.relpath(Path(audit.source).resolve(), page.resolve().parent))
    out = []
    for entry in entries:
        name = entry.html  # a file of the audit as history names it, nothing else
        if not _CHANGELOG_FILE.fullmatch(name):
            continue
        link = f"./{(where / name).as_posix()}" if local else f"{audit.source.rstrip('/')}/{name}"
        out.append((f"{entry.base} → {entry.head}", entry.summary, link))
    return out


def _recognises(summary: Mapping[str, Any]) -> bool:
    mode = summary.get("mode")  # any JSON value: a list or a mapping is no mode
    return isinstance(mode, str) and mode in set(HistoryMode)


HISTORY: JobKind[HistorySummary, AuditRow[Pair]] = register(
    JobKind(
        name="history",
        command="history",
        summary=HistorySummary.from_json,
        table=FINDINGS,
        view=history_view,
        recognises=_recognises,
        check=check_pairs,
        links=changelog_links,
    )
)
