"""Which client releases a change to a request leaves with no version to send.

From what each release offered of the request (:attr:`kcompat.spec.released.Shipped`
``offers``, read with the releases): the client releases that could talk to BASE (they
share a version with it) and share none with HEAD, as spans of neighbours alike in their
highest version (:func:`~kcompat.negotiation.negotiate.stranded_spans`).
"""

from __future__ import annotations

from kcompat.negotiation.negotiate import Span, api_label, strand_phrase, stranded_spans
from kcompat.spec.model import Message
from kcompat.spec.released import TAGS, Releases
from kcompat.spec.versions import Versions


def stranded(releases: Releases, base: Message, head: Message) -> tuple[Span, ...] | None:
    """The client releases a change to a request strands; None when that is not known
    (no release tags, or not a request)."""
    if releases.mode != TAGS or base.kind != "request" or head.kind != "request":
        return None
    before, after = base.released_versions, head.released_versions
    clients = [
        (release, offered)
        for release, text in releases.shipped_of(base.name).offers
        if not ((offered := Versions.parse(text)) & before).empty
    ]
    return stranded_spans(clients, after)


def stranding(releases: Releases, base: Message, head: Message) -> str:
    """What :func:`stranded` says in words: ``clients of 2.2.0–2.6.3 can no longer send
    ListOffsets (their highest version is 5)``, ``no client release is stranded`` when
    every release that sent it still shares a version, or "" when unknown."""
    spans = stranded(releases, base, head)
    if spans is None:
        return ""
    if not spans:
        return "no client release is stranded: each still shares a version with it"
    return strand_phrase(api_label(head.name), spans)
