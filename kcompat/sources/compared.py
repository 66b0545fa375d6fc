"""What a comparison asks of releases: which messages it compares (:class:`Compared`),
how each is recognised in a release (:class:`Lineage`), which of its versions need the
layouts releases shipped (:func:`changed_versions`), and a version's layout as a
release's is compared with it (:func:`api_layout`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from kcompat.spec.model import Message
from kcompat.spec.shape import release_layout, wire_changes
from kcompat.spec.versions import Versions


class Named(Protocol):
    """What a release's message is recognised by (a message, or a release text's facts)."""

    @property
    def name(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def api_key(self) -> int | None: ...


@dataclass(frozen=True)
class Lineage:
    """How a compared message is recognised in a release: its names (BASE's, and HEAD's
    when the change renames it) and, for a request or a response, its (type, apiKey)."""

    names: tuple[str, ...]
    api: tuple[str, int] | None = None

    @staticmethod
    def of(base: Message, head: Message | None = None) -> Lineage:
        names = (base.name,) if head is None or head.name == base.name else (base.name, head.name)
        api = None
        if base.kind in ("request", "response") and base.api_key is not None:
            api = (base.kind, base.api_key)
        return Lineage(names, api)

    def holds(self, found: Named) -> bool:
        """Whether a release's message is this one."""
        return found.name in self.names or (
            self.api is not None and (found.kind, found.api_key) == self.api
        )


@dataclass(frozen=True)
class Compared:
    """A BASE message a comparison asks releases about: its path in the repository, the
    HEAD message it became (None: removed), and on each side the other half of its API
    (a request's response, a response's request), which a version's layout includes."""

    path: str
    base: Message
    head: Message | None = None
    base_companion: Message | None = None
    head_companion: Message | None = None

    @property
    def lineage(self) -> Lineage:
        return Lineage.of(self.base, self.head)


def api_layout(message: Message, companion: Message | None, version: int) -> str:
    """What a version is on the wire (:func:`~kcompat.spec.shape.release_layout`), with the
    other half of its API for a request or a response: a release's clients send its
    request and read its response of that version, so both must be BASE's for BASE to be
    what the release shipped (2.7.0's CreateTopics v6 is not trunk's draft v6, whose
    request alone it matches). Of the other half only what every reader must agree on
    counts, not its tagged fields (2.8.0 added one to FetchResponse v12, which 2.7.0's
    clients skip: FetchRequest v12 is still 2.7.0's)."""
    own = release_layout(message, version)
    if companion is None or version not in companion.valid_versions:
        return own
    return f"{own}+{release_layout(companion, version, tagged=False)}"


def changed_versions(base: Message, head: Message | None) -> Versions:
    """The versions of BASE a change may break, whose layouts releases are asked about:
    those HEAD writes otherwise (:func:`~kcompat.spec.shape.wire_changes`, names
    included), those it no longer releases (removed, or its latest marked unstable), all
    of them when it changes a default (a field's default is what readers of versions
    without the field fill in) or removes the message."""
    if head is None or _default_changed(base, head):
        return base.valid_versions.clip(4096)
    dropped = base.valid_versions - head.released_versions
    return wire_changes(base, head) | dropped


def _default_changed(base: Message, head: Message) -> bool:
    """Whether a field both messages have (by path) has another default in HEAD."""
    before = {path: field.default.key() for path, field in base.walk()}
    return any(
        path in before and before[path] != field.default.key() for path, field in head.walk()
    )


def change_of(asked: Compared) -> Versions:
    """The versions a change makes what they are on the wire: those whose
    :func:`api_layout` it alters (a rename alters none) and those it adds."""
    base, head = asked.base, asked.head
    assert head is not None
    altered = [
        v
        for v in wire_changes(base, head)
        if api_layout(base, asked.base_companion, v) != api_layout(head, asked.head_companion, v)
    ]
    added = head.valid_versions - base.valid_versions
    return Versions.from_ranges((v, v) for v in altered) | (added & Versions.of(0, 4095))
