"""Which versions of a BASE message count as released, and the layouts releases shipped.

Two policies, decided where git is (:mod:`kcompat.sources.releases`) and carried here as
plain data, so Spark executors without a checkout apply them exactly as ``diff`` does:

* ``base``: every version in BASE's ``validVersions``, less an unstable latest one (a
  response follows its request's ``latestVersionUnstable``; only requests may carry it).
* ``tags``: the versions some release tag ships, wherever the tag sits. Kafka tags its
  releases on release branches that never merge back into trunk, so reachability from
  BASE is not the test. Each version keeps the first release that shipped it and the
  layouts releases shipped (told apart by :func:`~kcompat.spec.shape.release_layout`:
  bytes and values, never names), so a change is judged against what shipped: an error
  needs a release whose layout of the version is BASE's and not HEAD's (findings name
  the first release that shipped BASE's layout); HEAD putting back a shipped layout is
  a repair; and a version whose BASE layout no release shipped breaks none, whatever
  releases shipped under that number (BASE was already incompatible with them).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from kcompat.modes import ReleasedMode
from kcompat.naming import release_order
from kcompat.spec.model import Message
from kcompat.spec.versions import Versions

BASE = ReleasedMode.BASE
TAGS = ReleasedMode.TAGS


@dataclass(frozen=True)
class Shipped:
    """What releases shipped of one message.

    ``first`` names, per version, the first release that shipped it in any layout;
    ``base_first`` the first release that shipped BASE's layout of it (worked out for the
    versions a comparison changes), which is what a change breaks. A name written
    ``≤ 2.2.0`` means the repository's history starts with the version already there, so
    an older release may have shipped it first.
    """

    versions: Versions = field(default_factory=Versions.none)  # some release shipped each
    first: tuple[tuple[int, str], ...] = ()  # version -> the first release that shipped it
    layouts: tuple[tuple[int, str, str], ...] = ()  # (version, layout digest, release)
    deprecated: tuple[tuple[int, str], ...] = ()  # version -> first release deprecating it
    base_first: tuple[tuple[int, str], ...] = ()  # version -> first release of BASE's layout
    last: tuple[tuple[int, str], ...] = ()  # version -> the latest release that shipped it
    base_last: tuple[tuple[int, str], ...] = ()  # version -> latest release of BASE's layout
    head_first: tuple[tuple[int, str], ...] = ()  # version -> first release of HEAD's layout
    # What each release that has the message offers of it, in release order: for a
    # request, what its clients send (the versions a change may leave them none of).
    offers: tuple[tuple[str, str], ...] = ()  # (release, versions)

    @property
    def unlike_base(self) -> Versions:
        """The versions whose layouts were worked out and of which no release shipped
        BASE's: a change to them breaks no release."""
        known = {v for v, _digest, _release in self.layouts}
        ours = {v for v, _release in self.base_first}
        return Versions.from_ranges((v, v) for v in sorted(known - ours))

    def first_release(self, version: int) -> str | None:
        """The first release that shipped BASE's layout of ``version``, or (when that is
        not known) the version in any layout."""
        return dict(self.base_first).get(version) or dict(self.first).get(version)

    def last_release(self, version: int) -> str | None:
        """The latest release that shipped BASE's layout of ``version`` (or, when that is
        not known, the version in any layout)."""
        return dict(self.base_last).get(version) or dict(self.last).get(version)

    def digests(self, version: int) -> dict[str, str]:
        """Layout digest -> the first release that shipped ``version`` in that layout."""
        out: dict[str, str] = {}
        for shipped_version, digest, release in self.layouts:
            if shipped_version == version:
                out.setdefault(digest, release)
        return out


_NOT_SHIPPED = Shipped()


