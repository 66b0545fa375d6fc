"""Compiled codec code kept across kcompat processes, in the user's cache directory.

Compiling the generated codec modules (:mod:`kcompat.codec.compiler`) is a large part of
a small proof: a cold ``kcompat diff --staged`` with one Kafka message changed compiled
10 modules in about 20 ms, a tenth of its CPU time, and a pre-commit hook does it again on
every commit. A long process keeps its code objects in memory; a command-line process
(:func:`kcompat.cli.run` turns this on) also stores them, marshalled, under
``$XDG_CACHE_HOME/kcompat/codec`` (``~/.cache``), one file per generated source, named by
the SHA-256 of that source and of the interpreter's version: a file written by another
Python, or for another source, is never read. The release ledger keeps what release texts
say in the same directory (:mod:`kcompat.sources.release_texts`).

``KCOMPAT_CODE_CACHE=off`` turns it off, ``KCOMPAT_CODE_CACHE=DIR`` chooses the
directory. Nothing is written inside a git working tree (a home directory that is one),
a file that is missing or unreadable is compiled again, a directory that cannot be
written is left alone, a directory another user owns or others may write to is not used
(its files are code this process would run), and the directory stays near
:data:`MAX_FILES` files (the oldest go first). Files are written under a name of their
own and renamed, so two processes never write one file together.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from pathlib import Path
from types import CodeType

#: Code files kept at most; past it, the oldest go, down to three quarters of it (checked
#: at a process's first store and every PRUNE_EVERY stores after).
MAX_FILES = 4096
PRUNE_EVERY = 64
_OFF = ("off", "0", "no", "false")
#: The files the cache keeps: compiled code, and release texts' facts
#: (:mod:`kcompat.sources.release_texts`)
KEPT = (".code", ".release.json")


class CodeCache:
    """Code objects by source text, in one directory (None: no directory, no disk)."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self.stored = 0

    def load(self, source: str) -> CodeType | None:
        """The stored code of ``source``, or None (not stored, unreadable, or no cache)."""
        if self.directory is None:
            return None
        try:
            data = (self.directory / self.name(source)).read_bytes()
            code = marshal.loads(data)
        except (OSError, EOFError, ValueError, TypeError):
            return None
        return code if isinstance(code, CodeType) else None

    def store(self, source: str, code: CodeType) -> None:
        """Keep ``code`` for the next process (silently not, when it cannot be written)."""
        self.store_file(self.name(source), marshal.dumps(code))

    def store_file(self, name: str, data: bytes) -> None:
        """Write one file of the cache whole, or not at all (another process may be
        reading it; nothing is said when the directory cannot be written)."""
        if self.directory is None:
            return
        target = self.directory / name
        partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
        try:
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            partial.write_bytes(data)
            os.replace(partial, target)
            self.stored += 1
            if (self.stored - 1) % PRUNE_EVERY == 0:
                self._prune()
        except OSError:
            with contextlib.suppress(OSError):
                partial.unlink()

    @staticmethod
    def name(source: str) -> str:
        import hashlib

        digest = hashlib.sha256(f"{sys.version}\0{source}".encode("utf-8", "surrogatepass"))
        return f"{digest.hexdigest()}.code"

    def _prune(self) -> None:
        assert self.directory is not None
        with os.scandir(self.directory) as entries:
            files = [e for e in entries if e.name.endswith(KEPT)]
        if len(files) <= MAX_FILES:
            return
        by_age = sorted(files, key=lambda e: e.stat().st_mtime)
        for entry in by_age[: len(files) - MAX_FILES * 3 // 4]:
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


#: The cache compiled codecs use: none until a command-line process turns it on.
ACTIVE = CodeCache(None)


def enable() -> None:
    """Store compiled codec code in the user's cache directory (the command line's
    processes: each is short, and the next one starts cold)."""
    ACTIVE.directory = cache_directory()


def cache_directory() -> Path | None:
    """Where compiled code is kept: ``KCOMPAT_CODE_CACHE``, else the user's cache
    directory; None when turned off, or when that directory is inside a git working tree
    (kcompat writes nothing into a repository)."""
    chosen = os.environ.get("KCOMPAT_CODE_CACHE", "").strip()
    if chosen.lower() in _OFF:
        return None
    if chosen:
        directory = Path(os.path.abspath(os.path.expanduser(chosen)))
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        if not os.path.isabs(base):
            return None  # no home to speak of ("~" unexpanded, or a relative setting)
        directory = Path(base) / "kcompat" / "codec"
    if _in_working_tree(directory) or not _trusted(directory):
        return None
    return directory


def _trusted(directory: Path) -> bool:
    """Whether code read from ``directory`` can only be the user's own: it does not exist
    yet (it is made private), or it is owned by this user and nobody else may write it."""
    try:
        found = directory.stat()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return found.st_uid == os.geteuid() and not found.st_mode & 0o022


def _in_working_tree(directory: Path) -> bool:
    """Whether ``directory`` (or the nearest folder of it that exists) is inside a git
    repository's working tree or git directory."""
    for folder in (directory, *directory.parents):
        if (folder / ".git").exists() or folder.name == ".git":
            return True
    return False
