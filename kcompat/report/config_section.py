"""The Markdown section on what the change's own configuration hides
(``config-weakened``, issue 22.4): each weakening setting, and the findings accepted (or
lowered) in this change. It opens ``--format markdown`` reports; the Action gives it a
section of its own (:func:`kcompat.ci.comment.accepted_section`), sized before the
findings, so the comment's size limit never cuts what a reviewer must not miss."""

from __future__ import annotations

from kcompat.report.document import Report, plural, status
from kcompat.report.markup import code, escape

#: Findings accepted in this change listed in the section; the table below has them all.
LISTED = 20


def config_section(report: Report) -> list[str]:
    """The section's lines ([] when the configuration does not weaken the gate)."""
    settings = [f for f in report.by_severity() if f.rule == "config-weakened"]
    hidden = [f for f in report.by_severity() if f.weakened_by]
    if not settings and not hidden:
        return []
    lines = ["#### ⚠️ This change edits kcompat's configuration", ""]
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
    return [*lines, ""]