@dataclass(frozen=True)
class Releases:
    """The released-version policy of one comparison (pure data)."""

    mode: ReleasedMode = BASE
    shipped: Mapping[str, Shipped] = field(default_factory=lambda: MappingProxyType({}))
    unstable: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    tags: tuple[str, ...] = ()  # tags mode: the releases considered, oldest first
    later: int = 0  # tags mode: releases left out because they already contain the change

    @staticmethod
    def from_base(base_messages: Iterable[Message]) -> Releases:
        """``base`` mode: BASE's own versions, with requests' unstable latest versions."""
        unstable = {
            message.api_key: message.valid_versions.highest
            for message in base_messages
            if message.kind == "request"
            and message.api_key is not None
            and message.latest_version_unstable
            and not message.valid_versions.empty
        }
        return Releases(BASE, unstable=MappingProxyType(unstable))

    def released(self, message: Message) -> Versions:
        """The versions of a BASE message whose wire format must not change: in ``tags``
        mode, those some release shipped as BASE has them (where that was worked out: the
        versions a change alters; the others, as some release shipped them)."""
        if self.mode == TAGS:
            shipped = self.shipped_of(message.name)
            return (message.valid_versions & shipped.versions) - shipped.unlike_base
        versions = message.released_versions
        key = message.api_key
        if message.kind == "response" and key is not None and key in self.unstable:
            highest = self.unstable[key]
            versions = versions - Versions.of(highest, highest)
        return versions

    def shipped_of(self, message_name: str) -> Shipped:
        return self.shipped.get(message_name, _NOT_SHIPPED)

    def deprecated(self, message: Message) -> dict[int, str]:
        """BASE message versions deprecated before they went, and by what: the first
        release whose ``deprecatedVersions`` lists them (tags), or BASE itself."""
        if self.mode == TAGS:
            return dict(self.shipped_of(message.name).deprecated)
        return {v: "BASE" for v in (message.deprecated_versions & message.valid_versions)}

    def reason(self, message_name: str, versions: Versions) -> str:
        """Why ``versions`` count as released: the releases that first shipped them."""
        if self.mode != TAGS:
            return "in BASE's validVersions"
        shipped = self.shipped_of(message_name)
        names = sorted(
            {
                release
                for v in versions.clip(4096)
                if (release := shipped.first_release(v)) is not None
            },
            key=release_order,
        )
        return "released in " + ", ".join(names) if names else "not in any release"

    def latest(self, message_name: str, versions: Versions) -> str | None:
        """The latest release that shipped what ``versions`` of a message are in BASE
        (None when no release is known to: base mode, or none shipped them)."""
        if self.mode != TAGS:
            return None
        shipped = self.shipped_of(message_name)
        names = [
            release for v in versions.clip(4096) if (release := shipped.last_release(v)) is not None
        ]
        return max(names, key=release_order) if names else None

    def describe(self) -> str:
        """One phrase for summaries: which versions this policy counts as released."""
        if self.mode != TAGS:
            return "every version in BASE (less an unstable latest one)"
        later = (
            f"; {self.later} later release{'s' if self.later != 1 else ''} already "
            f"contain{'s' if self.later == 1 else ''} this change"
            if self.later
            else ""
        )
        if not self.tags:
            return f"none: no release predates this change{later}"
        span = f"{self.tags[0]} to {self.tags[-1]}" if len(self.tags) > 1 else self.tags[0]
        count = len(self.tags)
        return f"versions shipped by {count} release{'s' if count != 1 else ''} ({span}){later}"

    # -- as data ---------------------------------------------------------------------------
    def to_json(self) -> str:
        return json.dumps(
            {
                "mode": self.mode,
                "tags": list(self.tags),
                "later": self.later,
                "unstable": {str(k): v for k, v in self.unstable.items()},
                "shipped": {
                    name: [
                        str(s.versions),
                        [list(f) for f in s.first],
                        [list(x) for x in s.layouts],
                        [list(d) for d in s.deprecated],
                        [list(b) for b in s.base_first],
                        [list(x) for x in s.last],
                        [list(x) for x in s.base_last],
                        [list(x) for x in s.head_first],
                        [list(o) for o in s.offers],
                    ]
                    for name, s in sorted(self.shipped.items())
                },
            },
            separators=(",", ":"),
        )

    @staticmethod
    def from_json(text: str) -> Releases:
        data: dict[str, Any] = json.loads(text)
        shipped = {
            name: Shipped(
                Versions.parse(versions),
                tuple((int(v), str(r)) for v, r in first),
                tuple((int(v), str(d), str(r)) for v, d, r in layouts),
                tuple((int(v), str(r)) for v, r in deprecated),
                tuple((int(v), str(r)) for v, r in base_first),
                tuple((int(v), str(r)) for v, r in last),
                tuple((int(v), str(r)) for v, r in base_last),
                tuple((int(v), str(r)) for v, r in head_first),
                tuple((str(r), str(v)) for r, v in offers),
            )
            for name, (
                versions,
                first,
                layouts,
                deprecated,
                base_first,
                last,
                base_last,
                head_first,
                offers,
            ) in data["shipped"].items()
        }
        return Releases(
            ReleasedMode(data["mode"]),
            MappingProxyType(shipped),
            MappingProxyType({int(k): int(v) for k, v in data["unstable"].items()}),
            tuple(data["tags"]),
            int(data.get("later", 0)),
        )
