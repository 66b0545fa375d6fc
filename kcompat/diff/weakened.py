"""A change may accept its own breaks, never unseen: the ``config-weakened`` review.

``kcompat diff`` judges a change by the configuration in use, which the change itself
may have edited: a pull request that breaks a spec and adds ``disable =
["field-type-changed"]`` would otherwise pass with "No errors". This review reads the
configuration on BASE's side and on HEAD's (:mod:`kcompat.sources.config_at`), lists
every setting that differs (:mod:`kcompat.rules.config_change`), and weighs each: the
comparison's raw findings, run once with every rule either side runs, are finished
under BASE's configuration and under BASE's with that one setting as HEAD has it
(settings that decide what is read, ``paths`` and the release settings, read the sides
again). A setting that can hide findings, or hides some here, is a ``config-weakened``
finding (judged by BASE's configuration, which the change cannot edit); every finding
it hides is listed, accepted in this change, with the setting as its reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from kcompat.config import Acceptance, Config, ConfigError
from kcompat.diff.check import Unfinished, unfinished
from kcompat.diff.options import RunOptions
from kcompat.diff.prepared import PreparedPair, prepare_pair
from kcompat.errors import UsageError
from kcompat.findings import Finding, Location
from kcompat.modes import ReleasedMode
from kcompat.rules.config_change import Matcher, SettingChange, setting_changes
from kcompat.rules.registry import rule_categories
from kcompat.rules.runner import Finishing, Outcome, finish
from kcompat.rules.weakening import Blame, hidden, listed, no_longer_failing, weakening_finding
from kcompat.sources.config_at import SideConfig, config_on, spec_paths
from kcompat.sources.release_source import release_branches, release_tags
from kcompat.sources.source import SpecSource

#: (pathspecs, released mode, release-tags, release-branches): what reading a side needs
ReadKey = tuple[tuple[str, ...], ReleasedMode, str, str]


@dataclass(frozen=True)
class Review:
    """The outcome with the review's findings, and what to tell the user."""

    outcome: Outcome
    note: str = ""


def base_configuration(options: RunOptions, base: SpecSource, in_use: Config) -> SideConfig | None:
    """The configuration BASE's side holds (None: BASE has none of its own, a folder)."""
    return config_on(base, in_use, options.config_choice, rules=rule_categories)


def review_configuration(
    options: RunOptions,
    base: SpecSource,
    head: SpecSource,
    in_use: Config,
    prepared: PreparedPair,
    outcome: Outcome,
    before: SideConfig | None,
) -> Review:
    """``outcome`` (the comparison under the configuration in use) with a
    ``config-weakened`` finding per weakening setting and what each hides listed;
    ``before`` is :func:`base_configuration`."""
    choice = options.config_choice
    after = config_on(head, in_use, choice, rules=rule_categories)
    if before is None or after is None or base.repo is None:
        return Review(outcome)
    note = "; ".join(n for n in (before.note, after.note) if n)
    changes = [
        change
        for change in setting_changes(before.config, after.config, _matcher(base))
        if not (change.key == "released" and options.released)  # the option decides
    ]
    if not changes:
        return Review(outcome, note)
    repo = base.repo
    old, new = spec_paths(before.config, repo), spec_paths(after.config, repo)
    runs = _Runs(options, base, head, before.config.disabled & after.config.disabled)
    runs.settled = before.config.ignore
    runs.seed(_read_key(options, in_use, spec_paths(in_use, repo)), prepared)
    widest = () if not old or not new else tuple(sorted({*old, *new}))
    counts: dict[int, int | None] = {}
    blame = Blame((), {})
    try:
        reference = [
            f
            for f in runs.outcome(before.config, widest).findings
            if f.location.path not in {before.config.label, after.config.label}
        ]
        blame = _blame(runs, changes, before.config, reference, (widest, new), counts)
        blame = replace(blame, thresholds=(before.config.fail_on, after.config.fail_on))
    except (UsageError, ConfigError) as err:  # BASE's settings cannot be applied here
        note = "; ".join(n for n in (note, f"BASE's configuration: {err}") if n)
    found = _weakening_findings(changes, counts, before.config, after.config)
    shown = listed(outcome.findings, outcome.baselined, blame)
    judge = replace(before.config, report_unused_ignores=False)  # its entries judge the specs'
    # BASE's own entries accept none of this change's weakenings: each is new
    settled = frozenset(before.config.ignore)
    review = finish(
        found, Finishing(config=judge, baseline=options.baseline, settled_entries=settled)
    )
    return Review(
        Outcome(
            tuple(sorted([*shown, *review.findings], key=_order)),
            (*outcome.suppressed, *review.suppressed),
            (*outcome.baselined, *review.baselined),
        ),
        note,
    )


