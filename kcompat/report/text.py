"""``path:line:col: severity [rule-id] message`` lines, coloured on a terminal.

Errors come first, then warnings, then infos, so a long run's verdict is at the top; each
finding's hint, why its versions count as released, its notes and its counterexample
bytes follow it, indented. Lines are styled segments: printed through rich on a terminal,
as plain text otherwise (a pre-commit hook or a CI log need not import rich). Every segment
is :func:`~kcompat.escaping.shown` as it is turned into output, so no name or value from
a spec file reaches the terminal raw, whoever built the line.
"""

from __future__ import annotations

from kcompat.findings import Finding, Severity
from kcompat.report.document import Report, counts_phrase, plural, set_aside, status
from kcompat.report.lines import Line

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def finding_segments(finding: Finding, base_label: str = "BASE") -> Line:
    why = status(finding)
    severity = (
        (f"{finding.severity.label} ({why})", "green" if set_aside(finding) else "yellow")
        if why
        else (finding.severity.label, _STYLE[finding.severity])
    )
    line = [
        (str(finding.location), "bold"),
        (": ", ""),
        severity,
        (f" [{finding.rule}] ", "dim"),
        (finding.message, ""),
    ]
    if finding.base_location is not None:
        base = finding.base_location
        moved = base.path != finding.location.path
        where = f"{base.path}:{base.line}" if moved else f"line {base.line}"
        line.append((f" (was {where} in {base_label})", "dim"))
    return tuple(line)


def finding_block(finding: Finding, base_label: str = "BASE", hints: bool = True) -> list[Line]:
    """A finding's line and what is indented under it."""
    lines = [finding_segments(finding, base_label)]
    if finding.accepted:
        lines.append(((f"    {status(finding)}: {finding.accepted}", "green"),))
    elif finding.suppressed:
        lines.append(((f"    suppressed: {finding.suppressed}", "green"),))
    if hints and finding.hint and not set_aside(finding):
        lines.append(((f"    hint: {finding.hint}", "dim"),))
    if finding.released_by and finding.severity >= Severity.WARNING:
        lines.append(((f"    why: {finding.released_by}", "dim"),))
    for note in finding.notes:
        lines.append(((f"    note: {note}", "dim"),))
    if finding.evidence is not None:
        for row in str(finding.evidence).split("\n"):
            lines.append(((f"    {row}", "dim"),))
    return lines


def render_text(report: Report, *, hints: bool = True) -> list[Line]:
    """Every finding (errors first), then the summary."""
    base_label = report.base_label
    lines: list[Line] = []
    for finding in report.by_severity():
        lines.extend(finding_block(finding, base_label, hints))
    if report.released and report.findings:
        lines.append(((f"Released: {report.released}.", "dim"),))
    if report.overview is not None:
        lines.extend(((line, ""),) for line in report.overview.lines)
    lines.append(summary_line(report, base_label))
    return lines


def summary_line(report: Report, base_label: str | None = None) -> Line:
    files = plural(report.files, "spec file")
    aside = report.set_aside()
    tail = f" ({aside})" if aside else ""
    if report.nothing_compared():
        return ((f"{report.nothing_compared(base_label)}{tail}.", "green"),)
    if not report.counted:
        return ((f"No problems in {files}{tail}.", "green"),)
    return ((f"Found {counts_phrase(report.counted)} in {files}{tail}.", "bold"),)
