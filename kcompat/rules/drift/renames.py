"""``drift-renamed``: one name for upstream's, another for the local copy's, at the same
place on the wire: a message paired by API key and type, or a field at the same
position (or tag) of a version both sides lay out alike.

Names never reach the wire, so a rename breaks no peer; it is one info, never a field
missing on each side. Where upstream's releases are known, the finding says who renamed:
upstream (a release used the local name: the copy kept it) or the local copy.
"""

from __future__ import annotations

from collections.abc import Sequence

from kcompat.findings import Reporter, Severity
from kcompat.rules.drift.adapters import DriftPair, DriftSet, set_rule
from kcompat.rules.drift.pairing import Release, identity, places
from kcompat.rules.drift.presence import api_groups, names, on_pair
from kcompat.rules.registry import Category
from kcompat.spec.model import NO_VERSIONS, Message
from kcompat.spec.resolve import StructLayout, resolve
from kcompat.spec.shape import own_shape, struct_inside
from kcompat.spec.versions import Versions


@set_rule("drift-renamed", Category.DRIFT, Severity.INFO)
def drift_renamed(drift_set: DriftSet, report: Reporter) -> None:
    """A message or field named differently upstream and locally, at the same place on
    the wire."""
    for group in api_groups(drift_set.pairs):
        renamed = [pair for pair in group if pair.renamed]
        if renamed:
            _message_renamed(renamed, drift_set.releases, report)
        for pair in group:
            _fields_renamed(pair, drift_set.releases, report)


def _message_renamed(pairs: list[DriftPair], releases: Sequence[Release], report: Reporter) -> None:
    first = pairs[0]
    local, upstream = names([p.local for p in pairs]), names([p.upstream for p in pairs])
    key = first.local.api_key
    which = f"API key {key}" if key is not None else "the same place"
    were = "are" if len(pairs) > 1 else "is"
    who = _who_renamed([p.local for p in pairs], releases)
    on_pair(report, first)(
        first.local.node,
        f"{local} {were} upstream's {upstream} ({which}){who}",
        key="name",
        base=first.upstream.node,
        base_key="name",
    )


def _fields_renamed(pair: DriftPair, releases: Sequence[Release], report: Reporter) -> None:
    for place in places(pair):
        up, lo = place.upstream, place.local
        if up is None or lo is None or up.field.name == lo.field.name:
            continue
        if own_shape(up.wire) != own_shape(lo.wire):
            continue  # not the same value: the wire parts there (drift-wire-mismatch)
        where = f"tag {up.tag}" if up.tag is not None else "the same position"
        who = _who_renamed([pair.local], releases, lo.path, place.versions)
        on_pair(report, pair)(
            lo.field.node if lo.field.node is not None else pair.local.node,
            f"{pair.local.name}: field {lo.path} is upstream's {up.path} ({where} on the wire, "
            f"versions {place.versions}){who}",
            key="name",
            field_path=lo.path,
            versions=place.versions,
            base=up.field.node,
            base_key="name",
        )


def _who_renamed(
    locals_: Sequence[Message],
    releases: Sequence[Release],
    field_path: str = "",
    versions: Versions = NO_VERSIONS,
) -> str:
    """Who renamed, as a clause: upstream (the latest release that used the local name),
    the local copy (no release did), or nothing when releases are unknown."""
    if not releases:
        return ""
    used = [
        release.name
        for release in releases
        if any(_uses_name(release, message, field_path, versions) for message in locals_)
    ]
    if used:
        return f": renamed upstream after {used[-1]} (the last release with the local name)"
    return ": renamed locally (no upstream release used the local name)"


def _uses_name(release: Release, local: Message, field_path: str, versions: Versions) -> bool:
    """Whether ``release`` has the local message's name (its message with the same API
    key and type), or, for a field, a field at the local field's path in a version of
    ``versions`` (the highest the release has)."""
    key = identity(local)
    for message in release.messages:
        same = identity(message) == key if key is not None else message.name == local.name
        if not same:
            continue
        if not field_path:
            return message.name == local.name
        at = versions & message.valid_versions
        return not at.empty and _has_path(resolve(message, at.highest).root, field_path)
    return False


def _has_path(layout: StructLayout, path: str) -> bool:
    for entry in (*layout.fields, *layout.tagged):
        if entry.path == path:
            return True
        inner = struct_inside(entry.wire)
        if inner is not None and path.startswith(entry.path + ".") and _has_path(inner, path):
            return True
    return False
