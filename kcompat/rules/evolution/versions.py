"""Version-level evolution rules: released versions removed, flexibility changed."""

from __future__ import annotations

from kcompat.findings import Reporter, Severity
from kcompat.modes import ReleasedMode
from kcompat.naming import release_order
from kcompat.negotiation.stranding import stranding
from kcompat.rules.evolution.adapters import pair_rule, pair_rule_in_context
from kcompat.rules.evolution.context import DiffContext
from kcompat.rules.evolution.pairing import MessagePair
from kcompat.rules.registry import Category
from kcompat.spec.runs import runs
from kcompat.spec.shape import version_signature
from kcompat.spec.versions import Versions


@pair_rule_in_context("lowest-version-raised", Category.VERSIONS, Severity.ERROR)
def lowest_version_raised(pair: MessagePair, report: Reporter, context: DiffContext) -> None:
    """The lowest supported version was raised: old clients are cut off (needs a KIP)."""
    head_valid = pair.head.valid_versions
    if head_valid.empty or pair.released.empty:
        return
    dropped = _undeprecated(pair, context, pair.released & Versions.of(0, head_valid.lowest - 1))
    if not dropped.empty:
        report.changed(
            pair.head.node,
            pair.base.node,
            "validVersions",
            f"{pair.head.name} no longer supports {_released(dropped)} "
            f"(lowest version raised from {pair.base.valid_versions.lowest} to "
            f"{head_valid.lowest}){_cost(pair, context)}",
            versions=dropped,
            hint="deprecate them first (deprecatedVersions) and remove them in a later "
            "release, as a KIP says; or set "
            '[severity] lowest-version-raised = "warning"',
        )


@pair_rule_in_context("released-version-removed", Category.VERSIONS, Severity.ERROR)
def released_version_removed(pair: MessagePair, report: Reporter, context: DiffContext) -> None:
    """A released version is gone (highest version lowered, or a gap)."""
    head_valid = pair.head.valid_versions
    gone = pair.released - head_valid
    if not head_valid.empty:
        gone = gone - Versions.of(0, head_valid.lowest - 1)  # lowest-version-raised's job
    gone = _undeprecated(pair, context, gone)
    if not gone.empty:
        verb = "was" if _single(gone) else "were"
        report.changed(
            pair.head.node,
            pair.base.node,
            "validVersions",
            f"{_released(gone)} of {pair.head.name} {verb} removed "
            f"(validVersions {pair.base.valid_versions} -> {head_valid}){_cost(pair, context)}",
            versions=gone,
            hint="released versions are permanent; fix mistakes in a new version",
        )


@pair_rule_in_context("deprecated-version-removed", Category.VERSIONS, Severity.WARNING)
def deprecated_version_removed(pair: MessagePair, report: Reporter, context: DiffContext) -> None:
    """Released versions removed after a release deprecated them (deprecatedVersions)."""
    gone = pair.released - pair.head.valid_versions
    deprecated = context.releases.deprecated(pair.base)
    by_release: dict[str, list[int]] = {}
    for version in gone:
        if version in deprecated:
            by_release.setdefault(deprecated[version], []).append(version)
    for release, numbers in by_release.items():
        versions = Versions.from_ranges((v, v) for v in numbers)
        where = "in BASE" if release == "BASE" else f"since {release}"
        report(
            pair.head.node,
            f"{pair.head.name} drops {_released(versions)}, deprecated {where} "
            "(deprecatedVersions): removing them is the documented way, but their clients "
            f"can no longer use them{_cost(pair, context)}",
            key="validVersions",
            base=pair.base.node,
            base_key="deprecatedVersions"
            if pair.base.node is not None and "deprecatedVersions" in pair.base.node
            else "validVersions",
            versions=versions,
            hint="make sure the release notes and the KIP announce the removal",
        )


def _cost(pair: MessagePair, context: DiffContext) -> str:
    """What a removal costs in releases (``; clients of 2.2.0–2.6.3 can no longer send
    ListOffsets (their highest version is 5)``), when the release tags tell."""
    phrase = stranding(context.releases, pair.base, pair.head)
    return f"; {phrase}" if phrase else ""


def _undeprecated(pair: MessagePair, context: DiffContext, versions: Versions) -> Versions:
    """``versions`` less those a release deprecated before (deprecated-version-removed)."""
    deprecated = context.releases.deprecated(pair.base)
    return versions - Versions.from_ranges((v, v) for v in deprecated)


@pair_rule("released-version-unstable", Category.VERSIONS, Severity.ERROR)
def released_version_unstable(pair: MessagePair, report: Reporter) -> None:
    """A released version was marked unstable (latestVersionUnstable)."""
    head = pair.head
    if not head.latest_version_unstable or head.valid_versions.empty:
        return
    highest = head.valid_versions.highest
    base = pair.base
    if (
        base.latest_version_unstable
        and not base.valid_versions.empty
        and base.valid_versions.highest == highest
    ):
        return  # BASE already marked it so: this change did not (a later release may)
    if highest in pair.released:
        report(
            head.node,
            f"version {highest} of {head.name} is released but is now marked unstable",
            key="latestVersionUnstable",
            versions=Versions.of(highest, highest),
            base=pair.base.node,
            base_key="validVersions",
            hint="mark only a new, unreleased version unstable",
        )


