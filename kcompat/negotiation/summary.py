"""What a matrix says in a few lines: per broker release, the oldest client release that
still talks every API; per API, the releases where its ranges moved; and what dropping
every deprecated version at HEAD would strand (KIP-896's question)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kcompat.negotiation.apis import ReleaseApis
from kcompat.negotiation.grid import Api, Matrix, build
from kcompat.negotiation.negotiate import Span, stranded_spans
from kcompat.spec.versions import Versions


@dataclass(frozen=True)
class Reach:
    """Which client releases one broker release still talks to."""

    broker: str
    oldest: str | None  # the oldest client release that talks every API (None: none does)
    stranded: tuple[tuple[str, tuple[Api, ...]], ...]  # each stranded client, and on what


@dataclass(frozen=True)
class Move:
    """An API's ranges from one release on (until the next move)."""

    release: str
    offered: Versions | None  # what its clients send (None: they lack the API)
    served: Versions | None  # what its brokers advertise (None: they do not serve it)
    deprecated: Versions


@dataclass(frozen=True)
class Removal:
    """One API's ``deprecatedVersions`` removed at HEAD, and who that strands."""

    api: Api
    removed: Versions  # the deprecated versions HEAD would drop
    remaining: Versions  # what HEAD would advertise (and send) then
    clients: tuple[Span, ...]  # client releases a HEAD broker would strand
    brokers: tuple[Span, ...]  # broker releases a HEAD client could no longer talk to


def reaches(matrix: Matrix) -> tuple[Reach, ...]:
    """Per broker release, the oldest client release with no API stranded, and every client
    release that has one (older or newer)."""
    out = []
    for b, broker in enumerate(matrix.releases):
        stranded = []
        oldest = None
        for c, client in enumerate(matrix.releases):
            apis = matrix.stranded(c, b)
            if apis:
                stranded.append((client, apis))
            elif oldest is None:
                oldest = client
        out.append(Reach(broker, oldest, tuple(stranded)))
    return tuple(out)


def moves(matrix: Matrix, j: int) -> tuple[Move, ...]:
    """The releases where API ``j``'s ranges changed (the first that has it included)."""
    found: list[Move] = []
    for r, release in enumerate(matrix.releases):
        move = Move(release, matrix.offered[r][j], matrix.served[r][j], matrix.deprecated[r][j])
        if not found:
            if move.offered is not None or move.served is not None:
                found.append(move)
            continue
        last = found[-1]
        if (last.offered, last.served, last.deprecated) != (
            move.offered,
            move.served,
            move.deprecated,
        ):
            found.append(move)
    return tuple(found)


def removals(
    releases: Sequence[ReleaseApis], matrix: Matrix, *, unstable: bool = False
) -> tuple[Removal, ...]:
    """For every API of the matrix that HEAD (the last release) deprecates, what removing
    the deprecated versions would do: the client releases before HEAD a HEAD broker would
    strand, and the broker releases a HEAD client could no longer talk to."""
    if not releases:
        return ()
    head = releases[-1]
    removed_head = head.without_deprecated()
    out = []
    for j, api in enumerate(matrix.apis):
        spec = head.apis.get(api.key)
        if spec is None or (spec.deprecated & spec.valid).empty:
            continue
        remaining = removed_head.apis[api.key].offered(unstable)
        older = range(len(matrix.releases) - 1)
        clients = [
            (matrix.releases[r], offered)
            for r in older
            if (offered := matrix.offered[r][j]) is not None
        ]
        brokers = [
            (matrix.releases[r], served)
            for r in older
            if (served := matrix.served[r][j]) is not None
        ]
        serves = spec.served(api.role)
        out.append(
            Removal(
                api,
                spec.deprecated & spec.valid,
                remaining,
                stranded_spans(clients, remaining) if serves else (),
                stranded_spans(brokers, remaining),
            )
        )
    return tuple(out)


def what_if_dropped(
    releases: Sequence[ReleaseApis], apis: Sequence[Api], *, unstable: bool = False
) -> tuple[Matrix, tuple[Removal, ...]]:
    """The matrix with HEAD judged as if every ``deprecatedVersions`` range were removed,
    and what each removal strands."""
    matrix = build(releases, apis, unstable=unstable)
    changed = [*releases[:-1], releases[-1].without_deprecated()] if releases else []
    return build(changed, apis, unstable=unstable), removals(releases, matrix, unstable=unstable)
