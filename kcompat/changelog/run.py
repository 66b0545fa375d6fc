"""The I/O edge of ``kcompat changelog``: the same sides, configuration and release
ledger as ``kcompat diff``, then the pure :func:`~kcompat.changelog.compute.compute`.

The sides are read and prepared by diff's own code (:func:`~kcompat.diff.run.compare`),
and the breaks are diff's findings from :func:`~kcompat.diff.check.check` without the
byte proof: the changelog says what breaks, ``kcompat diff`` shows the bytes.
"""

from __future__ import annotations

import shlex
from dataclasses import replace
from typing import NamedTuple

from kcompat.changelog.breaks import from_findings
from kcompat.changelog.compute import Sides, compute
from kcompat.changelog.model import Changelog
from kcompat.config import Config
from kcompat.diff.check import CheckOptions, check, paired_specs
from kcompat.diff.run import Comparison, DiffRequest, compare
from kcompat.findings import Severity
from kcompat.rules.registry import all_rules
from kcompat.spec.specfile import parsed_once


class ChangelogResult(NamedTuple):
    changelog: Changelog
    files: int
    note: str = ""  # one line for stderr (how to fetch the release tags)


def run_changelog(request: DiffRequest) -> ChangelogResult:
    """Every protocol change between two sides, with diff's breaks. The request is a
    diff's (the same sides, configuration and cache; the proof and baseline unused)."""
    with parsed_once():  # each side parsed once: reading, checking and the changelog share it
        comparison = compare(request)
        if comparison is None:
            empty = Changelog("HEAD", _head_label(request), ())
            return ChangelogResult(
                empty, 0, "the repository has no commits yet: nothing to compare"
            )
        return changelog_of(comparison)


def changelog_of(comparison: Comparison) -> ChangelogResult:
    """The changelog of a comparison already read (by ``kcompat diff``, in the Action)."""
    prepared = comparison.prepared
    paired = paired_specs(prepared)  # one pairing: the rules' and the changelog's
    outcome = check(paired, CheckOptions(breaking_rules(comparison.config)))
    sides = Sides(paired.pairing, prepared.releases, from_findings(outcome.findings))
    changelog = compute(
        sides,
        base=prepared.base_label,
        head=prepared.head_label,
        diff_command=diff_command(comparison.request),
    )
    return ChangelogResult(changelog, prepared.compared, prepared.note)


def breaking_rules(config: Config) -> Config:
    """``config`` with the diff rules that cannot report an error turned off: a rule whose
    severity (as configured) is a warning or an info only ever says what the changelog
    says itself (a field renamed, a version added), so running it changes no break."""
    quiet = {
        rule.id
        for rule in all_rules("diff")
        if config.severities.get(rule.id, rule.severity) < Severity.ERROR
    }
    return replace(config, disabled=config.disabled | quiet)


def _head_label(request: DiffRequest) -> str:
    if request.staged:
        return "the index"
    return request.head if request.head is not None else "the working tree"


def diff_command(request: DiffRequest) -> str:
    """The ``kcompat diff`` that shows the bytes of these breaks."""
    words = ["kcompat", "diff"]
    if request.base is not None:
        words.append(request.base)
    if request.head is not None:
        words.append(request.head)
    if request.staged:
        words.append("--staged")
    if request.merge_base:
        words.append("--merge-base")
    if request.repo is not None:
        words += ["--repo", str(request.repo)]
    if request.options.released is not None:
        words += ["--released", request.options.released.value]
    return " ".join(shlex.quote(word) for word in words)
