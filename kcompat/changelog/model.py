"""The changelog as data: one :class:`Change` per protocol change, grouped by message.

Every format renders this model and nothing else, so the text, Markdown, JSON and HTML
changelogs always tell the same story. A change names its message, its kind, the versions
it concerns and the field (dotted path) or spec setting (``validVersions``,
``flexibleVersions``...) it is about; the other attributes are the details its kind has.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields
from enum import StrEnum
from functools import cached_property
from operator import attrgetter
from typing import NamedTuple

from kcompat.spec.model import NO_VERSIONS
from kcompat.spec.versions import Versions


class ChangeKind(StrEnum):
    """What changed. Within a message, changes are listed in this order."""

    MESSAGE_ADDED = "message-added"
    MESSAGE_REMOVED = "message-removed"
    MESSAGE_RENAMED = "message-renamed"
    SETTING_CHANGED = "setting-changed"  # apiKey or type
    LISTENERS_CHANGED = "listeners-changed"
    VERSIONS_ADDED = "versions-added"
    VERSIONS_REMOVED = "versions-removed"
    VERSIONS_DEPRECATED = "versions-deprecated"
    VERSIONS_UNDEPRECATED = "versions-undeprecated"
    VERSION_STABLE = "version-stable"
    VERSION_UNSTABLE = "version-unstable"
    FLEXIBLE_VERSIONS_CHANGED = "flexible-versions-changed"
    FIELD_ADDED = "field-added"
    TAGGED_FIELD_ADDED = "tagged-field-added"
    FIELD_ENDED = "field-ended"  # a new version no longer has it
    FIELD_REMOVED = "field-removed"  # versions both sides have lose it (unreleased ones)
    NULLABLE_STARTED = "nullable-started"
    NULLABLE_ENDED = "nullable-ended"
    TAGGING_CHANGED = "tagging-changed"
    TYPE_CHANGED = "type-changed"
    ENCODING_CHANGED = "encoding-changed"
    DEFAULT_CHANGED = "default-changed"
    FIELD_RENAMED = "field-renamed"
    STRUCT_RENAMED = "struct-renamed"
    STRUCT_MOVED = "struct-moved"
    FIELDS_REGROUPED = "fields-regrouped"
    BREAK = "break"  # diff's finding on versions a release shipped

    @property
    def rank(self) -> int:
        return _RANKS[self]


_RANKS = {kind: index for index, kind in enumerate(ChangeKind)}


@dataclass(frozen=True)
class Change:
    """One protocol change.

    ``existing`` says the versions are ones both sides have (changed in place); otherwise
    a field change is what a new version does compared with the version before it.
    ``released`` says those versions shipped in a release (or count as released).
    """

    message: str
    kind: ChangeKind
    versions: Versions = NO_VERSIONS
    field: str = ""  # dotted path from the message (HEAD's; BASE's when it is gone)
    setting: str = ""  # the spec key it concerns, for message-level changes
    type: str = ""  # a field's type, as the spec writes it
    default: str = ""  # a field's explicit default, as shown
    tag: int | None = None
    before: str = ""
    after: str = ""
    existing: bool = False
    released: bool = False
    listeners: tuple[str, ...] = ()  # a message added or removed: its listeners
    references: tuple[str, ...] = ()  # KIP-890, KAFKA-12345: from the spec's own comments
    note: str = ""  # a break's message; why versions went; the API key of a new message
    rule: str = ""  # a break: the rule that found it
    severity: str = ""  # a break: error or warning
    accepted: str = ""  # a break the configuration accepts: the reason it gives

    def identity(self) -> tuple[object, ...]:
        """Everything but the versions: what one change in several runs shares."""
        return _IDENTITY(self)

    def sort_key(self) -> tuple[object, ...]:
        lowest = self.versions.lowest if not self.versions.empty else -1
        return (self.existing, lowest, self.kind.rank, self.field, self.before, self.note)

    @property
    def counts_as_break(self) -> bool:
        return self.kind is ChangeKind.BREAK and self.severity == "error" and not self.accepted


_IDENTITY = attrgetter(*(f.name for f in fields(Change) if f.name != "versions"))

_VERSIONED = frozenset({ChangeKind.VERSIONS_ADDED, ChangeKind.VERSIONS_REMOVED})

#: Message types in the order a changelog lists them after requests and responses.
_TYPE_ORDER = {"request": 0, "response": 0, "header": 1}


@dataclass(frozen=True)
class MessageChanges:
    """Every change to one message (named as HEAD names it; BASE's name if it is gone)."""

    name: str
    message_type: str  # request, response, header, metadata, data, ... ("" unknown)
    api_key: int | None
    changes: tuple[Change, ...]

    def sort_key(self) -> tuple[object, ...]:
        """Requests and responses in API key order (request first), then headers, then
        data and metadata records, by name."""
        group = _TYPE_ORDER.get(self.message_type, 2)
        key = self.api_key if self.api_key is not None and group == 0 else -1
        return (group, key, self.message_type != "request", self.name)

    @property
    def title(self) -> str:
        """``FetchRequest (API key 1)``, ``RequestHeader (header)``."""
        if self.api_key is not None and self.message_type in ("request", "response"):
            return f"{self.name} (API key {self.api_key})"
        return f"{self.name} ({self.message_type})" if self.message_type else self.name


class Counts(NamedTuple):
    """What the first line says."""

    added: int
    removed: int
    renamed: int
    reversioned: int
    changed: int
    breaks: int
    accepted: int  # breaks the configuration accepts
    warnings: int


@dataclass(frozen=True)
class Changelog:
    """What HEAD does to the protocol of BASE."""

    base: str
    head: str
    groups: tuple[MessageChanges, ...]
    diff_command: str = ""  # what shows the bytes of the breaks
    released: str = ""  # which versions counted as released

    def __iter__(self) -> Iterator[MessageChanges]:
        return iter(self.groups)

    @property
    def changes(self) -> Iterator[Change]:
        for group in self.groups:
            yield from group.changes

    @cached_property
    def counts(self) -> Counts:
        """What the first line says (one pass over the changes)."""
        tally = dict.fromkeys(("added", "removed", "renamed", "reversioned", "changed"), 0)
        for group in self.groups:
            kinds = {change.kind for change in group.changes}
            if ChangeKind.MESSAGE_ADDED in kinds:
                tally["added"] += 1
            elif ChangeKind.MESSAGE_REMOVED in kinds:
                tally["removed"] += 1
            elif ChangeKind.MESSAGE_RENAMED in kinds:
                tally["renamed"] += 1
            elif not kinds.isdisjoint(_VERSIONED):
                tally["reversioned"] += 1
            else:
                tally["changed"] += 1
        breaks = [c for c in self.changes if c.kind is ChangeKind.BREAK]
        return Counts(
            **tally,
            breaks=sum(1 for c in breaks if c.counts_as_break),
            accepted=sum(1 for c in breaks if c.accepted),
            warnings=sum(1 for c in breaks if c.severity == "warning" and not c.accepted),
        )

    def only(self, names: frozenset[str]) -> Changelog:
        """The changelog of some messages (``kcompat explain NAME --since A``)."""
        kept = tuple(g for g in self.groups if g.name in names)
        return Changelog(self.base, self.head, kept, self.diff_command, self.released)


def summary_line(changelog: Changelog) -> str:
    """``3 messages added, 19 re-versioned, 0 breaks``: every count that is not zero, and
    the breaks always."""
    counts = changelog.counts
    parts = []
    if counts.added:
        parts.append(f"{counts.added} message{'s' if counts.added != 1 else ''} added")
    for number, what in (
        (counts.removed, "removed"),
        (counts.renamed, "renamed"),
        (counts.reversioned, "re-versioned"),
        (counts.changed, "changed"),
    ):
        if number:
            noun = "" if parts else f" message{'s' if number != 1 else ''}"
            parts.append(f"{number}{noun} {what}")
    if not parts:
        parts.append("no protocol change")
    parts.append(f"{counts.breaks} break{'s' if counts.breaks != 1 else ''}")
    extra = []
    if counts.accepted:
        extra.append(f"{counts.accepted} accepted")
    if counts.warnings:
        extra.append(f"{counts.warnings} warning{'s' if counts.warnings != 1 else ''}")
    return ", ".join(parts) + (f" ({', '.join(extra)})" if extra else "")
