"""Every command's verdict: the exit status its findings give, and the severity
``--level`` shows from. Beside the CLI, not in it: the GitHub Action's step and the
Spark commands reach the same verdict without the typer app.

Exit codes: 0 clean, 1 findings at or above ``--fail-on``, 2 bad usage or unreadable
input (:class:`~kcompat.errors.UsageError`), 3 internal errors reported by a run.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from kcompat.modes import FailOn, Level

if TYPE_CHECKING:  # imported when a verdict is asked for: ``kcompat --version`` needs none
    from kcompat.findings import Finding, Severity

__all__ = ["FailOn", "Level", "exit_status", "severity_of"]


def exit_status(
    findings: Iterable[Finding | Severity],
    fail_on: FailOn | None = None,
    configured: FailOn = FailOn.error,
    *,
    internal: int = 0,
) -> int:
    """3 when the run reported internal errors (the Spark commands' ``internal-error``
    findings), else 1 when a finding (or a bare severity) is at or above ``--fail-on``
    (default: the configured ``fail-on``, else error); findings the configuration accepts
    ([[ignore]]) never fail."""
    from kcompat.findings import Severity

    if internal:
        return 3
    threshold = (fail_on if fail_on is not None else configured).threshold
    for found in findings:
        if isinstance(found, Severity):
            if found >= threshold:
                return 1
        elif found.severity >= threshold and not found.accepted:
            return 1
    return 0


def severity_of(level: Level) -> Severity:
    """The lowest severity ``--level`` shows."""
    from kcompat.findings import Severity

    return Severity[level.name.upper()]
