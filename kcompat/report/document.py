"""What one run tells its reader, whatever the format: findings and what was set aside."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kcompat.escaping import shown
from kcompat.findings import Finding, Severity
from kcompat.rules.runner import Outcome
from kcompat.rules.suppress import NO_REASON


@dataclass(frozen=True)
class Overview:
    """What a command answers beside its findings, in words (a line each) and as data
    (the JSON report's object named after the command): drift's summary for a vendor."""

    lines: tuple[str, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Report:
    """The findings to show and the counts every format states beside them."""

    command: str  # lint, diff, drift, ...
    findings: tuple[Finding, ...]  # shown, sorted by place
    files: int  # spec files looked at
    base: str | None = None  # diff and drift: the two sides as the user named them
    head: str | None = None
    released: str = ""  # diff: which versions counted as released
    hidden: int = 0  # below --level
    suppressed: int = 0  # silenced by inline ignore comments
    baselined: int = 0  # accepted by --baseline
    base_label: str = "BASE"  # what the text format calls BASE ("upstream" for drift)
    fixtures: int = 0  # diff: findings about test specs, made infos
    suppressions: tuple[tuple[str, int], ...] = ()  # each ignore comment reason, how many
    overview: Overview | None = None  # drift: what a vendor asks, answered

    @staticmethod
    def of(
        command: str,
        outcome: Outcome,
        *,
        files: int,
        level: Severity = Severity.INFO,
        base: str | None = None,
        head: str | None = None,
        released: str = "",
        show_suppressed: bool = False,
        base_label: str = "BASE",
        overview: Overview | None = None,
    ) -> Report:
        """The report of ``outcome`` at ``level``; with ``show_suppressed``, the findings
        ignore comments silence are listed too (marked, never counting)."""
        shown = tuple(f for f in outcome.findings if f.severity >= level)
        silenced = tuple(f for f in outcome.suppressed if f.severity >= level)
        return Report(
            command,
            shown + silenced if show_suppressed else shown,
            files,
            base,
            head,
            released,
            hidden=len(outcome.findings) - len(shown),
            suppressed=len(outcome.suppressed),
            baselined=len(outcome.baselined),
            fixtures=outcome.fixtures,
            suppressions=tuple(Counter(f.suppressed for f in outcome.suppressed).most_common()),
            base_label=base_label,
            overview=overview,
        )

    def by_severity(self) -> list[Finding]:
        """Errors first, then warnings, then infos (accepted and suppressed ones after the
        others of their severity); by place within each."""
        return sorted(self.findings, key=lambda f: (-f.severity, set_aside(f), *f.sort_key()))

    def count(self, severity: Severity) -> int:
        """Findings of a severity that count (not accepted, not suppressed)."""
        return sum(1 for f in self.findings if f.severity is severity and not set_aside(f))

    @property
    def counted(self) -> list[Finding]:
        """The findings that count: all shown but those accepted or suppressed."""
        return [f for f in self.findings if not set_aside(f)]

    @property
    def accepted(self) -> int:
        return sum(1 for f in self.findings if f.accepted)

    @property
    def accepted_in_change(self) -> int:
        """Accepted by what the change adds: its configuration's settings, or ignore
        comments BASE's files do not hold (diff)."""
        return sum(1 for f in self.findings if f.accepted and f.weakened_by)

    def nothing_compared(self, base_label: str | None = None) -> str:
        """ "No spec file changed between A and B" when a comparison had nothing to compare
        (a summary then says that, not "no problems in 0 spec files"), else ""."""
        if self.files or self.findings or self.base is None or self.command != "diff":
            return ""
        return f"No spec file changed between {base_label or self.base} and {self.head}"

    def set_aside(self, quote: Callable[[str], str] = '"{}"'.format) -> str:
        """What was accepted, suppressed or hidden, e.g. "1 accepted in this change, 2
        accepted by the configuration, 1 suppressed by ignore comments ("KIP-12")"; ""
        when nothing was. Each reason is written by ``quote``."""
        parts = []
        if self.accepted_in_change:
            parts.append(f"{self.accepted_in_change} accepted in this change")
        lowered = sum(1 for f in self.findings if f.weakened_by and not set_aside(f))
        if lowered:
            parts.append(f"{lowered} lowered in this change")
        if self.accepted - self.accepted_in_change:
            parts.append(f"{self.accepted - self.accepted_in_change} accepted by the configuration")
        if self.suppressed:
            parts.append(f"{self.suppressed} suppressed by ignore comments ({self.reasons(quote)})")
        if self.baselined:
            parts.append(f"{self.baselined} accepted by the baseline")
        if self.fixtures:
            parts.append(f"{self.fixtures} about test fixtures, at most info")
        if self.hidden:
            parts.append(f"{self.hidden} hidden by --level")
        return ", ".join(parts)

    def reasons(self, quote: Callable[[str], str] = '"{}"'.format, most: int = 3) -> str:
        """The ignore comments' reasons, most used first: ``"KIP-12" ×2, no reason given``."""
        said = [
            (reason if reason == NO_REASON else quote(reason)) + (f" ×{n}" if n > 1 else "")
            for reason, n in self.suppressions[:most]
        ]
        rest = sum(n for _reason, n in self.suppressions[most:])
        return ", ".join(said) + (f" and {rest} more" if rest else "")


def set_aside(finding: Finding) -> bool:
    """Whether a finding is listed without counting: accepted, or silenced by a comment."""
    return bool(finding.accepted or finding.suppressed)


def status(finding: Finding) -> str:
    """Why a listed finding does not count as its severity says ("" when it does):
    ``accepted``, ``accepted in this change``, ``suppressed``, ``lowered in this change``."""
    if finding.accepted:
        return "accepted in this change" if finding.weakened_by else "accepted"
    if finding.suppressed:
        return "suppressed"
    return "lowered in this change" if finding.weakened_by else ""


def plural(count: int, word: str) -> str:
    """``1 error``, ``2 errors``, ``1 spec file``, ``3 spec files``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def counts_phrase(findings: Sequence[Finding]) -> str:
    """``2 errors, 1 warning`` (only severities present), or ``no problems``."""
    parts = []
    for severity in (Severity.ERROR, Severity.WARNING, Severity.INFO):
        n = sum(1 for f in findings if f.severity is severity)
        if n:
            parts.append(plural(n, severity.label))
    return ", ".join(parts) if parts else "no problems"


def details(finding: Finding, *, hint: str = " Hint: {}") -> str:
    """A finding's message with its acceptance, hint (placed by the ``hint`` format),
    notes and counterexample, as plain text (an annotation, a SARIF result, a JUnit
    failure). Each part is one line with what came from a spec escaped: a newline in a
    name never starts a line of its own."""
    text = shown(finding.message)
    if finding.accepted:
        text += f"\n{status(finding)}: {shown(finding.accepted)}"
    elif finding.suppressed:
        text += f"\nsuppressed: {shown(finding.suppressed)}"
    elif finding.hint:
        text += hint.format(shown(finding.hint))
    for note in finding.notes:
        text += f"\nnote: {shown(note)}"
    if finding.evidence is not None:
        text += "\n" + str(finding.evidence)  # a line per row, each escaped
    return text


def distinct_fingerprints(findings: Sequence[Finding]) -> list[str]:
    """One fingerprint per finding, none repeated (SARIF's ``partialFingerprints`` and
    GitLab's ``fingerprint`` each name one alert). A finding's own fingerprint ignores
    lines and files, so it survives moved lines and renames; findings of a report that
    share one (the same message in two files, the same duplicate key twice in a file) are
    told apart by their file, then their line and column, then their order, all of them
    alike, so which one came first does not decide whose fingerprint stays."""
    keys: list[tuple[str, ...]] = [(f.fingerprint,) for f in findings]
    for part in (lambda f: f.location.path, lambda f: f"{f.location.line}:{f.location.column}"):
        counts = Counter(keys)
        keys = [(*k, part(f)) if counts[k] > 1 else k for k, f in zip(keys, findings, strict=True)]
    seen: Counter[tuple[str, ...]] = Counter()
    ordered = []
    for key in keys:
        seen[key] += 1
        ordered.append((*key, str(seen[key])) if seen[key] > 1 else key)
    return [k[0] if len(k) == 1 else _digest(k) for k in ordered]


def _digest(parts: tuple[str, ...]) -> str:
    raw = "\x1f".join(parts).encode("utf-8", "surrogatepass")
    return hashlib.sha256(raw).hexdigest()[:16]
