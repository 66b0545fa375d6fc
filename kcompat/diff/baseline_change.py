"""A baseline the change itself edits accepts what it adds in the open, never as a count.

``--baseline FILE`` accepts findings by fingerprint. The file usually lives in the
repository, so a pull request can add its own new breaks to it (``--write-baseline``)
and pass with "1 accepted by the baseline". When BASE is a commit and the file is in
the repository, the baseline BASE holds is read too: a finding accepted only by an entry
that BASE's baseline does not have is listed, accepted in this change, with the file as
its reason (as an ``[[ignore]]`` entry or an ignore comment the change adds is). A
baseline HEAD's side does not hold (a file the workflow fetched, one of your own) is
neither side's: it accepts what it lists, counted, as a configuration neither side holds
does. A
fingerprint names the change it accepted (rule, field, versions and the message's
from/to), so BASE's entries accept no later break.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from kcompat.errors import UsageError
from kcompat.findings import Finding
from kcompat.rules.runner import Outcome
from kcompat.sources.baseline import fingerprints
from kcompat.sources.source import SpecSource


def review_baseline(
    outcome: Outcome, baseline: Path | None, base: SpecSource, head: SpecSource
) -> Outcome:
    """``outcome`` with the findings accepted only by entries this change added to
    ``baseline`` (the ``--baseline`` file) moved from the baseline's count to the list,
    accepted in this change."""
    repo, commit = base.repo, base.commit
    if baseline is None or repo is None or not commit or not outcome.baselined:
        return outcome
    try:
        name = repo.relative(baseline)
    except UsageError:
        return outcome  # outside the repository: neither side's file
    held = repo.read_at(head.commit, name) if head.commit else repo.read_index(name)
    if held is None:
        return outcome  # not in the change: neither side's file
    data = repo.read_at(commit, name)
    try:
        before = fingerprints(data, f"{commit[:12]}:{name}") if data is not None else frozenset()
    except UsageError:
        before = frozenset()  # BASE's file is no baseline: every entry is this change's
    added = [f for f in outcome.baselined if f.fingerprint not in before]
    if not added:
        return outcome
    said = f"added to the baseline {name}"
    listed = [replace(f, accepted=said, weakened_by=f"baseline {name}") for f in added]
    return replace(
        outcome,
        findings=tuple(sorted([*outcome.findings, *listed], key=_order)),
        baselined=tuple(f for f in outcome.baselined if f.fingerprint in before),
    )


def _order(finding: Finding) -> tuple[object, ...]:
    return (*finding.sort_key(), bool(finding.accepted))
