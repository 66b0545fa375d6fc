"""Kafka's rule for picking a version, and what a client release loses when it cannot.

A client sends ApiVersionsRequest, the broker answers with its range per API, and for each
request the client uses the highest version both ranges hold; when they share none, the
client cannot use that API with that broker (UnsupportedVersionException): it is
*stranded*. A broker that does not serve an API at all strands the clients that have it
only if an earlier release served it (it was removed); an API newer than the broker is
a feature the broker lacks, not a client cut off.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kcompat.spec.versions import Versions

#: Outcomes of one API between a client and a broker that are not a negotiated version
#: (a version is 0 or more; these are negative so a cell is a plain tuple of ints).
STRANDED = -1  # the client has the API and shares no version with the broker
UNSERVED = -2  # the broker does not serve the API yet: it is newer than the broker
ABSENT = -3  # the client does not have the API


def negotiated(client: Versions, broker: Versions) -> int | None:
    """The version a client uses: the highest both ranges hold (None: they share none)."""
    shared = client & broker
    return None if shared.empty else shared.highest


def outcome(client: Versions | None, broker: Versions | None, served_before: bool) -> int:
    """One API between a client (its range, None if it lacks the API) and a broker (its
    advertised range, None if it does not serve it; ``served_before``: a release up to
    the broker's served it): the negotiated version, or :data:`STRANDED`,
    :data:`UNSERVED` or :data:`ABSENT`."""
    if client is None:
        return ABSENT
    if broker is None:
        return STRANDED if served_before else UNSERVED
    version = negotiated(client, broker)
    return STRANDED if version is None else version


@dataclass(frozen=True)
class Span:
    """Consecutive client releases that one broker range strands, alike in their highest
    version (what they would have sent)."""

    first: str
    last: str
    highest: int
    count: int

    @property
    def releases(self) -> str:
        """``2.2.0`` or ``2.2.0–2.6.3``."""
        return self.first if self.count == 1 else f"{self.first}–{self.last}"


def stranded_spans(clients: Sequence[tuple[str, Versions]], broker: Versions) -> tuple[Span, ...]:
    """The client releases (in release order, each with the range it offers) that share no
    version with ``broker``, as spans of neighbours with the same highest version."""
    spans: list[Span] = []
    previous = False  # the release before was stranded
    for release, offered in clients:
        if offered.empty:
            previous = False
            continue
        if not (offered & broker).empty:
            previous = False
            continue
        top = offered.highest
        if previous and spans and spans[-1].highest == top:
            last = spans[-1]
            spans[-1] = Span(last.first, release, top, last.count + 1)
        else:
            spans.append(Span(release, release, top, 1))
        previous = True
    return tuple(spans)


def api_label(name: str) -> str:
    """How prose names an API: its request's name without ``Request`` (ListOffsets)."""
    return name.removesuffix("Request") or name


def strand_phrase(api: str, spans: Sequence[Span], to: str = "") -> str:
    """``clients of 2.2.0–2.6.3 can no longer send ListOffsets (their highest version is
    5)``; spans of other highest versions are named each with its own; ``to`` names the
    broker (``to HEAD brokers``)."""
    if not spans:
        return ""
    sent = f"can no longer send {api}{' ' + to if to else ''}"
    if len({span.highest for span in spans}) == 1:
        where = _joined([span.releases for span in spans])
        return f"clients of {where} {sent} (their highest version is {spans[0].highest})"
    parts = [f"{span.releases} (highest version {span.highest})" for span in spans]
    return f"clients of {_joined(parts)} {sent}"


def _joined(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
