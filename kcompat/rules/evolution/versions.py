"""Version-level evolution rules: released versions removed, flexibility changed."""

from __future__ import annotations

from kcompat.diff.engine import DiffContext
from kcompat.diff.match import MessagePair
from kcompat.rules.engine import Reporter, Severity, rule
from kcompat.rules.evolution.common import DIFF
from kcompat.spec.versions import Versions


@rule(
    "lowest-version-raised",
    category="versions",
    severity=Severity.ERROR,
    summary="The lowest supported version was raised: old clients are cut off (needs a KIP).",
    **DIFF,
)
def lowest_version_raised(pair: MessagePair, report: Reporter, context: DiffContext) -> None:
    head_valid = pair.head.valid_versions
    if head_valid.empty or pair.released.empty:
        return
    dropped = pair.released & Versions.of(0, head_valid.lowest - 1)
    if not dropped.empty:
        report(
            pair.head.node,
            f"{pair.head.name} no longer supports {_released(dropped)} "
            f"(lowest version raised from {pair.base.valid_versions.lowest} to "
            f"{head_valid.lowest})",
            key="validVersions",
            base=pair.base.node,
            base_key="validVersions",
            versions=str(dropped),
            hint="dropping old versions needs a KIP; to allow it set "
            '[severity] lowest-version-raised = "warning"',
        )


@rule(
    "released-version-removed",
    category="versions",
    severity=Severity.ERROR,
    summary="A released version is gone (highest version lowered, or a gap).",
    **DIFF,
)
def released_version_removed(pair: MessagePair, report: Reporter, context: DiffContext) -> None:
    head_valid = pair.head.valid_versions
    gone = pair.released - head_valid
    if not head_valid.empty:
        gone = gone - Versions.of(0, head_valid.lowest - 1)  # lowest-version-raised's job
    if not gone.empty:
        verb = "was" if _single(gone) else "were"
        report(
            pair.head.node,
            f"{_released(gone)} of {pair.head.name} {verb} removed "
            f"(validVersions {pair.base.valid_versions} -> {head_valid})",
            key="validVersions",
            base=pair.base.node,
            base_key="validVersions",
            versions=str(gone),
            hint="released versions are permanent; fix mistakes in a new version",
        )


@rule(
    "released-version-unstable",
    category="versions",
    severity=Severity.ERROR,
    summary="A released version was marked unstable (latestVersionUnstable).",
    **DIFF,
)
def released_version_unstable(pair: MessagePair, report: Reporter, context: DiffContext) -> None:
    head = pair.head
    if not head.latest_version_unstable or head.valid_versions.empty:
        return
    highest = head.valid_versions.highest
    if highest in pair.released:
        report(
            head.node,
            f"version {highest} of {head.name} is released but is now marked unstable",
            key="latestVersionUnstable",
            versions=str(highest),
            base=pair.base.node,
            base_key="validVersions",
            hint="mark only a new, unreleased version unstable",
        )


@rule(
    "version-added",
    category="versions",
    severity=Severity.INFO,
    summary="New versions (compatible).",
    **DIFF,
)
def version_added(pair: MessagePair, report: Reporter, context: DiffContext) -> None:
    added = pair.head.valid_versions - pair.base.valid_versions
    if not added.empty:
        report(
            pair.head.node,
            f"{pair.head.name} adds version{'' if _single(added) else 's'} {added}",
            key="validVersions",
            base=pair.base.node,
            base_key="validVersions",
            versions=str(added),
        )


@rule(
    "flexible-versions-changed",
    category="versions",
    severity=Severity.ERROR,
    summary="A released version became flexible or stopped being flexible.",
    **DIFF,
)
def flexible_versions_changed(pair: MessagePair, report: Reporter, context: DiffContext) -> None:
    changed = (pair.base.flexible_versions ^ pair.head.flexible_versions) & pair.common
    if changed.empty:
        return
    now = "flexible" if changed.lowest in pair.head.flexible_versions else "not flexible"
    report(
        pair.head.node,
        f"flexibleVersions {pair.base.flexible_versions} -> "
        f"{pair.head.flexible_versions} makes released versions {changed} {now}: every "
        "string, array and tagged section of those versions changes on the wire",
        key="flexibleVersions",
        base=pair.base.node,
        base_key="flexibleVersions",
        versions=str(changed),
        hint="flexibility can only start at a new version",
    )


def _single(versions: Versions) -> bool:
    return len(versions.ranges) == 1 and versions.ranges[0][0] == versions.ranges[0][1]


def _released(versions: Versions) -> str:
    """ "released version 2" or "released versions 0-1"."""
    return f"released version{'' if _single(versions) else 's'} {versions}"
