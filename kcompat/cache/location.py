"""Where the user's cache is: chosen, or the platform's cache directory, never in a repository.

``KCOMPAT_CODE_CACHE=off`` turns every disk cache off; ``KCOMPAT_CODE_CACHE=DIR`` chooses
the directory of the cache's entries. Otherwise it is the platform's user cache directory
as platformdirs names it (``$XDG_CACHE_HOME/kcompat`` or ``~/.cache/kcompat`` on Linux,
``~/Library/Caches/kcompat`` on macOS), with the entries in ``codec/`` below it.

Symbolic links are resolved before anything is decided, so a linked ``XDG_CACHE_HOME``
that leads into a git working tree is seen there (kcompat writes nothing into a
repository). The home directory is never created: with a ``$HOME`` that does not exist,
there is no default cache (see :class:`Location`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from platformdirs.api import PlatformDirsABC

#: The variable that turns the cache off or chooses its directory.
ENV = "KCOMPAT_CODE_CACHE"
#: Its values that turn the cache off.
OFF = ("off", "0", "no", "false")
#: The application's name in the platform's cache directory.
APP = "kcompat"
#: The folder of the entries (compiled codecs, release texts' facts) below it.
ENTRIES = "codec"


class Location(NamedTuple):
    """A cache directory, its symbolic links resolved, and the home directory (resolved too)
    that may never be created on the way to it (None: no home directory is involved)."""

    directory: Path
    home: Path | None = None

    def may_create(self, folder: Path) -> bool:
        """Whether a missing ``folder`` on the way may be made: not the home directory,
        nor one of its parents (a missing home means a misconfigured account)."""
        return self.home is None or not self.home.is_relative_to(folder)


def entries_location(dirs: PlatformDirsABC | None = None) -> Location | None:
    """Where the cache's entries go (``KCOMPAT_CODE_CACHE``, else the platform's user cache
    directory; ``dirs``: another platform's rules, for tests), or None when turned off or
    when that directory is inside a git working tree."""
    chosen = os.environ.get(ENV, "").strip()
    if chosen.lower() in OFF:
        return None
    if chosen:
        return _checked(Path(os.path.expanduser(chosen)))
    root = user_cache_root(dirs)
    return None if root is None else _checked(root.directory / ENTRIES)


def user_cache_root(dirs: PlatformDirsABC | None = None) -> Location | None:
    """kcompat's folder in the platform's user cache directory (None: none to be had, or
    inside a working tree). Other caches (Spark's class archive) live here too."""
    if dirs is None:
        from platformdirs import PlatformDirs

        dirs = PlatformDirs(APP, appauthor=False)
    try:
        folder = dirs.user_cache_path
    except (RuntimeError, KeyError, OSError):  # no home directory to be found at all
        return None
    return _checked(folder)


def _checked(folder: Path) -> Location | None:
    if not folder.is_absolute():
        return None  # "~" that did not expand, or a relative setting
    resolved = Path(os.path.realpath(folder))
    if in_working_tree(resolved):
        return None
    return Location(resolved, _home())


def _home() -> Path | None:
    """The home directory, resolved (None: unknown)."""
    home = os.path.expanduser("~")
    return Path(os.path.realpath(home)) if os.path.isabs(home) else None


def in_working_tree(folder: Path) -> bool:
    """Whether ``folder`` (or the nearest folder of it that exists) is inside a git
    repository's working tree or git directory."""
    for each in (folder, *folder.parents):
        if each.name == ".git" or os.path.lexists(each / ".git"):
            return True
    return False
