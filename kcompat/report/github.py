"""GitHub Actions workflow commands: an annotation per finding, errors first.

GitHub shows at most 10 error and 10 warning annotations per step (and notices likewise);
``limit`` keeps to that budget, level by level: when a level has more than ``limit``, the
first ``limit - 1`` in full and, as the last one GitHub shows, an annotation that says how
many more there are and where to read them all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from kcompat import escaping as safe
from kcompat.findings import Finding, Severity
from kcompat.report.document import Report, counts_phrase, details, plural, set_aside

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
#: Annotations GitHub shows per level and step.
PER_LEVEL = 10


def escape(text: str, *, prop: bool = False) -> str:
    """A workflow command's data (or, with ``prop``, a property value, one line); nothing
    in it a log viewer or terminal acts on."""
    text = safe.shown(text) if prop else safe.shown_block(text)
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def level_of(finding: Finding) -> str:
    """Accepted and suppressed findings are notices: shown, never failing."""
    return "notice" if set_aside(finding) else _LEVEL[finding.severity]


def annotation(finding: Finding) -> str:
    props = (
        f"file={escape(finding.location.path, prop=True)},line={finding.location.line},"
        f"col={finding.location.column},title={escape('kcompat ' + finding.rule, prop=True)}"
    )
    return f"::{level_of(finding)} {props}::{escape(details(finding, hint=' (hint: {})'))}"


def render_github(report: Report, *, limit: int | None = None, rest: str = "") -> str:
    """Every finding as an annotation (errors first), then a summary line; with ``limit``,
    at most that many per level, the last of them saying how many more there are
    (``rest`` says where to find them)."""
    lines = annotation_lines(report.by_severity(), limit=limit, rest=rest)
    return "\n".join([*lines, summary_line(report)])


def annotation_lines(
    findings: Sequence[Finding], *, limit: int | None = None, rest: str = ""
) -> list[str]:
    """One annotation per finding in the given order; with ``limit``, a level that has more
    than ``limit`` shows ``limit - 1`` and then one that counts the rest, so the count is
    inside what GitHub shows."""
    totals = Counter(level_of(finding) for finding in findings)
    budget = {
        level: total if limit is None or total <= limit else limit - 1
        for level, total in totals.items()
    }
    lines = []
    shown: Counter[str] = Counter()
    for finding in findings:
        level = level_of(finding)
        if shown[level] < budget[level]:
            shown[level] += 1
            lines.append(annotation(finding))
        elif shown[level] == budget[level]:  # the first one over: count the rest, once
            shown[level] += 1
            more = plural(totals[level] - budget[level], level)
            text = f"kcompat: {more} more than GitHub shows per step. {rest}".rstrip()
            lines.append(f"::{level} title=kcompat::{escape(text)}")
    return lines


def summary_line(report: Report) -> str:
    """The last line: what was found in how many files, and what was set aside."""
    aside = report.set_aside()
    said = report.nothing_compared() or (
        f"{counts_phrase(report.counted)} in {plural(report.files, 'spec file')}"
    )
    return safe.shown(f"kcompat {report.command}: {said}" + (f" ({aside})" if aside else ""))
