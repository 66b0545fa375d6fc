"""Markdown for a pull-request comment or a job summary.

A verdict line, counts per rule, then every finding (errors first) in a table, and under
it the details of each: hint, why its versions count as released, notes and bytes.
GitHub refuses comments over 65,536 characters, so the report keeps under ``budget``:
errors in full first, then warnings and infos while they fit, then one line that says
how many were left out and how to see them all. Names and values from spec files are
:func:`~kcompat.escaping.shown`, HTML-escaped in text and table cells, made inert there
(:func:`~kcompat.report.markup.inert`: no @mention, issue reference, link, image or
autolink) and fenced so no backtick in them ends a code span or block. With
:class:`SourceLinks` (CI knows the repository's address) the commits and every location
link to the code.
"""

from __future__ import annotations

from collections import Counter

from kcompat.escaping import shown, shown_lines
from kcompat.findings import Finding, Severity
from kcompat.provenance import UNPINNED, Provenance
from kcompat.report.document import Report, plural, status
from kcompat.report.links import SourceLinks
from kcompat.report.markup import cell, html_line
from kcompat.report.markup import code as code  # importers of this module keep them
from kcompat.report.markup import escape as escape
from kcompat.report.markup import fenced as fenced
from kcompat.report.markup import inert as inert

#: GitHub's limit for a comment body is 65,536 characters; keep a margin for a marker.
BUDGET = 65_000
_ICON = {Severity.ERROR: "🔴", Severity.WARNING: "🟡", Severity.INFO: "🔵"}
_TITLE = {"diff": "compatibility check", "lint": "spec lint", "drift": "spec drift"}


def render_markdown(
    report: Report,
    *,
    budget: int = BUDGET,
    rest: str = "",
    links: SourceLinks | None = None,
    config: bool = True,
    pages: Provenance = UNPINNED,
) -> str:
    """The whole report if it fits ``budget`` characters, else errors first and a line
    saying what was left out (``rest`` says where to get it all); ``links`` name the
    commits and link each location to its line at HEAD; with ``config``, what the
    change's own configuration hides opens it (the Action gives that its own section);
    ``pages``: the kcompat whose rule pages the rule IDs link to (the Action's pinned
    commit; else ``main``)."""
    from kcompat.report.config_section import config_section

    head = _header(report, links) + (config_section(report) if config else [])
    if not report.findings:
        return "\n".join(head)
    ordered = report.by_severity()
    rules = _rule_table(report, pages)
    rows: list[str] = []
    blocks: list[str] = []
    size = len("\n".join([*head, *rules])) + 200  # the table header and the last line
    shown: list[Finding] = []
    for finding in ordered:
        row = _row(finding, links)
        block = _block(finding)
        cost = len(row) + len(block) + 2
        if size + cost > budget:
            break
        size += cost
        rows.append(row)
        if block:
            blocks.append(block)
        shown.append(finding)
    lines = [*head, *rules, "", "| | location | message | rule |", "|---|---|---|---|", *rows]
    if blocks:
        lines += ["", *blocks]
    if len(shown) < len(ordered):
        lines += ["", _truncation(ordered, shown, report, rest)]
    return "\n".join(lines)


def _header(report: Report, links: SourceLinks | None = None) -> list[str]:
    errors = report.count(Severity.ERROR)
    if errors:
        verdict = (
            "❌ **Breaking changes found**" if report.command == "diff" else "❌ **Errors found**"
        )
    else:
        verdict = "✅ **No errors**"
    aside = report.set_aside(lambda reason: code(reason, cell=False))
    counts = (
        f"{plural(errors, 'error')}, {plural(report.count(Severity.WARNING), 'warning')}, "
        f"{plural(report.count(Severity.INFO), 'info')}"
    )
    said = f"{verdict} in {plural(report.files, 'spec file')}: {counts}"
    if report.nothing_compared():
        said = "✅ **No spec file changed**"
    lines = [
        f"### kcompat {_TITLE.get(report.command, report.command)}",
        "",
        said + (f" ({aside})" if aside else "") + ".",
        "",
    ]
    if report.base is not None:
        base, head = code(report.base, cell=False), code(report.head or "", cell=False)
        if links is not None:
            base = f"{_commit(links, links.base_sha)} ({base})"
            head = f"{_commit(links, links.head_sha)} ({head})"
        lines += [f"Base {base}, head {head}.", ""]
    if report.released and report.findings:
        lines += [f"Released: {report.released}.", ""]
    if report.overview is not None:
        lines += [*(f"- {escape(line)}" for line in report.overview.lines), ""]
    return lines


def _rule_table(report: Report, pages: Provenance) -> list[str]:
    per_rule = Counter((f.rule, f.severity, status(f)) for f in report.findings)
    lines = ["| rule | severity | count |", "|---|---|---|"]
    for (rule_id, severity, why), n in sorted(
        per_rule.items(), key=lambda kv: (-kv[0][1], kv[0][2], kv[0][0])
    ):
        label = f"{severity.label} ({why})" if why else severity.label
        lines.append(f"| [{code(rule_id)}]({pages.rule_page(rule_id)}) | {label} | {n} |")
    return lines


def _commit(links: SourceLinks, sha: str) -> str:
    return f"[{code(links.short(sha), cell=False)}]({links.commit(sha)})"


def _row(finding: Finding, links: SourceLinks | None = None) -> str:
    icon = "✅" if finding.accepted else "🔇" if finding.suppressed else _ICON[finding.severity]
    where, rule = code(str(finding.location)), code(finding.rule)
    if links is not None and links.head_sha:
        where = f"[{where}]({links.line(finding.location.path, finding.location.line)})"
    return f"| {icon} | {where} | {cell(finding.message)} | {rule} |"


def _block(finding: Finding) -> str:
    """The folded details of a finding ("" when it has none)."""
    body = []  # one line each: a newline in a name never starts a line of its own
    if finding.accepted:
        body.append(shown(f"{status(finding)}: {finding.accepted}"))
    elif finding.suppressed:
        body.append(shown(f"suppressed: {finding.suppressed}"))
    elif finding.hint:
        body.append(shown(f"hint: {finding.hint}"))
    if finding.released_by and finding.severity >= Severity.WARNING:
        body.append(shown(f"why: {finding.released_by}"))
    body += [shown(f"note: {note}") for note in finding.notes]
    if finding.evidence is not None:
        body += shown_lines(str(finding.evidence))
    if not body:
        return ""
    return "\n".join(
        [
            f"<details><summary><code>{html_line(finding.rule)}</code> on "
            f"<code>{html_line(finding.message_name or finding.location.path)}</code> "
            f"{escape(finding.field_path)}</summary>",
            "",
            *fenced(body),
            "",
            "</details>",
        ]
    )


def _truncation(ordered: list[Finding], shown: list[Finding], report: Report, rest: str) -> str:
    parts = []
    for severity in (Severity.ERROR, Severity.WARNING, Severity.INFO):
        total = sum(1 for f in ordered if f.severity is severity)
        if total:
            seen = sum(1 for f in shown if f.severity is severity)
            parts.append(f"{seen} of {plural(total, severity.label)}")
    how = rest or f"run `kcompat {report.command} ... --format markdown` for the whole report"
    return (
        f"_Showing {len(shown)} of {len(ordered)} findings ({', '.join(parts)}): the rest "
        f"would pass GitHub's 65,536-character limit; {how}._"
    )
