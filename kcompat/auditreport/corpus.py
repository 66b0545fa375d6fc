"""The ``corpus`` job kind (``corpus verify``): its audit (a finding per sample misread)
and its report, one step from the corpus's writer to the reader."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from kcompat.auditreport.kinds import AuditData, JobKind, register
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
from kcompat.report.audit_summary import CorpusSummary
from kcompat.report.columns import AuditRow, FindingsTable, Sample

Audit = AuditData[CorpusSummary, AuditRow[Sample]]
#: A corpus verify's findings: the finding's own columns, then the sample it is about.
FINDINGS: FindingsTable[Sample] = FindingsTable(Sample, about_first=False)


def _sample(row: AuditRow[Sample]) -> int:
    """A corpus finding's sample id (-1 for findings about a whole message)."""
    sample = row.about.sample_id
    return int(sample) if sample is not None else -1


def _key(row: AuditRow[Sample]) -> tuple[Any, ...]:
    """One group per (rule, severity, message, version, field), as the command's own
    summary groups them (one counterexample stands for the group)."""
    f = row.finding
    return (f.rule, f.severity, f.message_name, row.about.version, f.field_path)


def corpus_view(audit: Audit) -> View:
    """A corpus verify run as a report: one step (the corpus's writer to the reader)."""
    summary, findings = audit.summary, audit.findings
    corpus = summary.corpus
    writer = str(corpus.revision_label or "corpus")
    reader = summary.reader
    groups = _corpus_groups(findings)
    totals = totals_of([row.finding for row in findings])
    facts = (
        (
            "corpus",
            f"{writer}, {corpus.samples} samples per version (seed {corpus.seed})",
        ),
        ("read with", reader),
        ("samples", f"{summary.rows} of {summary.messages} messages"),
        ("findings", severity_counts(totals)),
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
        messages_heading=("Messages with mismatches", "read with"),
    )


def _corpus_groups(findings: Sequence[AuditRow[Sample]]) -> list[Group]:
    """One group per kind of finding (:func:`_key`), shown by its lowest sample."""
    first: dict[tuple[Any, ...], AuditRow[Sample]] = {}
    count: Counter[tuple[Any, ...]] = Counter()
    for row in findings:
        key = _key(row)
        count[key] += 1
        held = first.get(key)
        if held is None or _sample(row) < _sample(held):
            first[key] = row
    return sorted((group_of(first[k].finding, (0,), n) for k, n in count.items()), key=group_order)


def _corpus_timeline(findings: Sequence[AuditRow[Sample]], writer: str, reader: str) -> Timeline:
    """Errors and warnings per message, one series per (severity, rule)."""
    per_message: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for row in findings:
        f = row.finding
        if f.severity in ("error", "warning"):
            per_message[(str(f.severity), str(f.rule))][str(f.message_name or "")] += 1
    names = sorted({name for c in per_message.values() for name in c})
    counts = {key: [c.get(n, 0) for n in names] for key, c in per_message.items()}
    return Timeline(
        tuple(names),
        "message",
        f"Errors and warnings per message: samples {writer} wrote that {reader} misreads "
        "or cannot read, by rule.",
        series_of(counts),
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


def _recognises(summary: Mapping[str, Any]) -> bool:
    return "corpus" in summary and "reader" in summary


CORPUS: JobKind[CorpusSummary, AuditRow[Sample]] = register(
    JobKind(
        name="corpus",
        command="corpus verify",
        summary=CorpusSummary.from_json,
        table=FINDINGS,
        view=corpus_view,
        recognises=_recognises,
    )
)