def _blame(
    runs: _Runs,
    changes: Sequence[SettingChange],
    base: Config,
    reference: list[Finding],
    paths: tuple[tuple[str, ...], tuple[str, ...]],
    counts: dict[int, int | None],
) -> Blame:
    """Which changes hide which reference findings; ``counts`` gets each one's total."""
    widest, new = paths
    by_index: dict[int, tuple[SettingChange, ...]] = {}
    fail_on = None
    for number, change in enumerate(changes):
        if change.key == "fail-on":
            fail_on = change
            low, high = base.fail_on, change.apply(base).fail_on
            counts[number] = len(no_longer_failing(reference, low, high))
            continue
        variant = runs.outcome(change.apply(base), new if change.key == "paths" else widest)
        hit = hidden(reference, [*variant.findings, *variant.baselined])
        for index in hit:
            by_index[index] = (*by_index.get(index, ()), change)
        counts[number] = len(hit)
    return Blame(tuple(reference), by_index, fail_on)


def _weakening_findings(
    changes: Sequence[SettingChange],
    counts: dict[int, int | None],
    before: Config,
    after: Config,
) -> list[Finding]:
    """One ``config-weakened`` finding per change that can hide findings or hides some,
    on its line of HEAD's file (of BASE's, when the change removed the file)."""
    written = after if after.source else before
    out = []
    for number, change in enumerate(changes):
        hides = counts.get(number)
        if change.weakens or hides:
            where = Location(written.label or written.source, written.line_of(change.key))
            out.append(weakening_finding(change, hides, where))
    return out


def _order(finding: Finding) -> tuple[object, ...]:
    return (*finding.sort_key(), bool(finding.accepted))


def _read_key(options: RunOptions, config: Config, paths: tuple[str, ...]) -> ReadKey:
    released = options.released_mode(config)
    return (paths, released, config.release_tags, config.release_branches)


class _Runs:
    """The comparison's raw findings per way of reading the sides, each read and run
    once, finished under as many configurations as asked."""

    def __init__(
        self, options: RunOptions, base: SpecSource, head: SpecSource, off: frozenset[str]
    ):
        self.options, self.base, self.head, self.off = options, base, head, off
        self.prepared: dict[ReadKey, PreparedPair] = {}
        self.unfinished: dict[ReadKey, Unfinished] = {}
        self.settled: tuple[Acceptance, ...] = ()  # BASE's [[ignore]] entries

    def seed(self, key: ReadKey, prepared: PreparedPair) -> None:
        self.prepared[key] = prepared

    def outcome(self, config: Config, paths: tuple[str, ...]) -> Outcome:
        key = _read_key(self.options, config, paths)
        if key not in self.unfinished:
            prepared = self.prepared.get(key) or prepare_pair(
                self.base,
                self.head,
                pathspecs=list(paths),
                released_mode=key[1],
                config=config,
                history=self.options.history,
                cache=self.options.cache,
            )
            # every rule either side runs: the finish under each configuration drops
            # what that one turns off
            either = self.options.check_options(Config(disabled=self.off), self.settled)
            self.unfinished[key] = unfinished(prepared, either)
        return self.unfinished[key].finish(config)


def _matcher(base: SpecSource) -> Matcher | None:
    """The refs of BASE's repository a release pattern matches (``release-tags``: tags,
    ``release-branches``: branches; "" matches none; None: it cannot be matched in time)."""
    repo = base.repo
    if repo is None:
        return None

    def matched(key: str, pattern: str) -> frozenset[str] | None:
        if not pattern:
            return frozenset()
        try:
            found = (release_tags if key == "release-tags" else release_branches)(repo, pattern)
        except UsageError:
            return None
        return frozenset(ref.name for ref in found)

    return matched
