"""Machine and review formats: JSON, SARIF 2.1.0, GitHub annotations, JUnit XML, Markdown."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

from kcompat import __version__
from kcompat.report.document import Report, counts_phrase, plural
from kcompat.report.json_report import render_json
from kcompat.rules.engine import Finding, Severity, get_rule

_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
HELP_URI = "https://github.com/kcompat/kcompat/blob/main/rules/{}.md"


def render(fmt: str, report: Report) -> str:
    renderers: dict[str, Callable[[Report], str]] = {
        "json": render_json,
        "sarif": render_sarif,
        "github": render_github,
        "junit": render_junit,
        "markdown": render_markdown,
    }
    return renderers[fmt](report)


def _details(finding: Finding, *, hint: str = "Hint: ") -> str:
    """A finding's message with its hint, notes and counterexample, for plain-text bodies."""
    text = finding.message + (f" {hint}{finding.hint}" if finding.hint else "")
    for note in finding.notes:
        text += f"\nnote: {note}"
    if finding.evidence is not None:
        text += "\n" + str(finding.evidence)
    return text


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
            "helpUri": HELP_URI.format(rule_id),
        }
        if meta is not None:
            entry["shortDescription"] = {"text": meta.summary}
            entry["defaultConfiguration"] = {"level": _SARIF_LEVEL[meta.severity]}
            entry["properties"] = {"category": meta.category, "kind": meta.kind}
        rules.append(entry)
    results = []
    for finding in findings:
        text = _details(finding)
        result: dict[str, Any] = {
            "ruleId": finding.rule,
            "ruleIndex": index[finding.rule],
            "level": _SARIF_LEVEL[finding.severity],
            "message": {"text": text},
            "locations": [
                _sarif_location(
                    finding.location.path, finding.location.line, finding.location.column
                )
            ],
            "partialFingerprints": {"kcompat/v1": finding.fingerprint},
            "properties": {
                "message_name": finding.message_name,
                "field_path": finding.field_path,
                "versions": finding.versions,
            },
        }
        if finding.base_location is not None:
            base = finding.base_location
            related = _sarif_location(base.path, base.line, base.column)
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
            "suppressed": report.suppressed,
            "baselined": report.baselined,
        },
    }
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


def _sarif_location(path: str, line: int, column: int) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": path.replace("\\", "/")},
            "region": {"startLine": max(line, 1), "startColumn": max(column, 1)},
        }
    }


def escape(text: str) -> str:
    """XML character data (xml.sax.saxutils pulls in urllib and http: 75 ms per run)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def quoteattr(text: str) -> str:
    """A double-quoted XML attribute value."""
    escaped = escape(text).replace('"', "&quot;")
    escaped = escaped.replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    return '"' + escaped + '"'


def _gh_escape(text: str, *, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def render_github(report: Report) -> str:
    """GitHub Actions workflow commands: one annotation per finding, errors first."""
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
    lines = []
    for f in report.by_severity():
        props = (
            f"file={_gh_escape(f.location.path, prop=True)},line={f.location.line},"
            f"col={f.location.column},title={_gh_escape('kcompat ' + f.rule, prop=True)}"
        )
        lines.append(f"::{level[f.severity]} {props}::{_gh_escape(_details(f, hint='(hint: '))}")
    aside = report.set_aside()
    said = report.nothing_compared() or (
        f"{counts_phrase(report.findings)} in {plural(report.files, 'spec file')}"
    )
    lines.append(f"kcompat {report.command}: {said}" + (f" ({aside})" if aside else ""))
    return "\n".join(lines)


def render_junit(report: Report) -> str:
    """JUnit XML: one test case per finding (errors and warnings fail), grouped by file."""
    findings, command, files = report.findings, report.command, report.files
    by_file: dict[str, list[Finding]] = {}
    for f in findings:
        by_file.setdefault(f.location.path, []).append(f)
    failures = sum(1 for f in findings if f.severity >= Severity.WARNING)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<testsuites name="kcompat {command}" tests="{max(len(findings), 1)}" '
        f'failures="{failures}">',
    ]
    if not findings:
        out.append(f'  <testsuite name="kcompat {command}" tests="1" failures="0">')
        out.append(f'    <testcase classname="kcompat.{command}" name="{files} spec files"/>')
        out.append("  </testsuite>")
    for path, group in sorted(by_file.items()):
        failed = sum(1 for f in group if f.severity >= Severity.WARNING)
        out.append(f'  <testsuite name={quoteattr(path)} tests="{len(group)}" failures="{failed}">')
        for f in group:
            name = quoteattr(f"{f.rule} {f.location}")
            out.append(f'    <testcase classname="kcompat.{command}" name={name}>')
            body = escape(_details(f, hint="\nhint: "))
            if f.severity >= Severity.WARNING:
                out.append(
                    f"      <failure type={quoteattr(f.severity.label)} "
                    f"message={quoteattr(f.message)}>{body}</failure>"
                )
            else:
                out.append(f"      <system-out>{body}</system-out>")
            out.append("    </testcase>")
        out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out)


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(report: Report) -> str:
    """A pull-request comment: verdict, counts per severity and rule, then every finding
    (errors first), with notes and bytes folded under each."""
    findings, command = report.findings, report.command
    errors = report.count(Severity.ERROR)
    verdict = (
        ("❌ **Breaking changes found**" if command == "diff" else "❌ **Errors found**")
        if errors
        else "✅ **No errors**"
    )
    title = {"diff": "compatibility check", "lint": "spec lint", "drift": "spec drift"}.get(
        command, command
    )
    aside = report.set_aside()
    counts = (
        f" in {plural(report.files, 'spec file')}: "
        f"{plural(errors, 'error')}, {plural(report.count(Severity.WARNING), 'warning')}, "
        f"{plural(report.count(Severity.INFO), 'info')}"
    )
    if report.nothing_compared():
        verdict, counts = "✅ **No spec file changed**", ""
    lines = [
        f"### kcompat {title}",
        "",
        verdict + counts + (f" ({aside})" if aside else "") + ".",
        "",
    ]
    if report.base is not None:
        lines += [f"Base `{report.base}`, head `{report.head}`.", ""]
    if report.released and findings:
        lines += [f"Released: {report.released}.", ""]
    if not findings:
        return "\n".join(lines)
    per_rule = Counter((f.rule, f.severity) for f in findings)
    lines += ["| rule | severity | count |", "|---|---|---|"]
    for (rule_id, severity), n in sorted(per_rule.items(), key=lambda kv: (-kv[0][1], kv[0][0])):
        lines.append(f"| [`{rule_id}`]({HELP_URI.format(rule_id)}) | {severity.label} | {n} |")
    lines += ["", "| | location | message | rule |", "|---|---|---|---|"]
    icon = {Severity.ERROR: "🔴", Severity.WARNING: "🟡", Severity.INFO: "🔵"}
    ordered = report.by_severity()
    for f in ordered:
        where = f"`{f.location}`"
        lines.append(f"| {icon[f.severity]} | {where} | {_md_cell(f.message)} | `{f.rule}` |")
    for f in ordered:
        if f.evidence is None and not f.notes:
            continue
        body = [*(f"note: {note}" for note in f.notes)]
        if f.evidence is not None:
            body.append(str(f.evidence))
        lines += [
            "",
            f"<details><summary><code>{escape(f.rule)}</code> on "
            f"<code>{escape(f.message_name)}</code> {escape(f.field_path)}</summary>",
            "",
            "```",
            *body,
            "```",
            "",
            "</details>",
        ]
    return "\n".join(lines)
