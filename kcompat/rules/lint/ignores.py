"""Ignore comments that do not do what they say: declared here, found by the runner.

:func:`kcompat.rules.runner.finish` reads every ``// kcompat: ignore[...]`` comment of the
files a command looks at (lint, diff or drift) and reports these.
"""

from __future__ import annotations

from kcompat.rules.engine import Severity
from kcompat.rules.registry import Category, RuleKind, elsewhere

IGNORE_UNKNOWN_RULE = elsewhere(
    "ignore-unknown-rule",
    kind=RuleKind.LINT,
    category=Category.SUPPRESSION,
    severity=Severity.WARNING,
    summary="An ignore comment names a rule that does not exist, so it silences nothing.",
    origin="kcompat.rules.runner:finish",
)

UNUSED_IGNORE = elsewhere(
    "unused-ignore",
    kind=RuleKind.LINT,
    category=Category.SUPPRESSION,
    severity=Severity.WARNING,
    summary="An ignore comment silences nothing (with --report-unused-ignores).",
    origin="kcompat.rules.runner:finish",
)
