"""How drift rules are declared: one typed decorator per subject (an upstream/local
message pair, or both spec sets; :mod:`kcompat.rules.drift.pairing` pairs them).

Brokers and client libraries vendor Kafka's specs. Unlike ``diff`` there is no before and
after: both ends talk to each other now, so every version both sides have must have the
same wire layout, whatever either side calls its files, messages or fields.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from kcompat.findings import Reporter
from kcompat.rules.drift.pairing import DriftPair as DriftPair
from kcompat.rules.drift.pairing import DriftSet as DriftSet
from kcompat.rules.drift.pairing import pair_drift as pair_drift
from kcompat.rules.registry import RuleKind, Runner, Subject, decorator

PairCheck = Callable[[DriftPair, Reporter], None]
SetCheck = Callable[[DriftSet, Reporter], None]


def _on_pair(check: PairCheck) -> Runner:
    return lambda subject, report, _context: check(cast(DriftPair, subject), report)


def _on_set(check: SetCheck) -> Runner:
    return lambda subject, report, _context: check(cast(DriftSet, subject), report)


#: A drift rule on one upstream/local message pair.
pair_rule = decorator(RuleKind.DRIFT, Subject.PAIR, _on_pair)
#: A drift rule on the two spec sets as a whole (messages only one side has).
set_rule = decorator(RuleKind.DRIFT, Subject.SET, _on_set)
