"""How evolution (diff) rules are declared: one typed decorator per subject.

Most rules look at one message pair; the few that need the run's context (the release
policy, the tag ledger, the whole pairing) say so by declaring with
:func:`pair_rule_in_context`, and only they receive it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from kcompat.rules.engine import Reporter
from kcompat.rules.evolution.context import DiffContext
from kcompat.rules.evolution.pairing import MessagePair
from kcompat.rules.registry import RuleKind, Runner, Subject, decorator

PairCheck = Callable[[MessagePair, Reporter], None]
PairInContextCheck = Callable[[MessagePair, Reporter, DiffContext], None]
SetCheck = Callable[[DiffContext, Reporter], None]


def _on_pair(check: PairCheck) -> Runner:
    return lambda subject, report, _context: check(cast(MessagePair, subject), report)


def _on_pair_in_context(check: PairInContextCheck) -> Runner:
    return lambda subject, report, context: check(
        cast(MessagePair, subject), report, cast(DiffContext, context)
    )


def _on_set(check: SetCheck) -> Runner:
    return lambda _subject, report, context: check(cast(DiffContext, context), report)


#: A rule on one BASE/HEAD message pair.
pair_rule = decorator(RuleKind.DIFF, Subject.PAIR, _on_pair)
#: A rule on one message pair that also reads the run's context.
pair_rule_in_context = decorator(RuleKind.DIFF, Subject.PAIR, _on_pair_in_context)
#: A rule on the whole run (messages removed or added, files that cannot be compared).
set_rule = decorator(RuleKind.DIFF, Subject.SET, _on_set)
