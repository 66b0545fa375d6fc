"""How evolution (diff) rules are declared: one typed decorator per subject.

Most rules look at one message pair; the few that need the run's context (the release
policy, the tag ledger, the whole pairing) say so by declaring with
:func:`pair_rule_in_context`, and only they receive it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from kcompat.rules.engine import Reporter, Severity
from kcompat.rules.evolution.context import DiffContext
from kcompat.rules.evolution.pairing import MessagePair
from kcompat.rules.registry import Category, RuleKind, Runner, Subject, declaring

PairCheck = Callable[[MessagePair, Reporter], None]
PairInContextCheck = Callable[[MessagePair, Reporter, DiffContext], None]
SetCheck = Callable[[DiffContext, Reporter], None]


def pair_rule(
    rule_id: str, *, category: Category, severity: Severity, summary: str
) -> Callable[[PairCheck], PairCheck]:
    """A rule on one BASE/HEAD message pair."""
    return declaring(
        rule_id,
        kind=RuleKind.DIFF,
        category=category,
        severity=severity,
        summary=summary,
        subject=Subject.PAIR,
        adapt=_on_pair,
    )


def pair_rule_in_context(
    rule_id: str, *, category: Category, severity: Severity, summary: str
) -> Callable[[PairInContextCheck], PairInContextCheck]:
    """A rule on one message pair that also reads the run's context."""
    return declaring(
        rule_id,
        kind=RuleKind.DIFF,
        category=category,
        severity=severity,
        summary=summary,
        subject=Subject.PAIR,
        adapt=_on_pair_in_context,
    )


def set_rule(
    rule_id: str, *, category: Category, severity: Severity, summary: str
) -> Callable[[SetCheck], SetCheck]:
    """A rule on the whole run (messages removed or added, files that cannot be compared)."""
    return declaring(
        rule_id,
        kind=RuleKind.DIFF,
        category=category,
        severity=severity,
        summary=summary,
        subject=Subject.SET,
        adapt=_on_set,
    )


def _on_pair(check: PairCheck) -> Runner:
    return lambda subject, report, _context: check(cast(MessagePair, subject), report)


def _on_pair_in_context(check: PairInContextCheck) -> Runner:
    return lambda subject, report, context: check(
        cast(MessagePair, subject), report, cast(DiffContext, context)
    )


def _on_set(check: SetCheck) -> Runner:
    return lambda _subject, report, context: check(cast(DiffContext, context), report)
