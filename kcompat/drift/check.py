"""Drift's check: pair an upstream spec set with a local copy, prove the versions both lay
out alike, run the drift rules (:mod:`kcompat.rules.drift`), finish, and answer what a
vendor asks (:mod:`kcompat.drift.summary`).

Pure: spec files (and, when known, upstream's releases) in, an
:class:`~kcompat.rules.runner.Outcome` and a summary out, as :mod:`kcompat.lint.check`
is lint's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from kcompat.codec.compiler import CodeStore
from kcompat.config import Config
from kcompat.drift.summary import DriftSummary
from kcompat.drift.vintage import vintage
from kcompat.rules.drift.pairing import Release, pair_drift
from kcompat.rules.drift.proof import proven
from kcompat.rules.registry import Rule, Subject, all_rules
from kcompat.rules.runner import Call, Finishing, Outcome, compared, finish, run_rules
from kcompat.spec.specfile import SpecFile, comments_of


@dataclass(frozen=True)
class Drifted:
    outcome: Outcome
    summary: DriftSummary


def drift_check(
    upstream: Sequence[SpecFile],
    local: Sequence[SpecFile],
    config: Config | None = None,
    *,
    releases: Sequence[Release] = (),
    samples: int = 20,
    code_cache: CodeStore | None = None,
) -> Drifted:
    """Every drift finding between an upstream spec set and a local copy, and the summary
    (the closest of ``releases``, upstream's oldest first, when given)."""
    config = config if config is not None else Config()
    drift_set = pair_drift(upstream, local, releases)
    pairs = tuple(proven(pair, samples, code_cache) for pair in drift_set.pairs)
    drift_set = replace(drift_set, pairs=pairs)

    def calls(drift_rule: Rule) -> Iterator[Call]:
        if drift_rule.subject is Subject.SET:
            yield Call(drift_set)
            return
        for pair in drift_set.pairs:
            yield Call(pair, pair.local_spec.path, pair.local.name, pair.upstream_spec.path)

    how = Finishing(
        config=config,
        kinds=frozenset({"drift"}),
        comments=comments_of(local),
        subjects=compared((*upstream, *local)),
    )
    outcome = finish(run_rules(all_rules("drift"), calls), how)
    copy = [s.message for s in local if s.message is not None and s.message.name]
    dated = vintage(copy, releases) if releases else None
    return Drifted(outcome, DriftSummary.of(drift_set, dated))


def drift_specs(
    upstream: Sequence[SpecFile], local: Sequence[SpecFile], config: Config | None = None
) -> Outcome:
    """The findings of :func:`drift_check` alone."""
    return drift_check(upstream, local, config).outcome
