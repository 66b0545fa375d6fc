"""How drift rules are declared: the upstream/local message pairs they look at, and one
typed decorator per subject.

Brokers and client libraries vendor Kafka's specs. Unlike ``diff`` there is no before and
after: both ends talk to each other now, so every version both sides have must have the
same wire layout, whatever either side calls its files or fields. Messages are matched
by name, so a copy with snake_case file names or another folder layout pairs up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from kcompat.findings import Reporter
from kcompat.rules.registry import RuleKind, Runner, Subject, decorator
from kcompat.spec.model import Message
from kcompat.spec.specfile import SpecFile
from kcompat.spec.versions import Versions


@dataclass(frozen=True)
class DriftPair:
    """One message as upstream and the local copy define it."""

    upstream: Message
    local: Message
    upstream_spec: SpecFile
    local_spec: SpecFile

    @property
    def shared(self) -> Versions:
        return self.upstream.valid_versions & self.local.valid_versions


@dataclass(frozen=True)
class DriftSet:
    pairs: tuple[DriftPair, ...]
    upstream_only: tuple[SpecFile, ...]
    local_only: tuple[SpecFile, ...]
    unreadable: tuple[tuple[str, SpecFile], ...] = ()  # ("upstream" or "local", the file)


def pair_drift(upstream: Sequence[SpecFile], local: Sequence[SpecFile]) -> DriftSet:
    up = {s.message.name: s for s in upstream if s.message is not None}
    lo = {s.message.name: s for s in local if s.message is not None}
    pairs = []
    for name in sorted(up.keys() & lo.keys()):
        u, l_ = up[name], lo[name]
        assert u.message is not None and l_.message is not None
        pairs.append(DriftPair(u.message, l_.message, u, l_))
    return DriftSet(
        tuple(pairs),
        tuple(up[n] for n in sorted(up.keys() - lo.keys())),
        tuple(lo[n] for n in sorted(lo.keys() - up.keys())),
        tuple(
            (side, spec)
            for side, specs in (("upstream", upstream), ("local", local))
            for spec in specs
            if spec.message is None
        ),
    )


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
