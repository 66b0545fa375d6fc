"""Where one side of a comparison reads its spec texts: the :class:`SpecSource` interface.

A side is a directory (or one file), a git revision (or a folder of one), the index, or
the working tree of a repository, each a small module of this package
(:mod:`~kcompat.sources.directory`, :mod:`~kcompat.sources.revision`,
:mod:`~kcompat.sources.staged`, :mod:`~kcompat.sources.worktree`). Commands hold a side
only through this interface, and :func:`kcompat.sources.sides.side_for` turns what the
user typed into one, asking each module's parser in turn (``docs/sources.md`` shows how
to add a source).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Protocol

from kcompat.memo import Lru
from kcompat.sources.files import from_here

if TYPE_CHECKING:
    from kcompat.sources.git import GitRepo


class SpecSource(Protocol):
    """Spec texts by path, and how to name them."""

    @property
    def label(self) -> str:
        """The side as the user wrote it (``3.7.0``, ``specs/``, ``the index``)."""
        ...

    @property
    def repo(self) -> GitRepo | None:
        """The repository the texts come from (None outside git)."""
        ...

    @property
    def commit(self) -> str | None:
        """The commit the texts are at (None unless a revision: releases and the tag
        ledger are read from it)."""
        ...

    @property
    def whole(self) -> bool:
        """Every file of the side, not one folder or file of it."""
        ...

    @property
    def working_tree(self) -> bool:
        """The files of a repository as they are on disk (its configuration is the one
        this run loaded)."""
        ...

    def read(self, path: str) -> bytes | None:
        """A file's bytes (at most the size limit and one more), None if absent."""
        ...

    def paths(self, pathspecs: Sequence[str] = ()) -> list[str]:
        """Every ``*.json`` path on this side (under ``pathspecs`` for git sides)."""
        ...

    def changed_since(self, commit: str, pathspecs: Sequence[str] = ()) -> list[str] | None:
        """The paths that differ from ``commit`` of the same repository, as git lists
        them (None when git cannot tell: every file is then a candidate)."""
        ...

    def shown(self, path: str) -> str:
        """How findings name a file of this side: as the user would open it."""
        ...

    def path_of(self, shown: str) -> str | None:
        """Back from :meth:`shown` to the side's path (None if it is not one)."""
        ...

    def reference(self, path: str) -> str:
        """How the user names a file of this side on the command line (``REV:path``)."""
        ...

    def restricted(self, path: str) -> SpecSource:
        """This side reduced to one file or folder."""
        ...


def in_repository(root: Path, path: str) -> str:
    """How findings name a repository file: as seen from the working directory
    (memoised: an audit names the same files in hundreds of comparisons, and path
    arithmetic is not free)."""
    key = (str(root), path, os.getcwd())
    return _LABELS.get(key, lambda: _repo_label(*key))


#: Labels of repository files, and paths back from labels, by (root, path, working
#: directory): the same answers whichever thread asks.
_LABELS: Lru[tuple[str, str, str], str] = Lru("repository labels", 65536)
_PATHS: Lru[tuple[str, str, str], str | None] = Lru("repository paths", 65536)


def _repo_label(root: str, path: str, cwd: str) -> str:
    """A repository file as shown from ``cwd``."""
    shown = from_here(Path(root) / path)
    return shown if not shown.startswith("../../") else str(PurePosixPath(path))


def relative_to(shown: str, root: Path) -> str | None:
    """Back from a label to the path under ``root``."""
    key = (shown, str(root), os.getcwd())
    return _PATHS.get(key, lambda: _relative_to(*key))


def _relative_to(label: str, root: str, cwd: str) -> str | None:
    full = Path(label).resolve()
    try:
        return full.relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return label if not Path(label).is_absolute() else None
