"""Ignore comments that do not do what they say: declared here, found by the runner.

:func:`kcompat.rules.runner.finish` reads every ``// kcompat: ignore[...]`` comment of the
files a command looks at (lint, diff or drift) and reports these.
"""

from __future__ import annotations

from kcompat.rules.engine import Severity, rule


@rule(
    "ignore-unknown-rule",
    kind="lint",
    category="suppression",
    severity=Severity.WARNING,
    summary="An ignore comment names a rule that does not exist, so it silences nothing.",
    scope="finish",
)
def ignore_unknown_rule(*_args: object) -> None:
    """Findings come from :func:`kcompat.rules.runner.finish` (any command's ignore comments)."""


@rule(
    "unused-ignore",
    kind="lint",
    category="suppression",
    severity=Severity.WARNING,
    summary="An ignore comment silences nothing (with --report-unused-ignores).",
    scope="finish",
)
def unused_ignore(*_args: object) -> None:
    """Findings come from :func:`kcompat.rules.runner.finish` when unused ignores are asked for."""
