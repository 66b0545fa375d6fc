"""Spec files from the file system (read-only)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from kcompat.bounded import read_or_explain
from kcompat.errors import UsageError
from kcompat.sources.confine import confine
from kcompat.spec.load import MAX_BYTES
from kcompat.spec.specfile import SpecFile, looks_like_spec, named_spec, read_spec

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


def json_files(directory: Path) -> list[Path]:
    """Every *.json under a directory, sorted, skipping VCS and build folders.

    A folder that cannot be listed ends the run, as an unreadable file does: specs in it
    would otherwise pass unchecked without a word.
    """
    found: list[Path] = []
    for root, dirs, files in os.walk(directory, onerror=_unlistable):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        found.extend(Path(root) / name for name in sorted(files) if name.endswith(".json"))
    return found


def _unlistable(err: OSError) -> None:
    where = display_path(Path(err.filename)) if err.filename else "a folder"
    raise UsageError(f"{where}: cannot read the folder ({err.strerror or err})")


def read_directory(directory: Path) -> list[SpecFile]:
    """The spec files in a directory tree (other JSON files are skipped)."""
    specs = (read_file(path) for path in json_files(directory))
    return [spec for spec in specs if looks_like_spec(spec)]


def read_paths(paths: Sequence[str]) -> tuple[list[SpecFile], list[SpecFile]]:
    """Targets named on the command line, and context: sibling specs of named files.

    Cross-file lint rules need a file's neighbours (its response, other API keys), so a
    pre-commit run on one changed file still sees the rest of its directory. A named file
    that is some other JSON (``package.json``) is skipped: a hook names every change.
    """
    targets: list[SpecFile] = []
    context: list[SpecFile] = []
    seen: set[str] = set()
    sibling_dirs: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for spec in read_directory(path):
                if spec.path not in seen:
                    seen.add(spec.path)
                    targets.append(spec)
        else:
            spec = read_file(path)
            if not named_spec(spec):
                continue
            if spec.path not in seen:
                seen.add(spec.path)
                targets.append(spec)
                sibling_dirs.add(path.parent)
    for directory in sorted(sibling_dirs):
        for sibling in _siblings(directory, seen):
            context.append(sibling)
    return targets, context


def _siblings(directory: Path, seen: Iterable[str]) -> list[SpecFile]:
    known = set(seen)
    out = []
    for path in sorted(directory.glob("*.json")):
        label = display_path(path)
        if label in known or not path.is_file():
            continue  # a directory named *.json is not a sibling spec
        try:
            spec = read_file(path, label)
        except UsageError:
            continue  # an unreadable neighbour is context only: it must not end the run
        if looks_like_spec(spec):
            out.append(spec)
    return out
