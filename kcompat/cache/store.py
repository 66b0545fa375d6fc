"""One command's disk cache: sealed entries in one private directory, bounded in size.

A :class:`Cache` is made at the edge (a command, :func:`kcompat.cache.user_cache`) and
handed to whatever keeps something between runs; nothing reaches for it by itself. Its
directory is opened on first use (made private where missing) and kept open; every read
checks that directory and the opened entry again (:mod:`kcompat.cache.trust`) and
verifies the entry's seal (:mod:`kcompat.cache.entries`). Whatever fails is as if
nothing were stored: the caller works it out again, and the run is as right, only colder.
"""

from __future__ import annotations

import contextlib
import os
import stat
import time
from functools import cached_property
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from kcompat.cache.entries import MAGIC, PRUNED_SUFFIXES, Kind, entry_name, seal, unseal
from kcompat.cache.location import Location
from kcompat.cache.trust import open_directory, private, read_entry, write_entry

if TYPE_CHECKING:
    from kcompat.cache.code import CodeEntries

#: Entries kept at most; past it, the oldest go, down to three quarters of it (checked at
#: a cache's first write and every PRUNE_EVERY writes after).
MAX_FILES = 4096
PRUNE_EVERY = 64
#: A partial file older than this (seconds) was left by a process that died writing it.
STALE_PARTIAL = 3600
_SEAL = len(MAGIC) + 32


class Cache:
    """Sealed entries by kind and key, in one directory of the user's own."""

    def __init__(self, location: Location) -> None:
        self.location = location
        self._fd: int | None = None
        self._opened = False
        self._written = 0

    @property
    def directory(self) -> Path:
        return self.location.directory

    @cached_property
    def code(self) -> CodeEntries:
        """Compiled code by source text (what the codec is handed)."""
        from kcompat.cache.code import CodeEntries

        return CodeEntries(self)

    def read(self, kind: Kind, key: bytes) -> bytes | None:
        """The payload stored for ``key``, whole and the user's own, or None."""
        fd = self._directory()
        if fd is None:
            return None
        name = entry_name(kind, key)
        data = read_entry(fd, name, kind.limit + _SEAL)
        return None if data is None else unseal(name, data)

    def write(self, kind: Kind, key: bytes, payload: bytes) -> None:
        """Store ``payload`` for ``key`` for the next run (silently not, when it cannot)."""
        fd = self._directory()
        if fd is None or len(payload) > kind.limit:
            return
        name = entry_name(kind, key)
        if write_entry(fd, name, seal(name, payload)):
            self._written += 1
            if (self._written - 1) % PRUNE_EVERY == 0:
                _prune(fd)

    def trusted_directory(self) -> Path | None:
        """The directory, made and checked as for entries, for a tool that needs a path
        (the JVM's class archive); None when it is not the user's own."""
        return self.directory if self._directory() is not None else None

    def close(self) -> None:
        """Close the directory (a later use opens it again)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
        self._fd, self._opened = None, False

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter exit modules may be gone
            self.close()

    def __enter__(self) -> Cache:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def _directory(self) -> int | None:
        if not self._opened:
            self._opened = True
            self._fd = open_directory(self.location)
        return self._fd


def _prune(directory: int) -> None:
    """Keep the directory near :data:`MAX_FILES` entries (the oldest go first), and remove
    partial files their writers left behind."""
    kept: list[tuple[float, str]] = []
    now = time.time()
    with contextlib.suppress(OSError), os.scandir(directory) as found:
        for entry in found:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if not stat.S_ISREG(info.st_mode) or not private(info):
                continue
            if entry.name.endswith(PRUNED_SUFFIXES):
                kept.append((info.st_mtime, entry.name))
            elif entry.name.endswith(".partial") and now - info.st_mtime > STALE_PARTIAL:
                _remove(directory, entry.name)
    if len(kept) <= MAX_FILES:
        return
    kept.sort()
    for _mtime, name in kept[: len(kept) - MAX_FILES * 3 // 4]:
        _remove(directory, name)


def _remove(directory: int, name: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(name, dir_fd=directory)
