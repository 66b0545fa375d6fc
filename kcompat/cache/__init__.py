"""Every disk cache kcompat keeps between runs: one package, one set of rules.

- **Where** (:mod:`.location`): ``KCOMPAT_CODE_CACHE=off|DIR``, else the platform's user
  cache directory (platformdirs), symbolic links resolved, never inside a git working
  tree, never creating a missing home directory.
- **Trust** (:mod:`.trust`): checked on what was opened, at every read: the directory and
  each entry owned by the effective user and writable by nobody else.
- **Whole** (:mod:`.entries`): one key rule names every entry; each carries a digest of
  its payload, verified before the payload is used.
- **Atomic and bounded** (:mod:`.store`): written under a private name and renamed; the
  oldest go past :data:`~kcompat.cache.store.MAX_FILES`.

A :class:`Cache` is an explicit object: a command makes one (:func:`user_cache`) and hands
it to what needs it (the codec gets ``cache.code``; the release ledger reads and writes
its entries). Nothing below the commands reaches for the disk by itself.
"""

from __future__ import annotations

from kcompat.cache.entries import CODE, RELEASE, Kind
from kcompat.cache.location import Location, entries_location
from kcompat.cache.store import Cache

__all__ = ["CODE", "RELEASE", "Cache", "Kind", "Location", "user_cache"]


def user_cache() -> Cache | None:
    """The user's cache, as the environment chooses it (None: turned off, or nowhere it
    may be)."""
    location = entries_location()
    return Cache(location) if location is not None else None
