"""``path:line:col: severity [rule-id] message`` lines, coloured on a terminal."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.text import Text

from kcompat.rules.engine import Finding, Severity

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def finding_line(finding: Finding, base_label: str = "BASE") -> Text:
    line = Text()
    line.append(str(finding.location), style="bold")
    line.append(": ")
    line.append(finding.severity.label, style=_STYLE[finding.severity])
    line.append(f" [{finding.rule}] ", style="dim")
    line.append(finding.message)
    if finding.base_location is not None:
        base = finding.base_location
        line.append(f" (was {base.path}:{base.line} in {base_label})", style="dim")
    return line


def render_text(
    findings: Sequence[Finding], *, files: int, base_label: str = "BASE", hints: bool = True
) -> list[Text]:
    """One line per finding (plus an indented hint and evidence), then a summary."""
    lines: list[Text] = []
    for finding in findings:
        lines.append(finding_line(finding, base_label))
        if hints and finding.hint:
            lines.append(Text(f"    hint: {finding.hint}", style="dim"))
        if finding.released_by and finding.severity >= Severity.WARNING:
            lines.append(Text(f"    released: {finding.released_by}", style="dim"))
        if finding.evidence is not None:
            for row in str(finding.evidence).splitlines():
                lines.append(Text(f"    {row}", style="dim"))
    lines.append(summary_line(findings, files))
    return lines


def summary_line(findings: Sequence[Finding], files: int) -> Text:
    counts = Counter(f.severity for f in findings)
    if not findings:
        return Text(f"No problems in {files} spec file{'s' if files != 1 else ''}.", style="green")
    parts = []
    for severity in (Severity.ERROR, Severity.WARNING, Severity.INFO):
        n = counts.get(severity, 0)
        if n:
            parts.append(f"{n} {severity.label}{'s' if n != 1 else ''}")
    return Text(
        f"Found {', '.join(parts)} in {files} spec file{'s' if files != 1 else ''}.", style="bold"
    )
