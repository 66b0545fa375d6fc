"""How evolution (diff) rules are declared: one typed decorator per subject.

Field-change rules look at one matched field pair, message rules at one message pair; the
few that need the run's context (the release policy, the tag ledger, the whole pairing)
say so by declaring with :func:`pair_rule_in_context`, and only they receive it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from kcompat.findings import Reporter
from kcompat.rules.evolution.context import DiffContext
from kcompat.rules.evolution.pairing import FieldPair, MessagePair
from kcompat.rules.registry import RuleKind, Runner, Subject, decorator
from kcompat.spec.model import Field

PairCheck = Callable[[MessagePair, Reporter], None]
PairInContextCheck = Callable[[MessagePair, Reporter, DiffContext], None]
SetCheck = Callable[[DiffContext, Reporter], None]
FieldPairCheck = Callable[[FieldPair, Reporter], None]
DefinitionCheck = Callable[[str, Field, Field, Reporter], None]


def _on_pair(check: PairCheck) -> Runner:
    return lambda subject, report, _context: check(cast(MessagePair, subject), report)


def _on_pair_in_context(check: PairInContextCheck) -> Runner:
    return lambda subject, report, context: check(
        cast(MessagePair, subject), report, cast(DiffContext, context)
    )


def _on_each_field_pair(check: FieldPairCheck) -> Runner:
    def run(subject: object, report: Reporter, _context: object) -> None:
        for match in cast(MessagePair, subject).matched_fields():
            check(match, report.about(match.head.path, match.versions))

    return run


def _on_each_definition(check: DefinitionCheck) -> Runner:
    def run(subject: object, report: Reporter, _context: object) -> None:
        for path, base, head in cast(MessagePair, subject).unique_matched_fields():
            check(path, base, head, report.about(path))

    return run


def _on_set(check: SetCheck) -> Runner:
    return lambda _subject, report, context: check(cast(DiffContext, context), report)


#: A rule on one BASE/HEAD message pair.
pair_rule = decorator(RuleKind.DIFF, Subject.PAIR, _on_pair)
#: A rule on one field matched by name in BASE and HEAD, with the released versions where
#: its two sides are exactly these (the reporter names the field and those versions).
field_pair_rule = decorator(RuleKind.DIFF, Subject.PAIR, _on_each_field_pair)
#: A rule on one field's definition in BASE and HEAD (matched by name; once, however many
#: versions it spans): its path, both definitions, a reporter naming the path.
definition_rule = decorator(RuleKind.DIFF, Subject.PAIR, _on_each_definition)
#: A rule on one message pair that also reads the run's context.
pair_rule_in_context = decorator(RuleKind.DIFF, Subject.PAIR, _on_pair_in_context)
#: A rule on the whole run (messages removed or added, files that cannot be compared).
set_rule = decorator(RuleKind.DIFF, Subject.SET, _on_set)
