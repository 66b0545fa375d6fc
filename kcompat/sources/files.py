"""Files and folders on the file system (read-only): how they are named, listed and read
one by one (a folder of specs is read as a :class:`~kcompat.sources.directory.DirectorySource`)."""

from __future__ import annotations

import os
from pathlib import Path

from kcompat.bounded import read_or_explain
from kcompat.errors import UsageError
from kcompat.sources.confine import confine
from kcompat.spec.load import MAX_BYTES
from kcompat.spec.specfile import SpecFile, read_spec

_SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", "build", "dist"}


def display_path(path: Path) -> str:
    """A path as the user typed it (``/tmp/x.json`` stays absolute, ``../x`` relative):
    messages echo what was named, never a path worked out from the working directory."""
    return str(path)


def from_here(path: Path) -> str:
    """A path kcompat found (a repository's file, a configured folder) as seen from the
    working directory, so it opens from there; absolute where no relative path exists
    (another drive)."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def read_file(path: Path, label: str | None = None) -> SpecFile:
    """Read one file (at most the size limit, never a FIFO or a device, never through a
    link out of its repository: :mod:`kcompat.sources.confine`); a missing or unreadable
    file is a :class:`UsageError`."""
    shown = label or display_path(path)
    confine(path, shown)
    got = read_or_explain(path, MAX_BYTES, shown)
    return read_spec(shown, got.data, got.size)


def json_files(directory: Path, *, flat: bool = False) -> list[Path]:
    """Every *.json under a directory (``flat``: in it, not below), sorted, skipping VCS
    and build folders.

    A folder that cannot be listed ends the run, as an unreadable file does: specs in it
    would otherwise pass unchecked without a word.
    """
    found: list[Path] = []
    for root, dirs, files in os.walk(directory, onerror=_unlistable):
        dirs[:] = [] if flat else sorted(d for d in dirs if d not in _SKIP_DIRS and d[0] != ".")
        found.extend(Path(root) / name for name in sorted(files) if name.endswith(".json"))
    return found


def _unlistable(err: OSError) -> None:
    where = display_path(Path(err.filename)) if err.filename else "a folder"
    raise UsageError(f"{where}: cannot read the folder ({err.strerror or err})")
