"""Drift's check: pair an upstream spec set with a local copy, run the drift rules
(:mod:`kcompat.rules.drift`), finish.

Pure: spec files in, an :class:`~kcompat.rules.runner.Outcome` out, as
:mod:`kcompat.lint.check` is lint's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from kcompat.config import Config
from kcompat.rules.drift.adapters import pair_drift
from kcompat.rules.registry import Rule, Subject, all_rules
from kcompat.rules.runner import Call, Finishing, Outcome, compared, finish, run_rules
from kcompat.spec.specfile import SpecFile


def drift_specs(
    upstream: Sequence[SpecFile], local: Sequence[SpecFile], config: Config | None = None
) -> Outcome:
    """Every drift finding between an upstream spec set and a local copy (pure)."""
    config = config if config is not None else Config()
    drift_set = pair_drift(upstream, local)

    def calls(drift_rule: Rule) -> Iterator[Call]:
        if drift_rule.subject is Subject.SET:
            yield Call(drift_set)
            return
        for pair in drift_set.pairs:
            yield Call(pair, pair.local_spec.path, pair.local.name, pair.upstream_spec.path)

    how = Finishing(
        config=config,
        kinds=frozenset({"drift"}),
        comments={s.path: s.document.comments for s in local if s.document is not None},
        subjects=compared((*upstream, *local)),
    )
    return finish(run_rules(all_rules("drift"), calls), how)
