"""The compatibility matrix: every client release against every broker release, API by API.

Releases are one axis for both sides (a release is a client and a broker), oldest first,
the compared HEAD last. A cell is a tuple of ints, one per API: the negotiated version or
an outcome code (:mod:`kcompat.negotiation.negotiate`), so a Kafka-sized matrix (45
releases, 80 APIs: 160,000 outcomes) is small and quick: each API has only a handful of
distinct ranges across releases, and each pair of them is negotiated once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kcompat.negotiation.apis import ApiSpec, ReleaseApis, Role, role_of
from kcompat.negotiation.negotiate import ABSENT, STRANDED, UNSERVED, outcome
from kcompat.spec.versions import Versions


@dataclass(frozen=True)
class Api:
    """One API across releases: its key, its newest name and every earlier one, its role."""

    key: int
    name: str
    names: tuple[str, ...]  # every name it had, oldest first (the newest last)
    role: Role


@dataclass(frozen=True)
class Link:
    """One API between a client release and a broker release."""

    api: Api
    client: Versions | None  # what the client offers (None: it lacks the API)
    broker: Versions | None  # what the broker advertises (None: it does not serve it)
    outcome: int  # the negotiated version, or STRANDED, UNSERVED or ABSENT

    @property
    def shared(self) -> Versions:
        if self.client is None or self.broker is None:
            return Versions.none()
        return self.client & self.broker


@dataclass(frozen=True)
class Matrix:
    """Every client release by every broker release, for the chosen APIs."""

    releases: tuple[str, ...]  # oldest first; the compared HEAD (if any) last
    apis: tuple[Api, ...]  # by key
    offered: tuple[tuple[Versions | None, ...], ...]  # [release][api]: a client's range
    served: tuple[tuple[Versions | None, ...], ...]  # [release][api]: a broker's range
    outcomes: tuple[tuple[tuple[int, ...], ...], ...]  # [client][broker][api]
    deprecated: tuple[tuple[Versions, ...], ...]  # [release][api]: deprecatedVersions
    head: bool = False  # the last release is the compared HEAD, not a tag

    def links(self, client: int, broker: int) -> tuple[Link, ...]:
        """Every API between two releases (by their index)."""
        found = self.outcomes[client][broker]
        return tuple(
            Link(api, self.offered[client][j], self.served[broker][j], found[j])
            for j, api in enumerate(self.apis)
        )

    def stranded(self, client: int, broker: int) -> tuple[Api, ...]:
        found = self.outcomes[client][broker]
        return tuple(api for j, api in enumerate(self.apis) if found[j] == STRANDED)

    def index(self, release: str) -> int:
        return self.releases.index(release)


def apis_of(releases: Sequence[ReleaseApis]) -> tuple[Api, ...]:
    """Every API some release has, by key, named and given its role by its newest spec."""
    specs: dict[int, list[ApiSpec]] = {}
    for release in releases:
        for key, spec in release.apis.items():
            specs.setdefault(key, []).append(spec)
    found = []
    for key, seen in sorted(specs.items()):
        newest = seen[-1]
        names = tuple(dict.fromkeys(spec.name for spec in seen if spec.name != newest.name))
        found.append(Api(key, newest.name, (*names, newest.name), role_of(newest)))
    return tuple(found)


def chosen(
    apis: Sequence[Api], roles: frozenset[Role], keys: frozenset[int] | None
) -> tuple[Api, ...]:
    """The APIs a matrix judges: those ``keys`` names (any role), else those of ``roles``."""
    if keys is not None:
        return tuple(api for api in apis if api.key in keys)
    return tuple(api for api in apis if api.role in roles)


def ranges_of(
    release: ReleaseApis, apis: Sequence[Api], unstable: bool = False
) -> tuple[tuple[Versions | None, ...], tuple[Versions | None, ...], tuple[Versions, ...]]:
    """What a release offers as a client and serves as a broker of each API (None where
    it lacks or does not serve one), and what it deprecates of each."""
    sends: list[Versions | None] = []
    serves: list[Versions | None] = []
    marked: list[Versions] = []
    for api in apis:
        spec = release.apis.get(api.key)
        versions = spec.offered(unstable) if spec is not None else None
        versions = versions if versions else None  # none offered: the API is absent
        sends.append(versions)
        serves.append(versions if spec is not None and spec.served(api.role) else None)
        marked.append(spec.deprecated & spec.valid if spec is not None else Versions.none())
    return tuple(sends), tuple(serves), tuple(marked)


Memo = dict[tuple[Versions | None, Versions | None, bool], int]


def cell(
    client: Sequence[Versions | None],
    broker: Sequence[Versions | None],
    served_before: Sequence[bool],
    memo: Memo,
) -> tuple[int, ...]:
    """One client against one broker, API by API (each distinct case worked out once)."""
    found = []
    for mine, theirs, was in zip(client, broker, served_before, strict=True):
        if mine is None:
            found.append(ABSENT)
            continue
        key = (mine, theirs, was)
        known = memo.get(key)
        if known is None:
            known = memo[key] = outcome(mine, theirs, was)
        found.append(known)
    return tuple(found)


def build(
    releases: Sequence[ReleaseApis], apis: Sequence[Api], *, unstable: bool = False
) -> Matrix:
    """The matrix of ``releases`` (oldest first) for ``apis``: what each release offers as
    a client and serves as a broker, and every pair's outcome. An API a broker does not
    serve strands a client only when an earlier release served it (it was removed)."""
    found = [ranges_of(release, apis, unstable) for release in releases]
    offered = tuple(f[0] for f in found)
    served = tuple(f[1] for f in found)
    before = _served_before(served, len(apis))
    memo: Memo = {}
    rows = tuple(
        tuple(cell(client, broker, was, memo) for broker, was in zip(served, before, strict=True))
        for client in offered
    )
    head = bool(releases) and releases[-1].head
    return Matrix(
        tuple(r.name for r in releases),
        tuple(apis),
        offered,
        served,
        rows,
        tuple(f[2] for f in found),
        head,
    )


def against(
    clients: Sequence[Sequence[Versions | None]],
    broker: ReleaseApis,
    apis: Sequence[Api],
    served_before: frozenset[int],
    memo: Memo,
    *,
    unstable: bool = False,
) -> tuple[tuple[int, ...], ...]:
    """Every client (what each offers, :func:`ranges_of`) against one broker that is not
    a release (a commit of trunk): ``served_before`` names the APIs an earlier commit of
    its line served, so one it no longer serves was removed."""
    serves = ranges_of(broker, apis, unstable)[1]
    was = [api.key in served_before for api in apis]
    return tuple(cell(client, serves, was, memo) for client in clients)


def _served_before(
    served: Sequence[Sequence[Versions | None]], width: int
) -> list[tuple[bool, ...]]:
    """[release][api]: whether that release or an earlier one served the API."""
    seen = [False] * width
    out = []
    for row in served:
        seen = [was or now is not None for was, now in zip(seen, row, strict=True)]
        out.append(tuple(seen))
    return out


__all__ = [
    "ABSENT",
    "STRANDED",
    "UNSERVED",
    "Api",
    "Link",
    "Matrix",
    "against",
    "apis_of",
    "build",
    "cell",
    "chosen",
    "ranges_of",
]
