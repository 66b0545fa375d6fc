"""Diff's findings as the changelog's break lines.

The changelog does not judge compatibility itself: the breaks are exactly what
``kcompat diff`` reports (its rules, run without the byte proof, after the
configuration, ignore comments, ``preview`` and ``[[ignore]]``), one line each, with
``kcompat diff`` named for the bytes: every error, and every warning that is a break made
a warning (``preview``, a configured severity). A rule that warns by nature (a renamed
field, versions removed after their deprecation) says what the changelog already says.
"""

from __future__ import annotations

from collections.abc import Iterable

from kcompat.changelog.model import Change, ChangeKind
from kcompat.findings import Finding, Severity
from kcompat.report.columns import FindingRow
from kcompat.spec.versions import Versions


def from_findings(findings: Iterable[Finding]) -> list[Change]:
    """The breaks (and warnings) among a diff's findings."""
    return [
        _change(
            f.message_name,
            f.rule,
            f.severity.label,
            f.message,
            f.field_path,
            f.versions if f.versions is not None else Versions(),
            f.accepted,
            f.location.path,
        )
        for f in findings
        if is_break(f.rule, f.severity.label)
    ]


def from_rows(rows: Iterable[FindingRow]) -> list[Change]:
    """The breaks among an audit's finding rows (``kcompat history``'s Parquet)."""
    return [
        _change(
            str(row.message_name or ""),
            str(row.rule or ""),
            str(row.severity or ""),
            str(row.message or ""),
            str(row.field_path or ""),
            _versions(str(row.versions or "")),
            str(row.accepted or ""),
            str(row.file or ""),
        )
        for row in rows
        if is_break(str(row.rule or ""), str(row.severity or ""))
    ]


def _versions(text: str) -> Versions:
    """A row's versions, as its finding's ``str(versions)`` wrote them ("": none)."""
    parsed = Versions.try_parse(text) if text else None
    return parsed if parsed is not None else Versions()


def is_break(rule: str, severity: str) -> bool:
    """An error, or a warning whose rule's own severity is an error."""
    if severity == "error":
        return True
    if severity != "warning":
        return False
    from kcompat.rules.registry import get_rule

    found = get_rule(rule)
    return found is None or found.severity is Severity.ERROR


def _change(
    message: str,
    rule: str,
    severity: str,
    text: str,
    field: str,
    versions: Versions,
    accepted: str,
    path: str,
) -> Change:
    return Change(
        message or path,
        ChangeKind.BREAK,
        versions,
        field=field,
        note=text,
        rule=rule,
        severity=severity,
        accepted=accepted,
        released=True,
        existing=True,
    )
