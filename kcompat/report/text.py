"""``path:line:col: severity [rule-id] message`` lines, coloured on a terminal.

Errors come first, then warnings, then infos, so a long run's verdict is at the top; each
finding's hint, why its versions count as released, its notes and its counterexample
bytes follow it, indented.
"""

from __future__ import annotations

from rich.text import Text

from kcompat.report.document import Report, counts_phrase, plural
from kcompat.rules.engine import Finding, Severity

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def finding_line(finding: Finding, base_label: str = "BASE") -> Text:
    line = Text()
    line.append(str(finding.location), style="bold")
    line.append(": ")
    if finding.accepted:
        line.append(f"{finding.severity.label} (accepted)", style="green")
    else:
        line.append(finding.severity.label, style=_STYLE[finding.severity])
    line.append(f" [{finding.rule}] ", style="dim")
    line.append(finding.message)
    if finding.base_location is not None:
        base = finding.base_location
        moved = base.path != finding.location.path
        where = f"{base.path}:{base.line}" if moved else f"line {base.line}"
        line.append(f" (was {where} in {base_label})", style="dim")
    return line


def finding_block(finding: Finding, base_label: str = "BASE", hints: bool = True) -> list[Text]:
    """A finding's line and what is indented under it."""
    lines = [finding_line(finding, base_label)]
    if finding.accepted:
        lines.append(Text(f"    accepted: {finding.accepted}", style="green"))
    if hints and finding.hint and not finding.accepted:
        lines.append(Text(f"    hint: {finding.hint}", style="dim"))
    if finding.released_by and finding.severity >= Severity.WARNING:
        lines.append(Text(f"    released: {finding.released_by}", style="dim"))
    for note in finding.notes:
        lines.append(Text(f"    note: {note}", style="dim"))
    if finding.evidence is not None:
        for row in str(finding.evidence).splitlines():
            lines.append(Text(f"    {row}", style="dim"))
    return lines


def render_text(report: Report, *, base_label: str = "BASE", hints: bool = True) -> list[Text]:
    """Every finding (errors first), then the summary."""
    lines: list[Text] = []
    for finding in report.by_severity():
        lines.extend(finding_block(finding, base_label, hints))
    if report.released and report.findings:
        lines.append(Text(f"Released: {report.released}.", style="dim"))
    lines.append(summary_line(report, base_label))
    return lines


def summary_line(report: Report, base_label: str | None = None) -> Text:
    files = plural(report.files, "spec file")
    aside = report.set_aside()
    tail = f" ({aside})" if aside else ""
    if report.nothing_compared():
        return Text(f"{report.nothing_compared(base_label)}{tail}.", style="green")
    if not report.counted:
        return Text(f"No problems in {files}{tail}.", style="green")
    return Text(f"Found {counts_phrase(report.counted)} in {files}{tail}.", style="bold")
