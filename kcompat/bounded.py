"""Reading a named file with bounded memory and without blocking.

A path can name a FIFO (``open()`` waits for a writer forever) or, through a symlink git
happily commits, a device such as ``/dev/zero`` (it reports size 0 and never ends). So
every file kcompat reads goes through here: the file type is checked with ``stat`` before
opening, the file is opened non-blocking and checked again with ``fstat`` (it may have
been swapped in between), and at most ``limit + 1`` bytes are read, so "too large" is
detectable without holding more than that.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from kcompat.errors import UsageError

_CHUNK = 1 << 20
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


class NotRegularFileError(OSError):
    """The path names a FIFO, a device or a socket: something kcompat never reads."""


@dataclass(frozen=True)
class Capped:
    """The first bytes of a file (``limit + 1`` at most) and the file's real size."""

    data: bytes
    size: int
    limit: int

    @property
    def over(self) -> bool:
        """True when the file holds more than the limit (``data`` is then cut short)."""
        return len(self.data) > self.limit


def read_capped(path: Path, limit: int) -> Capped:
    """At most ``limit + 1`` bytes of a regular file.

    Raises ``FileNotFoundError``, ``IsADirectoryError``, ``PermissionError`` (any
    ``OSError``) as ``open`` would, and :class:`NotRegularFileError` for anything that is
    neither a regular file nor a directory, before opening it for reading.
    """
    _check_kind(os.stat(path).st_mode, path)
    handle = os.open(path, _FLAGS)
    try:
        info = os.fstat(handle)
        _check_kind(info.st_mode, path)
        os.set_blocking(handle, True)
        data = _read_upto(handle, limit + 1, info.st_size + 1)
    finally:
        os.close(handle)
    return Capped(data, max(info.st_size, len(data)), limit)


def _read_upto(handle: int, wanted: int, expected: int) -> bytes:
    """At most ``wanted`` bytes: one read of the size ``fstat`` reports (a regular file
    gives it whole, so the data is held once), then more only if the file grew."""
    data = os.read(handle, min(wanted, expected))
    if not data or len(data) >= wanted:
        return data
    chunks = [data]
    wanted -= len(data)
    while wanted > 0:
        chunk = os.read(handle, min(wanted, _CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        wanted -= len(chunk)
    return b"".join(chunks)


def _check_kind(mode: int, path: Path) -> None:
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(21, "Is a directory", str(path))
    if not stat.S_ISREG(mode):
        raise NotRegularFileError(f"{kind_of(mode)}, not a regular file")


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def read_or_explain(path: Path, limit: int, shown: str) -> Capped:
    """:func:`read_capped`, every failure one :class:`UsageError` line naming ``shown``."""
    try:
        return read_capped(path, limit)
    except FileNotFoundError:
        raise UsageError(f"{shown}: no such file or directory") from None
    except IsADirectoryError:
        raise UsageError(f"{shown}: is a directory") from None
    except OSError as err:
        raise unreadable(err, shown) from None


def read_if_present(path: Path, limit: int, shown: str) -> bytes | None:
    """The first ``limit + 1`` bytes of a file, or None when there is no file there (a
    side of a comparison that lacks it); anything else unreadable is a :class:`UsageError`."""
    try:
        return read_capped(path, limit).data
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    except OSError as err:
        raise unreadable(err, shown) from None


def unreadable(err: OSError, shown: str) -> UsageError:
    """The one line for a file that exists but cannot be read."""
    if isinstance(err, NotRegularFileError):
        return UsageError(f"{shown}: {err}; kcompat reads only regular files")
    return UsageError(f"{shown}: cannot read ({err.strerror or err})")
