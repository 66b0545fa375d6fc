"""SARIF 2.1.0 for code scanning: one result per finding, accepted ones as suppressed."""

from __future__ import annotations

import json
from typing import Any

from kcompat import __version__
from kcompat.escaping import json_safe
from kcompat.findings import Severity
from kcompat.provenance import Provenance
from kcompat.report.columns import versions_text
from kcompat.report.document import Report, details, distinct_fingerprints, status
from kcompat.rules.registry import get_rule

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
#: Where the rule pages are (a SARIF file is read anywhere, long after: ``main``'s).
_PAGES = Provenance()


def render_sarif(report: Report) -> str:
    findings = report.findings
    rule_ids = sorted({f.rule for f in findings})
    index = {rule_id: i for i, rule_id in enumerate(rule_ids)}
    rules = []
    for rule_id in rule_ids:
        meta = get_rule(rule_id)
        entry: dict[str, Any] = {
            "id": rule_id,
            "name": rule_id,
            "helpUri": _PAGES.rule_page(rule_id),
        }
        if meta is not None:
            entry["shortDescription"] = {"text": meta.summary}
            entry["defaultConfiguration"] = {"level": _LEVEL[meta.severity]}
            entry["properties"] = {"category": meta.category, "kind": meta.kind}
        rules.append(entry)
    results = []
    for finding, fingerprint in zip(findings, distinct_fingerprints(findings), strict=True):
        result: dict[str, Any] = {
            "ruleId": finding.rule,
            "ruleIndex": index[finding.rule],
            "level": _LEVEL[finding.severity],
            "message": {"text": details(finding)},
            "locations": [
                _location(finding.location.path, finding.location.line, finding.location.column)
            ],
            "partialFingerprints": {"kcompat/v1": fingerprint},
            "properties": {
                "message_name": finding.message_name,
                "field_path": finding.field_path,
                "versions": versions_text(finding),
            },
        }
        if finding.accepted:
            why = f"{status(finding)}: {finding.accepted}" if finding.weakened_by else ""
            result["suppressions"] = [
                {
                    "kind": "external",
                    "justification": why or finding.accepted,
                    "status": "accepted",
                }
            ]
        elif finding.suppressed:
            result["suppressions"] = [
                {"kind": "inSource", "justification": finding.suppressed, "status": "accepted"}
            ]
        if finding.base_location is not None:
            base = finding.base_location
            related = _location(base.path, base.line, base.column)
            related["id"] = 1
            related["message"] = {"text": "where it was in the base revision"}
            result["relatedLocations"] = [related]
        results.append(result)
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "kcompat",
                "version": __version__,
                "informationUri": "https://github.com/kcompat/kcompat",
                "rules": rules,
            }
        },
        "results": results,
        "properties": {
            "command": report.command,
            "files": report.files,
            "accepted": report.accepted,
            "suppressed": report.suppressed,
            "baselined": report.baselined,
            "accepted_in_change": report.accepted_in_change,
            "suppressions": [{"reason": r, "count": n} for r, n in report.suppressions],
        },
    }
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }
    return json_safe(json.dumps(document, indent=2, ensure_ascii=False))


def _location(path: str, line: int, column: int) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": path.replace("\\", "/")},
            "region": {"startLine": max(line, 1), "startColumn": max(column, 1)},
        }
    }
