"""Which upstream release a vendored copy is closest to ("vendored from about 3.4").

A copy keeps a subset of versions and renames what it likes, so neither names nor
version ranges alone date it; layouts do. Each release is paired with the copy as drift
pairs messages (API key and type, then name), and scored by two counts:

- ``latest``: the copy's messages whose highest version is the release's highest
  (released) version, laid out alike. A copy is made from one release, so the messages
  it did not trim point at it, and those that changed in the next release tell it from
  that one;
- ``shipped``: the copy's message versions that the release ships laid out alike (a
  release before the copy lacks some; the tie-breaker).

The release with the most ``latest`` (then ``shipped``, then the earliest) is the
closest; releases that ship the same layouts of the copy's messages are named with it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kcompat.rules.drift.pairing import Release, pair_messages
from kcompat.spec.model import Message
from kcompat.spec.resolve import resolve
from kcompat.spec.shape import signature_digest, struct_shape


@dataclass(frozen=True)
class Standing:
    """How one release compares with the copy."""

    release: str
    latest: int  # the copy's messages whose latest version is this release's, alike
    shipped: int  # the copy's message versions this release ships alike
    paired: int  # the copy's messages this release has

    def to_json(self) -> dict[str, object]:
        return {
            "release": self.release,
            "latest_alike": self.latest,
            "versions_alike": self.shipped,
            "messages": self.paired,
        }


@dataclass(frozen=True)
class Vintage:
    """The release a copy is closest to, and the evidence."""

    closest: Standing
    alike: tuple[str, ...]  # later releases that ship the same layouts of its messages
    before: Standing | None  # the release before the closest ones (None: the first)
    after: Standing | None  # the release after them (None: the latest)
    messages: int  # the copy's messages
    versions: int  # the copy's message versions

    @property
    def about(self) -> str:
        """``3.4`` for ``3.4.0`` (``v1.2`` for ``v1.2.3``): the release line."""
        found = re.match(r"v?\d+\.\d+", self.closest.release)
        return found.group() if found else self.closest.release

    def to_json(self) -> dict[str, object]:
        return {
            "about": self.about,
            "release": self.closest.release,
            "same_layouts": list(self.alike),
            **{k: v for k, v in self.closest.to_json().items() if k != "release"},
            "messages_in_copy": self.messages,
            "versions_in_copy": self.versions,
            "before": self.before.to_json() if self.before is not None else None,
            "after": self.after.to_json() if self.after is not None else None,
        }


class _Shapes:
    """Layout digests per message version, worked out once (releases share the messages
    of files they did not change)."""

    def __init__(self) -> None:
        self._at: dict[tuple[int, int], str] = {}
        self._keep: list[Message] = []  # keeps the ids above valid

    def at(self, message: Message, version: int) -> str:
        key = (id(message), version)
        found = self._at.get(key)
        if found is None:
            found = signature_digest(struct_shape(resolve(message, version).root))
            self._at[key] = found
            self._keep.append(message)
        return found

    def of(self, message: Message) -> tuple[object, ...]:
        released = message.released_versions
        return (str(released), tuple(self.at(message, v) for v in released))


def _standing(
    release: Release, local: Sequence[Message], shapes: _Shapes
) -> tuple[Standing, tuple[object, ...]]:
    """How close the copy ``local`` is to one release, and the digest of what that release
    shipped of the messages they share (releases alike in it tie)."""
    pairs, _up_only, _lo_only = pair_messages(release.messages, local)
    latest = shipped = 0
    for upstream, mine in pairs:
        released = upstream.released_versions
        both = mine.valid_versions & released
        alike = [v for v in both if shapes.at(upstream, v) == shapes.at(mine, v)]
        shipped += len(alike)
        top = mine.valid_versions.highest if mine.valid_versions else None
        if top is not None and not released.empty and top == released.highest and top in alike:
            latest += 1
    digest = tuple(sorted((m.name, shapes.of(u)) for u, m in pairs))
    return Standing(release.name, latest, shipped, len(pairs)), digest


def vintage(local: Sequence[Message], releases: Sequence[Release]) -> Vintage | None:
    """The closest release of ``releases`` (oldest first) to the copy ``local``; None when
    no release has any of its messages."""
    shapes = _Shapes()
    standings: list[Standing] = []
    digests: list[tuple[object, ...]] = []
    for release in releases:
        standing, digest = _standing(release, local, shapes)
        standings.append(standing)
        digests.append(digest)
    if not standings or all(s.paired == 0 for s in standings):
        return None
    best = max(range(len(standings)), key=lambda i: (standings[i].latest, standings[i].shipped, -i))
    same = [i for i in range(best + 1, len(standings)) if digests[i] == digests[best]]
    others = [i for i in range(len(standings)) if i != best and i not in same]
    before = [i for i in others if i < best]
    after = [i for i in others if i > best]
    return Vintage(
        standings[best],
        tuple(standings[i].release for i in same),
        standings[before[-1]] if before else None,
        standings[after[0]] if after else None,
        len(local),
        sum(len(m.valid_versions) for m in local),
    )
