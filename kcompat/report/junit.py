"""JUnit XML for CI test reports: one test case per finding, grouped by file.

Errors and warnings are failures, unless the configuration accepts them; infos and
accepted findings are passing cases with their text as output. All text is
:func:`~kcompat.escaping.shown` first: a CI page shows it to people, and what that
escapes includes every character XML 1.0 forbids, so any name makes a valid document.
"""

from __future__ import annotations

from kcompat.escaping import shown, shown_block
from kcompat.findings import Finding, Severity
from kcompat.report.document import Report, details, set_aside


def escape(text: str) -> str:
    """XML character data, lines kept (xml.sax.saxutils pulls in urllib and http: 75 ms
    per run)."""
    return shown_block(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def quoteattr(text: str) -> str:
    """A double-quoted XML attribute value, one line."""
    escaped = shown(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return '"' + escaped.replace('"', "&quot;") + '"'


def _fails(finding: Finding) -> bool:
    return finding.severity >= Severity.WARNING and not set_aside(finding)


def render_junit(report: Report) -> str:
    findings, command, files = report.findings, report.command, report.files
    by_file: dict[str, list[Finding]] = {}
    for f in findings:
        by_file.setdefault(f.location.path, []).append(f)
    failures = sum(1 for f in findings if _fails(f))
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<testsuites name="kcompat {command}" tests="{max(len(findings), 1)}" '
        f'failures="{failures}">',
    ]
    if not findings:
        out.append(f'  <testsuite name="kcompat {command}" tests="1" failures="0">')
        out.append(_properties(report))
        out.append(f'    <testcase classname="kcompat.{command}" name="{files} spec files"/>')
        out.append("  </testsuite>")
    for index, (path, group) in enumerate(sorted(by_file.items())):
        failed = sum(1 for f in group if _fails(f))
        out.append(f'  <testsuite name={quoteattr(path)} tests="{len(group)}" failures="{failed}">')
        if index == 0:
            out.append(_properties(report))
        for f in group:
            name = quoteattr(f"{f.rule} {f.location}")
            out.append(f'    <testcase classname="kcompat.{command}" name={name}>')
            body = escape(details(f, hint="\nhint: {}"))
            if _fails(f):
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


def _properties(report: Report) -> str:
    """What the run set aside, as properties (JUnit has no other place for counts)."""
    counts = {
        "accepted": report.accepted,
        "suppressed": report.suppressed,
        "baselined": report.baselined,
        "hidden": report.hidden,
        "accepted_in_change": report.accepted_in_change,
    }
    inner = "".join(
        f'<property name="kcompat.{name}" value="{value}"/>' for name, value in counts.items()
    )
    if report.suppressions:
        inner += f'<property name="kcompat.suppressions" value={quoteattr(report.reasons())}/>'

    return f"    <properties>{inner}</properties>"
