"""A document as one request finds it: what a handler reads, fixed when it is taken.

The session takes a :class:`Snapshot` on the event loop (:meth:`Session.snapshot
<kcompat.lsp.session.Session.snapshot>`): the parse of the document's current text,
the latest parse that had a message (completion while the text does not parse), whether
it is a spec at all, and for navigation the folder's specs as the editor holds them.
Handlers (:mod:`kcompat.lsp.handlers`) are functions of a snapshot and the request's
parameters: nothing in a snapshot changes after it is taken, so a handler needs no lock
and a test needs no server.
"""

from __future__ import annotations

from dataclasses import dataclass

from pygls.uris import from_fs_path

from kcompat.lsp.documents import Parsed


@dataclass(frozen=True)
class Snapshot:
    """One document at one moment, and what a handler may need beside it."""

    uri: str
    parsed: Parsed  # the parse of the document's current text
    readable: Parsed | None  # the latest parse of it that had a message
    spec: bool  # a spec (or becoming one), not some other JSON an editor sends
    folder: tuple[Parsed, ...] = ()  # for navigation: its folder's specs, as edited

    def uri_of(self, parsed: Parsed) -> str:
        """The URI of a spec of the snapshot (this document's own URI for itself)."""
        if parsed.path == self.parsed.path:
            return self.uri
        return from_fs_path(parsed.path) or parsed.path
