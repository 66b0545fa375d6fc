"""Trust, checked on what was opened: the cache directory and each entry are the user's own.

A name is only a name: between a check of a path and its use, another user may create or
replace what it names (a cache under ``/tmp`` or a shared runner's home). So nothing here
checks a path. The directory is opened one component at a time from the root, each with
``O_NOFOLLOW`` relative to the one before (its path was resolved beforehand: a symbolic
link met now was put there since), and ``fstat`` of the opened directory must say it is
owned by the effective user and writable by nobody else. Entries are opened relative to
that descriptor (``dir_fd``), with ``O_NOFOLLOW``, and ``fstat`` of each opened file says
the same of it, at every read.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from kcompat.cache.location import Location

_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO put in the way does not block a read
_DIRECTORY = os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC
_READ = os.O_RDONLY | _O_NOFOLLOW | _O_CLOEXEC | _O_NONBLOCK
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC


def supported() -> bool:
    """Whether this system opens relative to a directory without following links (else
    there is no disk cache: a check of a path would be all there is)."""
    return (
        bool(_O_DIRECTORY and _O_NOFOLLOW)
        and {os.open, os.mkdir, os.rename, os.unlink} <= os.supports_dir_fd
    )


def private(found: os.stat_result) -> bool:
    """Owned by the effective user, and neither its group nor others may write it."""
    return found.st_uid == os.geteuid() and not found.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def open_directory(location: Location) -> int | None:
    """A descriptor of the cache directory, made (private) where it is missing and allowed
    to be, and checked: the user's own, writable by nobody else (None otherwise)."""
    if not supported():
        return None
    folder = Path(location.directory.anchor)
    fd: int | None = None
    try:
        fd = os.open(folder, _DIRECTORY)
        for part in location.directory.parts[1:]:
            folder = folder / part
            parent, fd = fd, None
            fd = _step(parent, part, location.may_create(folder))  # closes the parent
        if private(os.fstat(fd)):
            return fd
    except OSError:
        pass
    if fd is not None:
        os.close(fd)
    return None


def _step(parent: int, name: str, may_create: bool) -> int:
    """The descriptor of ``name`` below ``parent`` (closed), made if missing and allowed."""
    try:
        try:
            return os.open(name, _DIRECTORY, dir_fd=parent)
        except FileNotFoundError:
            if not may_create:
                raise
            with contextlib.suppress(FileExistsError):  # another process made it meanwhile
                os.mkdir(name, 0o700, dir_fd=parent)
            return os.open(name, _DIRECTORY, dir_fd=parent)
    finally:
        os.close(parent)


def read_entry(directory: int, name: str, limit: int) -> bytes | None:
    """The bytes of entry ``name`` (at most ``limit``), if the directory and the opened
    file are both the user's own and writable by nobody else; None otherwise."""
    try:
        if not private(os.fstat(directory)):
            return None
        fd = os.open(name, _READ, dir_fd=directory)
    except OSError:
        return None
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode) or not private(found) or found.st_size > limit:
            return None
        chunks = []
        left = found.st_size + 1  # one more: a file that grew meanwhile is refused
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        return data if len(data) <= found.st_size else None
    except OSError:
        return None
    finally:
        os.close(fd)


def write_entry(directory: int, name: str, data: bytes) -> bool:
    """Write entry ``name`` whole or not at all: under a name of this process's own, then
    renamed over it (a reader sees the old entry or the new one, never half of one)."""
    partial = f".{name}.{os.getpid()}.{os.urandom(4).hex()}.partial"
    try:
        fd = os.open(partial, _CREATE, 0o600, dir_fd=directory)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.rename(partial, name, src_dir_fd=directory, dst_dir_fd=directory)  # replaces
        return True
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(partial, dir_fd=directory)
        return False
