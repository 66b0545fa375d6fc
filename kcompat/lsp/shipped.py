"""Which releases shipped a message or a field, for hover: read from the release tags.

The same releases ``kcompat diff`` judges by (:func:`kcompat.sources.releases.releases_for`:
the configured release tags, wherever they sit), asked for the message of one file at
each release. Read once per file and kept: release tags do not move while one edits.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from kcompat.config import Config
from kcompat.errors import UsageError
from kcompat.sources.compared import Lineage
from kcompat.sources.git import GitRepo
from kcompat.sources.releases import TagReleases, releases_for
from kcompat.spec.model import Message


@dataclass(frozen=True)
class Shipping:
    """A message as each release shipped it, oldest release first."""

    releases: tuple[tuple[str, Message], ...] = ()
    known: bool = False  # False: no git or no release tags, so nobody knows

    def of_message(self) -> list[str]:
        """The releases that shipped some version of the message."""
        return [name for name, message in self.releases if not message.released_versions.empty]

    def of_field(self, field_path: str) -> list[str]:
        """The releases that shipped the field (by its path) in a version they released."""
        out = []
        for name, message in self.releases:
            released = message.released_versions
            for path, item in message.walk():
                if path == field_path and item.versions.overlaps(released):
                    out.append(name)
                    break
        return out


@dataclass
class ReleaseIndex:
    """Shipping per (file, message), and each repository's releases. Looked up from the
    server's background threads (one at a time: a lookup reads git) and read from its
    event loop and its answering thread (:meth:`known`, no wait)."""

    _releases: dict[str, TagReleases | None] = field(default_factory=dict)
    _shipping: dict[tuple[str, str], Shipping] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def known(self, path: str, name: str) -> Shipping | None:
        """What was looked up already for the message of this file, if it was."""
        return self._shipping.get((path, name))

    def shipping(self, repo: GitRepo | None, path: str, name: str, config: Config) -> Shipping:
        if repo is None or not name:
            return Shipping()
        key = (path, name)
        with self._lock:
            if key not in self._shipping:
                self._shipping[key] = self._read(repo, path, name, config)
            return self._shipping[key]

    def _read(self, repo: GitRepo, path: str, name: str, config: Config) -> Shipping:
        root = str(repo.root)
        if root not in self._releases:
            self._releases[root] = releases_for(
                repo, config.release_tags, config.release_branches or None
            )
        releases = self._releases[root]
        if releases is None:
            return Shipping()
        try:
            relative = repo.relative(path)
        except UsageError:
            return Shipping()
        found = []
        for tag in releases.tags:
            message = releases.message_at(tag, relative, Lineage((name,)))
            if message is not None:
                found.append((tag.name, message))
        return Shipping(tuple(found), known=True)
