"""Findings as LSP diagnostics: the rule as the code, its page as the link, exact ranges.

A finding points at a position (the start of a key or a value); the diagnostic covers the
whole token there: a key, a string, a number. A finding about an object (a field without
``versions``) covers the object's name when it has one, else its opening brace, so an
editor underlines a word, not a whole block.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path

from lsprotocol import types

from kcompat.escaping import shown
from kcompat.findings import Finding, Severity
from kcompat.lsp.documents import Parsed
from kcompat.provenance import installed

SOURCE = "kcompat"

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}


@cache
def rule_link(rule_id: str) -> str:
    """A rule's page for the diagnostic's link: in kcompat's repository at the commit pip
    installed it from; else (a checkout, an editable install) the page shipped with it,
    which is the running version's own."""
    origin = installed()
    if origin.ref is None:
        page = resources.files("kcompat").joinpath(f"data/rules/{rule_id}.md")
        try:
            return Path(str(page)).resolve(strict=True).as_uri()
        except (OSError, RuntimeError):
            pass  # not a file on disk (a zip): the repository's page
    return origin.rule_page(rule_id)


def finding_range(finding: Finding, parsed: Parsed) -> types.Range:
    """The editor range of what a finding points at."""
    location = finding.location
    pos = (location.line, location.column)
    start, end = parsed.span(pos)
    if start < len(parsed.text) and parsed.text[start] == "{":
        obj = parsed.object_at(pos)
        if obj is not None and isinstance(obj.get("name"), str):
            start, end = parsed.span(obj.value_pos["name"])
    return text_range(parsed, start, end)


def text_range(parsed: Parsed, start: int, end: int) -> types.Range:
    """The editor range of the offsets ``start`` to ``end``."""
    first = parsed.index.position(start)
    last = parsed.index.position(max(end, start))
    return types.Range(
        start=types.Position(line=first[0], character=first[1]),
        end=types.Position(line=last[0], character=last[1]),
    )


def diagnostic(finding: Finding, parsed: Parsed) -> types.Diagnostic:
    """One finding as a diagnostic; its hint and why travel in the message (and the hint
    in ``data``, for the quick fixes)."""
    lines = [shown(finding.message)]
    if finding.hint:
        lines.append(f"hint: {shown(finding.hint)}")
    if finding.released_by:
        lines.append(f"why: {shown(finding.released_by)}")
    lines.extend(f"note: {shown(note)}" for note in finding.notes)
    severity = _SEVERITY[finding.severity]
    if finding.accepted:
        lines.append(f"accepted: {shown(finding.accepted)}")
        severity = types.DiagnosticSeverity.Hint
    return types.Diagnostic(
        range=finding_range(finding, parsed),
        message="\n".join(lines),
        severity=severity,
        code=finding.rule,
        code_description=types.CodeDescription(href=rule_link(finding.rule)),
        source=SOURCE,
        data={"rule": finding.rule, "hint": finding.hint},
    )


def diagnostics(findings: Iterable[Finding], parsed: Parsed) -> list[types.Diagnostic]:
    """The findings located in ``parsed``'s file, as diagnostics, in order."""
    return [diagnostic(f, parsed) for f in findings if f.location.path == parsed.path]
