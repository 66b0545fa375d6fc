"""What the report shows, computed from an audit's findings (pure functions, no I/O).

A history audit's findings repeat: in a transitive audit of 43 releases, one break is
found again in every release pair that spans it (149,568 findings are 2,149 distinct
ones). The page therefore lists each distinct finding once, as a :class:`Group` with the
pairs (steps) it occurs in; the timeline and the per-message table are counts.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from kcompat.auditreport.load import CORPUS, AuditData, parse_json
from kcompat.modes import HistoryMode
from kcompat.naming import release_order
from kcompat.report.audit_summary import CorpusSummary, HistorySummary

SEVERITIES = ("error", "warning", "info")
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
#: For ``corpus verify``: one group per (rule, severity, message, version, field), as
#: the command's own summary groups them (one counterexample stands for the group).
CORPUS_KEY = ("rule", "severity", "message_name", "version", "field_path")


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


def build_view(audit: AuditData) -> View:
    if audit.kind == CORPUS:
        return _corpus_view(audit)
    return _history_view(audit)


# -- history ------------------------------------------------------------------------------


def history_steps(summary: HistorySummary, findings: Sequence[dict[str, Any]]) -> list[str]:
    """``BASE..HEAD`` of every pair, by pair index: the summary's list when it has one
    (pairs without findings included), else the pairs the findings name."""
    if summary.pairs is not None:
        return [f"{base}..{head}" for base, head in summary.pairs]
    named: dict[int, str] = {}
    for f in findings:
        named.setdefault(int(f["pair_index"]), f"{f['base_label']}..{f['head_label']}")
    count = max(summary.comparisons, max(named, default=-1) + 1)
    return [named.get(i, "") for i in range(count)]  # "": a pair without findings


def _history_view(audit: AuditData) -> View:
    summary, findings = audit.summary, audit.findings
    assert isinstance(summary, HistorySummary)
    mode = HistoryMode(summary.mode)
    steps = history_steps(summary, findings)
    groups = _history_groups(findings)
    totals = Counter(str(f["severity"]) for f in findings)
    if mode == HistoryMode.TRANSITIVE:
        timeline = _first_release_timeline(groups, steps)
    else:
        timeline = _per_pair_timeline(findings, steps, mode)
    facts = [
        ("compared", compared_phrase(mode, len(steps))),
        ("findings", _severity_counts(totals)),
        ("distinct findings", str(len(groups))),
        ("released versions", summary.released),
    ]
    if summary.seconds is not None:
        facts.append(("audit time", f"{summary.seconds} s"))
    return View(
        kind=audit.kind,
        title=f"kcompat history: {mode} audit",
        facts=tuple(facts),
        steps=tuple(steps),
        timeline=timeline,
        messages=tuple(_history_messages(groups, steps, mode)),
        groups=tuple(groups),
        totals={s: totals.get(s, 0) for s in SEVERITIES},
    )


def compared_phrase(mode: HistoryMode, count: int) -> str:
    """What an audit compared, in words: "3 releases, each against the release before"."""
    many = count != 1
    if mode == HistoryMode.CONSECUTIVE:
        return f"{count} commit{'s' if many else ''}, each against its first parent"
    if mode == HistoryMode.RELEASES:
        return f"{count} release{'s' if many else ''}, each against the release before"
    return f"{count} pair{'s' if many else ''} of releases (every release against each earlier one)"


def _history_groups(findings: Iterable[dict[str, Any]]) -> list[Group]:
    steps_of: dict[tuple[Any, ...], list[int]] = defaultdict(list)
    first: dict[tuple[Any, ...], dict[str, Any]] = {}
    for f in findings:
        key = tuple(f.get(k) for k in FINDING_KEY)
        steps_of[key].append(int(f["pair_index"]))
        first.setdefault(key, f)
    groups = [_group(first[key], sorted(set(steps)), len(steps)) for key, steps in steps_of.items()]
    return sorted(groups, key=_group_order)


def _group(f: dict[str, Any], steps: Sequence[int], count: int) -> Group:
    where = str(f.get("file") or "")
    if f.get("line"):
        where += f":{f['line']}"
    return Group(
        severity=str(f["severity"]),
        rule=str(f["rule"]),
        message_name=str(f.get("message_name") or f.get("file") or ""),
        field_path=str(f.get("field_path") or ""),
        text=str(f.get("message") or ""),
        hint=str(f.get("hint") or ""),
        where=where,
        versions=str(f.get("versions") or ""),
        steps=tuple(steps),
        count=count,
        evidence=_evidence(f.get("evidence")),
    )


def _evidence(raw: Any) -> dict[str, Any] | None:
    if not raw:
        return None
    try:
        value = parse_json(raw) if isinstance(raw, str) else raw
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _group_order(group: Group) -> tuple[int, int, str, str, str]:
    rank = SEVERITIES.index(group.severity) if group.severity in SEVERITIES else len(SEVERITIES)
    first = group.steps[0] if group.steps else -1
    return rank, first, group.message_name, group.rule, group.field_path


def _severity_counts(totals: Counter[str] | dict[str, int]) -> str:
    return ", ".join(f"{totals.get(s, 0)} {s}s" for s in SEVERITIES)


def _per_pair_timeline(
    findings: Sequence[dict[str, Any]], steps: Sequence[str], mode: str
) -> Timeline:
    """Errors and warnings found in each pair (each commit against its parent, each
    release against the previous one), by rule."""
    counts: dict[tuple[str, str], list[int]] = {}
    for f in findings:
        severity = str(f["severity"])
        if severity not in ("error", "warning"):
            continue
        row = counts.setdefault((severity, str(f["rule"])), [0] * len(steps))
        index = int(f["pair_index"])
        if 0 <= index < len(steps):
            row[index] += 1
    axis = "commit" if mode == HistoryMode.CONSECUTIVE else "release"
    labels = tuple(step.split("..", 1)[-1] for step in steps)
    caption = (
        "Errors and warnings each commit brought (against its first parent), by rule."
        if axis == "commit"
        else "Errors and warnings each release brought (against the release before), by rule."
    )
    return Timeline(labels, axis, caption, _series(counts))


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
    return Timeline(tuple(releases), "release", caption, _series(counts))


def _series(counts: dict[tuple[str, str], list[int]]) -> tuple[Series, ...]:
    ordered = sorted(counts.items(), key=lambda kv: (SEVERITIES.index(kv[0][0]), -sum(kv[1])))
    return tuple(Series(severity, rule, tuple(values)) for (severity, rule), values in ordered)


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


# -- corpus verify --------------------------------------------------------------------------


def _sample(finding: dict[str, Any]) -> int:
    """A corpus finding's sample id (-1 for findings about a whole message)."""
    sample = finding.get("sample_id")
    return int(sample) if sample is not None else -1


