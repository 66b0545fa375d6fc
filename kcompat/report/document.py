"""What one run tells its reader, whatever the format: findings and what was set aside."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kcompat.findings import Finding, Severity
from kcompat.rules.runner import Outcome


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
    fixtures: int = 0  # diff: findings about test specs, made infos

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
    ) -> Report:
        shown = tuple(f for f in outcome.findings if f.severity >= level)
        return Report(
            command,
            shown,
            files,
            base,
            head,
            released,
            hidden=len(outcome.findings) - len(shown),
            suppressed=len(outcome.suppressed),
            baselined=len(outcome.baselined),
            fixtures=outcome.fixtures,
        )

    def by_severity(self) -> list[Finding]:
        """Errors first, then warnings, then infos (accepted ones after the others of their
        severity); by place within each."""
        return sorted(self.findings, key=lambda f: (-f.severity, bool(f.accepted), *f.sort_key()))

    def count(self, severity: Severity) -> int:
        """Findings of a severity that count (not accepted by the configuration)."""
        return sum(1 for f in self.findings if f.severity is severity and not f.accepted)

    @property
    def counted(self) -> list[Finding]:
        """The findings that count: all shown but those the configuration accepts."""
        return [f for f in self.findings if not f.accepted]

    @property
    def accepted(self) -> int:
        return sum(1 for f in self.findings if f.accepted)

    def nothing_compared(self, base_label: str | None = None) -> str:
        """ "No spec file changed between A and B" when a comparison had nothing to compare
        (a summary then says that, not "no problems in 0 spec files"), else ""."""
        if self.files or self.findings or self.base is None or self.command != "diff":
            return ""
        return f"No spec file changed between {base_label or self.base} and {self.head}"

    def set_aside(self) -> str:
        """What was accepted, suppressed or hidden, e.g. "2 accepted by the
        configuration, 1 suppressed by ignore comments"; "" when nothing was."""
        parts = []
        if self.accepted:
            parts.append(f"{self.accepted} accepted by the configuration")
        if self.suppressed:
            parts.append(f"{self.suppressed} suppressed by ignore comments")
        if self.baselined:
            parts.append(f"{self.baselined} accepted by the baseline")
        if self.fixtures:
            parts.append(f"{self.fixtures} about test fixtures, at most info")
        if self.hidden:
            parts.append(f"{self.hidden} hidden by --level")
        return ", ".join(parts)


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
    failure)."""
    text = finding.message
    if finding.accepted:
        text += f"\naccepted: {finding.accepted}"
    elif finding.hint:
        text += hint.format(finding.hint)
    for note in finding.notes:
        text += f"\nnote: {note}"
    if finding.evidence is not None:
        text += "\n" + str(finding.evidence)
    return text
