"""Ignore comments that do not do what they say: declared here, found by the runner.

:func:`kcompat.rules.runner.finish` reads every ``// kcompat: ignore[...]`` comment of the
files a command looks at (lint, diff or drift) and reports these.
"""

from __future__ import annotations

from kcompat.findings import Severity
from kcompat.rules.registry import Category, Elsewhere, RuleKind, elsewhere

_FINISH = "kcompat.rules.runner:finish"

IGNORE_UNKNOWN_RULE, UNUSED_IGNORE = elsewhere(
    RuleKind.LINT,
    (
        Elsewhere("ignore-unknown-rule", Category.SUPPRESSION, Severity.WARNING, _FINISH),
        "An ignore comment names a rule that does not exist, so it silences nothing.",
    ),
    (
        Elsewhere("unused-ignore", Category.SUPPRESSION, Severity.WARNING, _FINISH),
        "An ignore comment silences nothing (with --report-unused-ignores).",
    ),
)