def _corpus_view(audit: AuditData) -> View:
    """A corpus verify run as a report: one step (the corpus's writer to the reader)."""
    summary, findings = audit.summary, audit.findings
    assert isinstance(summary, CorpusSummary)
    corpus = summary.corpus
    writer = str(corpus.revision_label or "corpus")
    reader = summary.reader
    groups = _corpus_groups(findings)
    totals = Counter(str(f["severity"]) for f in findings)
    facts = (
        (
            "corpus",
            f"{writer}, {corpus.samples} samples per version (seed {corpus.seed})",
        ),
        ("read with", reader),
        ("samples", f"{summary.rows} of {summary.messages} messages"),
        ("findings", _severity_counts(totals)),
    )
    return View(
        kind=audit.kind,
        title="kcompat corpus verify",
        facts=facts,
        steps=(f"{writer}..{reader}",),
        timeline=_corpus_timeline(findings, writer, reader),
        messages=_corpus_messages(summary, groups, reader),
        groups=tuple(groups),
        totals={s: totals.get(s, 0) for s in SEVERITIES},
    )


def _corpus_groups(findings: Sequence[dict[str, Any]]) -> list[Group]:
    """One group per kind of finding (:data:`CORPUS_KEY`), shown by its lowest sample."""
    first: dict[tuple[Any, ...], dict[str, Any]] = {}
    count: Counter[tuple[Any, ...]] = Counter()
    for f in findings:
        key = tuple(f.get(k) for k in CORPUS_KEY)
        count[key] += 1
        held = first.get(key)
        if held is None or _sample(f) < _sample(held):
            first[key] = f
    return sorted((_group(first[k], (0,), n) for k, n in count.items()), key=_group_order)


def _corpus_timeline(findings: Sequence[dict[str, Any]], writer: str, reader: str) -> Timeline:
    """Errors and warnings per message, one series per (severity, rule)."""
    per_message: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for f in findings:
        if f["severity"] in ("error", "warning"):
            per_message[(str(f["severity"]), str(f["rule"]))][str(f.get("message_name") or "")] += 1
    names = sorted({name for c in per_message.values() for name in c})
    counts = {key: [c.get(n, 0) for n in names] for key, c in per_message.items()}
    return Timeline(
        tuple(names),
        "message",
        f"Errors and warnings per message: samples {writer} wrote that {reader} misreads "
        "or cannot read, by rule.",
        _series(counts),
    )


def _corpus_messages(
    summary: CorpusSummary, groups: Sequence[Group], reader: str
) -> tuple[MessageRow, ...]:
    """Every message with errors or warnings (the summary's order first: most mismatches),
    counted by severity from the findings, as the page's header counts them (the summary's
    ``mismatches`` counts samples, whatever a finding's severity), each with its error
    groups as breaks by ``reader``."""
    errors: Counter[str] = Counter()
    warnings: Counter[str] = Counter()
    for group in groups:
        if group.severity == "error":
            errors[group.message_name] += group.count
        elif group.severity == "warning":
            warnings[group.message_name] += group.count
    listed = [row.message for row in summary.per_message]
    names = [*dict.fromkeys(listed), *sorted((set(errors) | set(warnings)) - set(listed))]
    messages = []
    for name in names:
        if not errors[name] and not warnings[name]:
            continue
        items = tuple(
            Break(g.rule, g.field_path, reader, g.count)
            for g in groups
            if g.message_name == name and g.severity == "error"
        )
        messages.append(MessageRow(name, errors[name], warnings[name], (reader,), items))
    return tuple(messages)
