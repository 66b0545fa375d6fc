"""GitHub Actions workflow commands: an annotation per finding, errors first.

GitHub shows at most 10 error and 10 warning annotations per step (and notices likewise);
``limit`` keeps to that budget: the first ones in full, then one annotation that says how
many more there are and where to read them all.
"""

from __future__ import annotations

from kcompat import escaping as safe
from kcompat.findings import Finding, Severity
from kcompat.report.document import Report, counts_phrase, details, plural

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
    """Accepted findings are notices: shown, never failing."""
    return "notice" if finding.accepted else _LEVEL[finding.severity]


def annotation(finding: Finding) -> str:
    props = (
        f"file={escape(finding.location.path, prop=True)},line={finding.location.line},"
        f"col={finding.location.column},title={escape('kcompat ' + finding.rule, prop=True)}"
    )
    return f"::{level_of(finding)} {props}::{escape(details(finding, hint=' (hint: {})'))}"


def render_github(report: Report, *, limit: int | None = None, rest: str = "") -> str:
    """Every finding as an annotation (errors first), then a summary line; with ``limit``,
    at most that many per level, and one more annotation for the rest (``rest`` says
    where to find them)."""
    lines = []
    shown: dict[str, int] = {}
    left: dict[str, int] = {}
    for finding in report.by_severity():
        level = level_of(finding)
        if limit is not None and shown.get(level, 0) >= limit:
            left[level] = left.get(level, 0) + 1
            continue
        shown[level] = shown.get(level, 0) + 1
        lines.append(annotation(finding))
    if left:
        counts = ", ".join(f"{plural(n, level)}" for level, n in sorted(left.items()))
        where = f" {rest}" if rest else ""
        text = f"kcompat: {counts} more than GitHub shows per step.{where}"
        top = "error" if "error" in left else "warning" if "warning" in left else "notice"
        lines.append(f"::{top} title=kcompat::{escape(text)}")
    aside = report.set_aside()
    said = report.nothing_compared() or (
        f"{counts_phrase(report.counted)} in {plural(report.files, 'spec file')}"
    )
    lines.append(safe.shown(f"kcompat {report.command}: {said}" + (f" ({aside})" if aside else "")))
    return "\n".join(lines)
