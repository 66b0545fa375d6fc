"""Two sides' spec files in, the changelog out (pure: no git, no file system).

Messages are paired exactly as ``kcompat diff`` pairs them
(:func:`~kcompat.rules.evolution.pairing.pair_messages`: by name, then renames), which
versions count as released comes from the same :class:`Releases` policy, and the breaks
are diff's own findings (:mod:`kcompat.changelog.breaks`). What is added here is the
reading of every change, compatible or not, version by version.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from kcompat.changelog.fields import existing_version_changes
from kcompat.changelog.model import Change, ChangeKind, Changelog, MessageChanges
from kcompat.changelog.references import References, mentioned, references
from kcompat.changelog.settings import Versioning, setting_changes
from kcompat.changelog.steps import new_version_changes
from kcompat.naming import request_name_for
from kcompat.negotiation.stranding import stranding
from kcompat.rules.evolution.pairing import MessagePair, Pairing
from kcompat.spec.model import NO_VERSIONS, Message
from kcompat.spec.released import Releases
from kcompat.spec.specfile import SpecFile
from kcompat.spec.versions import Versions

#: Message-level changes first, then versions, then what new versions do, then changes
#: to versions both sides have, then the breaks.
_SECTION = {
    ChangeKind.MESSAGE_ADDED: 0,
    ChangeKind.MESSAGE_REMOVED: 0,
    ChangeKind.MESSAGE_RENAMED: 0,
    ChangeKind.SETTING_CHANGED: 0,
    ChangeKind.LISTENERS_CHANGED: 0,
    ChangeKind.VERSIONS_ADDED: 1,
    ChangeKind.VERSIONS_REMOVED: 1,
    ChangeKind.VERSIONS_DEPRECATED: 1,
    ChangeKind.VERSIONS_UNDEPRECATED: 1,
    ChangeKind.VERSION_STABLE: 1,
    ChangeKind.VERSION_UNSTABLE: 1,
    ChangeKind.FLEXIBLE_VERSIONS_CHANGED: 1,
    ChangeKind.BREAK: 4,
}


class Sides(NamedTuple):
    """What one changelog is computed from: the two sides as diff paired them."""

    pairing: Pairing
    releases: Releases
    breaks: Sequence[Change] = ()  # diff's findings (see kcompat.changelog.breaks)


def compute(sides: Sides, *, base: str, head: str, diff_command: str = "") -> Changelog:
    """Every protocol change from BASE to HEAD, grouped by message."""
    pairing = sides.pairing
    base_unstable = _unstable_of(
        [p.base for p in pairing.pairs] + [s.message for s in pairing.removed if s.message]
    )
    head_unstable = _unstable_of(
        [p.head for p in pairing.pairs] + [s.message for s in pairing.added if s.message]
    )
    groups: dict[str, tuple[str, int | None, list[Change]]] = {}
    known: dict[str, tuple[str, int | None]] = {}  # every paired message: type, API key

    def add(message: Message, changes: list[Change]) -> None:
        entry = groups.setdefault(message.name, (message.kind, message.api_key, []))
        entry[2].extend(changes)

    for pair in pairing.pairs:
        known[pair.head.name] = (pair.head.kind, pair.head.api_key)
        versioning = Versioning(
            released=sides.releases.released(pair.base),
            deprecated_by=tuple(sorted(sides.releases.deprecated(pair.base).items())),
            base_unstable=base_unstable(pair.base),
            head_unstable=head_unstable(pair.head),
            stranded=stranding(sides.releases, pair.base, pair.head)
            if not (pair.base.valid_versions - pair.head.valid_versions).empty
            else "",
        )
        changes = _pair_changes(pair, versioning)
        if changes:
            add(pair.head, changes)
    for spec in pairing.added:
        assert spec.message is not None
        add(spec.message, [_message_added(spec, head_unstable(spec.message))])
    for spec in pairing.removed:
        assert spec.message is not None
        message = spec.message
        add(message, [_message_removed(message, sides.releases.released(message))])
    for change in sides.breaks:
        kind, key = known.get(change.message, ("", None))
        groups.setdefault(change.message, (kind, key, []))[2].append(change)
    ordered = sorted(
        (
            MessageChanges(name, kind, key, tuple(sorted(changes, key=_order)))
            for name, (kind, key, changes) in groups.items()
        ),
        key=MessageChanges.sort_key,
    )
    return Changelog(base, head, tuple(ordered), diff_command, sides.releases.describe())


def _order(change: Change) -> tuple[object, ...]:
    section = _SECTION.get(change.kind, 3 if change.existing else 2)
    return (section, *change.sort_key())


def _pair_changes(pair: MessagePair, versioning: Versioning) -> list[Change]:
    base, head = pair.base, pair.head
    document = pair.head_spec.document
    stability = versioning.base_unstable != versioning.head_unstable
    if document is not None and (base.valid_versions != head.valid_versions or stability):
        refs = references(document.text)  # only versions added or made stable cite them
    else:
        refs = References()
    changes = setting_changes(base, head, versioning, refs)
    changes += new_version_changes(base, head)
    changes += existing_version_changes(pair, versioning.released)
    return changes


def _whole_message(kind: ChangeKind, message: Message, **details: Any) -> Change:
    """A message added or removed as a whole: its every version, its type and listeners."""
    return Change(
        message.name,
        kind,
        message.valid_versions,
        type=message.kind,
        listeners=message.listeners,
        **details,
    )


def _message_added(spec: SpecFile, unstable: Versions) -> Change:
    message = spec.message
    assert message is not None
    note = "latest version unstable" if not unstable.empty else ""
    cited = mentioned(spec.document.text) if spec.document is not None else ()
    return _whole_message(ChangeKind.MESSAGE_ADDED, message, note=note, references=cited)


def _message_removed(message: Message, released: Versions) -> Change:
    return _whole_message(ChangeKind.MESSAGE_REMOVED, message, released=not released.empty)


def _unstable_of(messages: Iterable[Message]) -> Callable[[Message], Versions]:
    """The versions of a message marked unstable on one side: its own highest with
    ``latestVersionUnstable``, or, for a response, its request's (when that side's
    request was read)."""
    requests = {m.api_key: m for m in messages if m.kind == "request" and m.api_key is not None}

    def unstable(message: Message) -> Versions:
        owner: Message | None = message
        if message.kind == "response" and message.api_key is not None:
            owner = requests.get(message.api_key)
            if owner is None or request_name_for(message.name) is None:
                return NO_VERSIONS
        if owner is None or not owner.latest_version_unstable or owner.valid_versions.empty:
            return NO_VERSIONS
        highest = owner.valid_versions.highest
        return Versions.of(highest, highest) & message.valid_versions

    return unstable
