"""The Markdown section on what the change accepts of its own: what its configuration
hides (``config-weakened``, issue 22.4): each weakening setting and the findings
accepted (or lowered) in this change; and each finding an ignore comment the change
adds accepts, listed as "accepted by this change: rule, field, reason" (issue 32.3),
never only counted. It opens ``--format markdown`` reports; the Action gives it a
section of its own (:func:`kcompat.ci.comment.accepted_section`), sized before the
findings, so the comment's size limit never cuts what a reviewer must not miss."""

from __future__ import annotations

from kcompat.findings import Finding
from kcompat.report.document import Report, plural, status
from kcompat.report.markup import code, escape
from kcompat.rules.runner import BY_COMMENT

#: Findings accepted in this change listed in the section; the table below has them all.
LISTED = 20


def config_section(report: Report) -> list[str]:
    """The section's lines ([] when the change accepts nothing of its own)."""
    settings = [f for f in report.by_severity() if f.rule == "config-weakened"]
    changed = [f for f in report.by_severity() if f.weakened_by]
    commented = [f for f in changed if f.weakened_by.startswith(BY_COMMENT)]
    hidden = [f for f in changed if not f.weakened_by.startswith(BY_COMMENT)]
    if not settings and not changed:
        return []
    lines = _settings_lines(settings, hidden)
    if commented:
        if settings or hidden:
            lines.append("")
        lines += _commented_lines(commented)
    return [*lines, ""]


def _settings_lines(settings: list[Finding], hidden: list[Finding]) -> list[str]:
    """The heading, the weakening settings and what they hide."""
    if settings or hidden:
        lines = ["#### ⚠️ This change edits kcompat's configuration", ""]
    else:
        lines = ["#### ⚠️ This change accepts breaks", ""]
    if hidden:
        lines += [
            f"Its own settings hide or lower {plural(len(hidden), 'finding')} that BASE's "
            "configuration reports; each is listed as accepted (or lowered) in this change.",
            "",
        ]
    lines += [f"- {code(str(f.location), cell=False)}: {escape(f.message)}" for f in settings]
    if hidden:
        lines += ["", "Hidden by this change's configuration:", ""]
        for finding in hidden[:LISTED]:
            where = code(str(finding.location), cell=False)
            rule = code(finding.rule, cell=False)
            lines.append(
                f"- {finding.severity.label} ({status(finding)}) {where} {rule}: "
                f"{escape(finding.message)} (by {code(finding.weakened_by, cell=False)})"
            )
        if len(hidden) > LISTED:
            lines.append(f"- and {len(hidden) - LISTED} more, in the table below")
    return lines


def _commented_lines(commented: list[Finding]) -> list[str]:
    """What the ignore comments the change adds accept, one line each."""
    lines = [
        f"Ignore comments this change adds accept {plural(len(commented), 'finding')} "
        "(rule, field, reason):",
        "",
    ]
    lines += [_accepted_line(finding) for finding in commented[:LISTED]]
    if len(commented) > LISTED:
        lines.append(f"- and {len(commented) - LISTED} more, in the table below")
    return lines


def _accepted_line(finding: Finding) -> str:
    """``- accepted by this change: `rule`, `Message.Field`, reason (...)``."""
    subject = ".".join(part for part in (finding.message_name, finding.field_path) if part)
    field = code(subject or str(finding.location), cell=False)
    where = code(str(finding.location), cell=False)
    return (
        f"- accepted by this change: {code(finding.rule, cell=False)}, {field}, "
        f"{escape(finding.accepted)} ({finding.severity.label} at {where}, by "
        f"{code(finding.weakened_by, cell=False)})"
    )
