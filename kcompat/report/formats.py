"""Machine and review formats: JSON, SARIF 2.1.0, GitHub annotations, JUnit XML, Markdown."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from kcompat import __version__
from kcompat.report.json_report import render_json
from kcompat.rules.engine import Finding, Severity, get_rule

_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
HELP_URI = "https://github.com/kcompat/kcompat/blob/main/rules/{}.md"


def render(
    fmt: str,
    findings: Sequence[Finding],
    *,
    command: str,
    files: int,
    extra: dict[str, Any] | None = None,
) -> str:
    renderers: dict[str, Callable[..., str]] = {
        "json": render_json,
        "sarif": render_sarif,
        "github": render_github,
        "junit": render_junit,
        "markdown": render_markdown,
    }
    return renderers[fmt](findings, command=command, files=files, extra=extra)


def render_sarif(
    findings: Sequence[Finding], *, command: str, files: int, extra: dict[str, Any] | None = None
) -> str:
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
        text = finding.message + (f" Hint: {finding.hint}" if finding.hint else "")
        if finding.evidence is not None:
            text += "\n" + str(finding.evidence)
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
        "properties": {"command": command, "files": files},
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


def render_github(
    findings: Sequence[Finding], *, command: str, files: int, extra: dict[str, Any] | None = None
) -> str:
    """GitHub Actions workflow commands: one annotation per finding."""
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
    lines = []
    for f in findings:
        props = (
            f"file={_gh_escape(f.location.path, prop=True)},line={f.location.line},"
            f"col={f.location.column},title={_gh_escape('kcompat ' + f.rule, prop=True)}"
        )
        body = f.message + (f" (hint: {f.hint})" if f.hint else "")
        if f.evidence is not None:
            body += "\n" + str(f.evidence)
        lines.append(f"::{level[f.severity]} {props}::{_gh_escape(body)}")
    counts = Counter(f.severity for f in findings)
    lines.append(
        f"kcompat {command}: {counts.get(Severity.ERROR, 0)} errors, "
        f"{counts.get(Severity.WARNING, 0)} warnings, {counts.get(Severity.INFO, 0)} "
        f"infos in {files} spec files"
    )
    return "\n".join(lines)


def render_junit(
    findings: Sequence[Finding], *, command: str, files: int, extra: dict[str, Any] | None = None
) -> str:
    """JUnit XML: one test case per finding (errors and warnings fail), grouped by file."""
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
            body = escape(
                f.message
                + (f"\nhint: {f.hint}" if f.hint else "")
                + (f"\n{f.evidence}" if f.evidence is not None else "")
            )
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


def render_markdown(
    findings: Sequence[Finding], *, command: str, files: int, extra: dict[str, Any] | None = None
) -> str:
    """A pull-request comment: verdict, counts per severity and rule, then every finding."""
    counts = Counter(f.severity for f in findings)
    errors = counts.get(Severity.ERROR, 0)
    verdict = (
        ("❌ **Breaking changes found**" if command == "diff" else "❌ **Errors found**")
        if errors
        else "✅ **No errors**"
    )
    title = {"diff": "compatibility check", "lint": "spec lint", "drift": "spec drift"}.get(
        command, command
    )
    lines = [
        f"### kcompat {title}",
        "",
        verdict + f" in {files} spec files: "
        f"{errors} errors, {counts.get(Severity.WARNING, 0)} warnings, "
        f"{counts.get(Severity.INFO, 0)} infos.",
        "",
    ]
    if extra and extra.get("base") is not None:
        lines += [f"Base `{extra.get('base')}`, head `{extra.get('head')}`.", ""]
    if not findings:
        return "\n".join(lines)
    per_rule = Counter((f.rule, f.severity) for f in findings)
    lines += ["| rule | severity | count |", "|---|---|---|"]
    for (rule_id, severity), n in sorted(per_rule.items(), key=lambda kv: (-kv[0][1], kv[0][0])):
        lines.append(f"| [`{rule_id}`]({HELP_URI.format(rule_id)}) | {severity.label} | {n} |")
    lines += ["", "| | location | message | rule |", "|---|---|---|---|"]
    icon = {Severity.ERROR: "🔴", Severity.WARNING: "🟡", Severity.INFO: "🔵"}
    for f in findings:
        where = f"`{f.location}`"
        lines.append(f"| {icon[f.severity]} | {where} | {_md_cell(f.message)} | `{f.rule}` |")
    evidence = [f for f in findings if f.evidence is not None]
    for f in evidence:
        lines += [
            "",
            f"<details><summary>Bytes for <code>{escape(f.message_name)}</code> "
            f"{escape(f.field_path)}</summary>",
            "",
            "```",
            str(f.evidence),
            "```",
            "",
            "</details>",
        ]
    return "\n".join(lines)
