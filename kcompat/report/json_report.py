"""The versioned JSON report (schema: ``kcompat/data/findings.schema.json``)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from kcompat.escaping import json_safe
from kcompat.findings import Finding, Severity
from kcompat.report.columns import finding_dict
from kcompat.report.document import Report
from kcompat.report.json_head import json_head

SCHEMA_VERSION = 1


def envelope(command: str) -> dict[str, Any]:
    """What opens every findings report (``data/findings.schema.json``), whichever command
    wrote it."""
    return json_head("kcompat-findings", SCHEMA_VERSION, command)


def render_json(report: Report) -> str:
    counts = Counter(f.severity for f in report.counted)
    document: dict[str, Any] = {
        **envelope(report.command),
        "findings": [finding_dict(f) for f in report.findings],
        "summary": {
            "files": report.files,
            "error": counts.get(Severity.ERROR, 0),
            "warning": counts.get(Severity.WARNING, 0),
            "info": counts.get(Severity.INFO, 0),
            "accepted": report.accepted,
            "suppressed": report.suppressed,
            "baselined": report.baselined,
            "hidden": report.hidden,
            "accepted_in_change": report.accepted_in_change,
            "suppressions": [{"reason": r, "count": n} for r, n in report.suppressions],
        },
    }
    if report.fixtures:
        document["summary"]["fixtures"] = report.fixtures
    if report.base is not None or report.head is not None:
        document["base"] = report.base
        document["head"] = report.head
    if report.released:
        document["released"] = report.released
    if report.overview is not None:
        document[report.command] = dict(report.overview.data)
    return json_safe(json.dumps(document, indent=2, ensure_ascii=False))


def findings_json(findings: Sequence[Finding], *, command: str, files: int) -> str:
    """A JSON report of plain findings (a baseline file, a history dump)."""
    return render_json(Report(command, tuple(findings), files))
