"""A document as one request finds it: what a handler reads, fixed when it is taken.

The event loop collects what a request needs (:class:`Wanted`: the texts the editor
holds and the parses the session already has of them) and the answering thread takes
the :class:`Snapshot` from it (:func:`take`): it parses the texts not parsed yet, so a
megabyte spec is parsed off the loop. A snapshot holds the parse of the document's
current text, the latest parse that had a message (completion while the text does not
parse), whether it is a spec at all, and for navigation the folder's specs as the editor
holds them. Handlers (:mod:`kcompat.lsp.handlers`) are functions of a snapshot and the
request's parameters: nothing in a snapshot changes after it is taken, so a handler
needs no lock and a test needs no server.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pygls.uris import from_fs_path

from kcompat.lsp.documents import Parsed, parse
from kcompat.spec.specfile import SpecFile, named_spec

#: What marks a file that does not parse yet as a spec: its name, or a key only specs have.
SPEC_NAMES = ("Request.json", "Response.json")
SPEC_TEXT = ('"validVersions"', '"apiKey"', '"flexibleVersions"')


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


@dataclass(frozen=True)
class Opened:
    """An open document as the loop finds it: its text, and the session's parse of it
    (of some earlier text, perhaps: :func:`current` checks)."""

    uri: str
    path: str
    text: str
    known: Parsed | None = None


@dataclass(frozen=True)
class Wanted:
    """What a request needs, collected on the loop: texts, not parses."""

    document: Opened
    encoding: str
    readable: Parsed | None = None  # the session's latest parse of it that had a message
    folder: tuple[Opened, ...] | None = None  # navigation: the folder's open documents


def current(opened: Opened, encoding: str, recent: Parsed | None = None) -> Parsed:
    """The parse of the document's text: a known one (the session's, or ``recent``) if
    it is of this text, else a new one (the long part for a big spec: on the answering
    thread, never on the loop)."""
    for known in (opened.known, recent):
        if known is not None and known.text == opened.text and known.encoding == encoding:
            return known
    return parse(opened.path, opened.text, encoding)


def take(
    wanted: Wanted, on_disk: Sequence[SpecFile] = (), recent: Mapping[str, Parsed] | None = None
) -> tuple[Snapshot, dict[str, Parsed]]:
    """The snapshot a request is answered from, and the parses it holds that the session
    did not have (uri -> parse), for the session to keep. ``on_disk``: the folder's specs
    on disk, for navigation (an open document's text wins over its file); ``recent``:
    parses made for earlier requests the session may not have kept yet (a second request
    sent before the first was answered does not parse the same megabyte again)."""
    recent = recent or {}
    document = wanted.document
    parses = {document.uri: current(document, wanted.encoding, recent.get(document.uri))}
    parsed = parses[document.uri]
    readable = parsed if parsed.message is not None else wanted.readable
    folder: tuple[Parsed, ...] = ()
    if wanted.folder is not None:
        for opened in wanted.folder:
            if opened.uri not in parses:
                parses[opened.uri] = current(opened, wanted.encoding, recent.get(opened.uri))
        specs = [parses[o.uri] for o in wanted.folder] or [parsed]
        paths = {p.path for p in specs}
        specs += [
            Parsed(spec.path, spec.document.text, spec, wanted.encoding)
            for spec in on_disk
            if spec.path not in paths and spec.document is not None
        ]
        folder = tuple(specs)
    made = {uri: p for uri, p in parses.items() if p is not _known(wanted, uri)}
    spec = is_spec(parsed, readable)
    return Snapshot(document.uri, parsed, readable, spec, folder), made


def _known(wanted: Wanted, uri: str) -> Parsed | None:
    for opened in (wanted.document, *(wanted.folder or ())):
        if opened.uri == uri:
            return opened.known
    return None


def is_spec(parsed: Parsed, readable: Parsed | None) -> bool:
    """Whether a document is (or is becoming) a spec, not some other JSON an editor
    sends (its settings, ``package.json``): completion and fixes are for specs."""
    known = parsed if parsed.spec.document is not None else readable
    if known is not None:
        return named_spec(known.spec)
    name = os.path.basename(parsed.path)
    return name.endswith(SPEC_NAMES) or any(key in parsed.text for key in SPEC_TEXT)


def remembered(parses: Mapping[str, Parsed], recent: dict[str, Parsed], keep: int) -> None:
    """Keep the latest ``keep`` parses in ``recent`` (uri -> parse), newest last."""
    for uri, parsed in parses.items():
        recent.pop(uri, None)
        recent[uri] = parsed
    while len(recent) > keep:
        recent.pop(next(iter(recent)))
