"""GitLab Code Quality: the JSON array GitLab reads as a ``codequality`` report.

Each finding is an object with ``description``, ``check_name``, ``fingerprint`` (unique
within the report), ``severity`` (``info``, ``minor``, ``major``, ``critical`` or
``blocker``) and ``location.path`` / ``location.lines.begin``, as GitLab documents it.
Accepted findings are ``info`` and say why.
"""

from __future__ import annotations

import json
from typing import Any

from kcompat.escaping import json_safe
from kcompat.findings import Finding, Severity
from kcompat.report.document import Report, distinct_fingerprints, set_aside, status

SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def issue(finding: Finding, fingerprint: str) -> dict[str, Any]:
    description = finding.message
    if finding.accepted:
        description = f"{description} ({status(finding)}: {finding.accepted})"
    elif finding.suppressed:
        description = f"{description} (suppressed: {finding.suppressed})"
    elif finding.hint:
        description = f"{description} (hint: {finding.hint})"
    return {
        "description": description,
        "check_name": finding.rule,
        "fingerprint": fingerprint,
        "severity": "info" if set_aside(finding) else SEVERITY[finding.severity],
        "location": {
            "path": finding.location.path.replace("\\", "/"),
            "lines": {"begin": max(finding.location.line, 1)},
        },
    }


def render_gitlab(report: Report) -> str:
    # GitLab needs unique fingerprints; kcompat's are stable across line moves, so two
    # findings may share one (the same change in two files): the file tells them apart
    findings = report.findings
    issues = [
        issue(finding, fingerprint)
        for finding, fingerprint in zip(findings, distinct_fingerprints(findings), strict=True)
    ]
    return json_safe(json.dumps(issues, indent=2, ensure_ascii=False))
