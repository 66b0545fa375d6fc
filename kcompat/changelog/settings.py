"""What a message's own settings change: its versions, deprecations, stability,
flexibility, listeners, API key and type.

Read off the two message models (``validVersions`` and the rest, as
:mod:`kcompat.spec.build` parsed them), never off the text, so a reformatted spec
changes nothing here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from kcompat.changelog.model import Change, ChangeKind
from kcompat.changelog.references import References
from kcompat.spec.model import NO_VERSIONS, Message
from kcompat.spec.versions import Versions


class Versioning(NamedTuple):
    """What is known about versions beyond the two models: which BASE versions count as
    released, which were deprecated before they went (and by what), the versions marked
    unstable on each side (a response follows its request), and which client releases a
    removal strands (in words; "" when the release tags do not tell)."""

    released: Versions
    deprecated_by: tuple[tuple[int, str], ...] = ()
    base_unstable: Versions = NO_VERSIONS
    head_unstable: Versions = NO_VERSIONS
    stranded: str = ""


def setting_changes(
    base: Message, head: Message, versioning: Versioning, refs: References
) -> list[Change]:
    """Every change to the message's settings (not its fields)."""
    name = head.name
    out: list[Change] = []
    if base.name != head.name:
        out.append(Change(name, ChangeKind.MESSAGE_RENAMED, before=base.name, after=head.name))
    if base.api_key != head.api_key:
        out.append(_setting(name, "apiKey", base.api_key, head.api_key))
    if base.kind != head.kind:
        out.append(_setting(name, "type", base.kind, head.kind))
    if set(base.listeners) != set(head.listeners):
        out.append(
            Change(
                name,
                ChangeKind.LISTENERS_CHANGED,
                setting="listeners",
                before=", ".join(base.listeners) or "none",
                after=", ".join(head.listeners) or "none",
            )
        )
    out += _versions_changes(base, head, versioning, refs)
    out += _deprecation_changes(base, head)
    out += _stability_changes(base, head, versioning, refs)
    flexible = _flexible_change(base, head, versioning.released)
    if flexible is not None:
        out.append(flexible)
    return out


def _setting(name: str, key: str, before: object, after: object) -> Change:
    shown = ["none" if value is None else str(value) for value in (before, after)]
    return Change(name, ChangeKind.SETTING_CHANGED, setting=key, before=shown[0], after=shown[1])


#: The setting that marks a message's latest version unstable (not a range).
_UNSTABLE = "latestVersionUnstable"
#: The settings that are version ranges, as read off a message.
_RANGES: dict[str, Callable[[Message], Versions]] = {
    "validVersions": lambda message: message.valid_versions,
    "deprecatedVersions": lambda message: message.deprecated_versions,
    "flexibleVersions": lambda message: message.flexible_versions,
}


def _versions_change(
    kind: ChangeKind, versions: Versions, setting: str, base: Message, head: Message, **details: Any
) -> Change:
    """A change of the message's ``setting`` about ``versions``; a range setting
    (:data:`_RANGES`) with its value as BASE and HEAD write it."""
    value = _RANGES.get(setting)
    if value is not None:
        details.update(before=str(value(base)), after=str(value(head)))
    return Change(head.name, kind, versions, setting=setting, **details)


def _versions_changes(
    base: Message, head: Message, versioning: Versioning, refs: References
) -> list[Change]:
    out: list[Change] = []
    if base.valid_versions == head.valid_versions:
        return out
    added = head.valid_versions - base.valid_versions
    for run in added.ranges:
        versions = Versions((run,))
        unstable = versions.overlaps(versioning.head_unstable)
        out.append(
            _versions_change(
                ChangeKind.VERSIONS_ADDED,
                versions,
                "validVersions",
                base,
                head,
                note="unstable" if unstable else "",
                references=refs.of(range(run[0], run[1] + 1)),
            )
        )
    removed = base.valid_versions - head.valid_versions
    deprecated = dict(versioning.deprecated_by)
    for run in removed.ranges:
        versions = Versions((run,))
        by = sorted({deprecated[v] for v in range(run[0], run[1] + 1) if v in deprecated})
        whole = all(v in deprecated for v in range(run[0], run[1] + 1))
        note = ""
        if by:
            since = [b for b in by if b != "BASE"]  # tags: the releases that deprecated them
            when = f" (since {', '.join(since)})" if since else ""
            note = f"deprecated {'' if whole else 'in part '}first{when}"
        stranded = f"; {versioning.stranded}" if versioning.stranded else ""
        out.append(
            _versions_change(
                ChangeKind.VERSIONS_REMOVED,
                versions,
                "validVersions",
                base,
                head,
                released=versions.overlaps(versioning.released),
                note=(note or "not deprecated first") + stranded,
            )
        )
    return out


def _deprecation_changes(base: Message, head: Message) -> list[Change]:
    if base.deprecated_versions == head.deprecated_versions and (
        base.valid_versions == head.valid_versions or base.deprecated_versions.empty
    ):
        return []
    before = base.deprecated_versions & base.valid_versions
    after = head.deprecated_versions & head.valid_versions
    out = []
    newly = after - before
    if not newly.empty:
        kind = ChangeKind.VERSIONS_DEPRECATED
        out.append(_versions_change(kind, newly, "deprecatedVersions", base, head))
    undone = (before & head.valid_versions) - after
    if not undone.empty:
        kind = ChangeKind.VERSIONS_UNDEPRECATED
        out.append(_versions_change(kind, undone, "deprecatedVersions", base, head))
    return out


def _stability_changes(
    base: Message, head: Message, versioning: Versioning, refs: References
) -> list[Change]:
    """Versions both sides have that became stable (``latestVersionUnstable`` dropped, or
    a later version is now the unstable one) or unstable."""
    if versioning.base_unstable == versioning.head_unstable:
        return []
    common = base.valid_versions & head.valid_versions
    out = []
    stable = (versioning.base_unstable - versioning.head_unstable) & common
    if not stable.empty:
        kind, cited = ChangeKind.VERSION_STABLE, refs.of(list(stable))
        out.append(_versions_change(kind, stable, _UNSTABLE, base, head, references=cited))
    unstable = (versioning.head_unstable - versioning.base_unstable) & common
    if not unstable.empty:
        kind, released = ChangeKind.VERSION_UNSTABLE, unstable.overlaps(versioning.released)
        out.append(_versions_change(kind, unstable, _UNSTABLE, base, head, released=released))
    return out


def _flexible_change(base: Message, head: Message, released: Versions) -> Change | None:
    """``flexibleVersions`` changed for a version HEAD has (a new version simply being
    flexible, as the range already said, is no change); on released versions that is
    diff's break, not repeated here."""
    if base.flexible_versions == head.flexible_versions:
        return None
    differ = (base.flexible_versions ^ head.flexible_versions) & head.valid_versions
    differ = differ - (released & base.valid_versions)
    if differ.empty:
        return None
    existing = differ.overlaps(base.valid_versions)
    kind = ChangeKind.FLEXIBLE_VERSIONS_CHANGED
    return _versions_change(kind, differ, "flexibleVersions", base, head, existing=existing)