@pair_rule("version-added", Category.VERSIONS, Severity.INFO)
def version_added(pair: MessagePair, report: Reporter) -> None:
    """New versions (compatible)."""
    added = pair.head.valid_versions - pair.base.valid_versions
    if not added.empty:
        report.changed(
            pair.head.node,
            pair.base.node,
            "validVersions",
            f"{pair.head.name} adds version{'' if _single(added) else 's'} {added}",
            versions=added,
        )


@pair_rule("flexible-versions-changed", Category.VERSIONS, Severity.ERROR)
def flexible_versions_changed(pair: MessagePair, report: Reporter) -> None:
    """A released version became flexible or stopped being flexible."""
    changed = (pair.base.flexible_versions ^ pair.head.flexible_versions) & pair.common
    if changed.empty:
        return
    now = "flexible" if changed.lowest in pair.head.flexible_versions else "not flexible"
    report.changed(
        pair.head.node,
        pair.base.node,
        "flexibleVersions",
        f"flexibleVersions {pair.base.flexible_versions} -> "
        f"{pair.head.flexible_versions} makes released versions {changed} {now}: every "
        "string, array and tagged section of those versions changes on the wire",
        versions=changed,
        hint="flexibility can only start at a new version",
    )


def _single(versions: Versions) -> bool:
    return len(versions.ranges) == 1 and versions.ranges[0][0] == versions.ranges[0][1]


def _released(versions: Versions) -> str:
    """ "released version 2" or "released versions 0-1"."""
    return f"released version{'' if _single(versions) else 's'} {versions}"


@pair_rule("release-restored", Category.VERSIONS, Severity.INFO)
def release_restored(pair: MessagePair, report: Reporter) -> None:
    """HEAD restores a version's layout as a release shipped it, which BASE's is not."""
    stable_in_base = pair.base.released_versions
    by_release: dict[str, list[int]] = {}
    for version, release in pair.restored:
        if version in stable_in_base:
            by_release.setdefault(release, []).append(version)
    for release, numbers in by_release.items():
        versions = Versions.from_ranges((v, v) for v in numbers)
        report.changed(
            pair.head.node,
            pair.base.node,
            "validVersions",
            f"restores {pair.head.name} {_named(versions)} as released in {release}; "
            "no release shipped BASE's layout of it, so this breaks none",
            versions=versions,
        )


@pair_rule_in_context("unreleased-change", Category.VERSIONS, Severity.INFO)
def unreleased_change(pair: MessagePair, report: Reporter, context: DiffContext) -> None:
    """A change that no release is affected by: a version (or a part of one) that no release
    shipped (compatible).
    """
    protected = pair.released | Versions.from_ranges(
        (v, v) for v in (*(v for v, _ in pair.restored), *(b for _g, b, _h in pair.renumbered))
    )
    unreleased = pair.base.valid_versions - protected
    if unreleased.empty:
        return
    changed = [
        v
        for run in runs(pair.base, pair.head, unreleased & pair.head.valid_versions)
        if _layouts_differ(pair, run.lowest)
        for v in run
    ]
    gone = unreleased - pair.head.valid_versions
    if not changed and gone.empty:
        return
    parts = []
    if changed:
        versions = Versions.from_ranges((v, v) for v in changed)
        parts.append(f"changes {_named(versions)}")
    if not gone.empty:
        parts.append(f"removes {_named(gone)}")
    everything = Versions.from_ranges((v, v) for v in changed) | gone
    why = (
        "not in any release"
        if context.releases.mode == ReleasedMode.TAGS
        else "unstable in BASE (latestVersionUnstable)"
    )
    if pair.diverged:  # shipped under these numbers, but as other layouts than BASE's
        others = sorted({r for _v, r in pair.diverged}, key=release_order)
        why = (
            f"not in any release as BASE has {'it' if _single(everything) else 'them'} "
            f"(already incompatible with {', '.join(others)} in BASE)"
        )
    report.changed(
        pair.head.node,
        pair.base.node,
        "validVersions",
        f"{pair.head.name} {' and '.join(parts)}, which {'is' if _single(everything) else 'are'} "
        f"{why}: no client depends on {'it' if _single(everything) else 'them'} yet",
        versions=everything,
    )


def _layouts_differ(pair: MessagePair, version: int) -> bool:
    return version_signature(pair.base, version) != version_signature(pair.head, version)


def _named(versions: Versions) -> str:
    return f"v{versions}" if _single(versions) else f"versions {versions}"
