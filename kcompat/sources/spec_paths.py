"""Where specs live: the configuration's ``paths``, worked out in one place.

Every command asks the same few questions of them: which folders to read when none is
named (``lint``, ``explain``), which repository paths to list (``diff`` and what reads
git), and whether a file sits under them. A file there is a spec even when its text
cannot tell (:mod:`kcompat.sources.reading`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from kcompat.config import Config, ConfigError
from kcompat.errors import UsageError

if TYPE_CHECKING:  # lint reads paths without git: nothing here imports it
    from kcompat.sources.git import GitRepo
    from kcompat.sources.source import SpecSource


@dataclass(frozen=True)
class SpecPaths:
    """The configured ``paths`` (none: specs may be anywhere), as the configuration wrote
    them, relative to the folder it is in."""

    paths: tuple[str, ...] = ()
    root: str = ""  # the folder of the configuration file ("": the working directory)
    source: str = ""  # the configuration file, for its errors

    @staticmethod
    def of(config: Config) -> SpecPaths:
        return SpecPaths(config.paths, config.root, config.source)

    def __bool__(self) -> bool:
        return bool(self.paths)

    @property
    def base(self) -> Path:
        return Path(self.root) if self.root else Path(".")

    def roots(self) -> list[str]:
        """The folders to read when a command is given none, as seen from the working
        directory (found, not typed: shown so they open from here); one naming nothing is
        a :class:`ConfigError` (it would otherwise check nothing and pass)."""
        base = self.base
        roots = [
            os.path.relpath(base / p) if base.is_absolute() else str(base / p) for p in self.paths
        ]
        for path, root in zip(self.paths, roots, strict=True):
            if not _exists(Path(root)):
                raise ConfigError(f"{self.source}: paths: {path!r} names nothing in {base}; fix it")
        return roots

    def pathspecs(self, repo: GitRepo | None) -> list[str]:
        """The configured paths relative to ``repo``'s root (what git is asked to list),
        each checked: on disk, or at HEAD (a bare repository has no working tree)."""
        if not self.paths or repo is None:
            return []
        root = self.base
        specs = [repo.relative(root / p) for p in self.paths]
        for path, spec in zip(self.paths, specs, strict=True):
            if not _exists(root / path) and not (
                repo.has_commits() and repo.list_files(repo.head_sha(), [spec])
            ):
                raise ConfigError(f"{self.source}: paths: {path!r} names nothing in {root}; fix it")
        return specs

    def in_repository(self, repo: GitRepo) -> tuple[str, ...]:
        """The configured paths as repository paths, unchecked (a folder BASE names may be
        gone in HEAD), for a configuration read at a revision (its root defaults to the
        repository's); () for every spec file."""
        root = Path(self.root) if self.root else repo.root
        try:
            return tuple(sorted(repo.relative(root / p) for p in self.paths))
        except UsageError:  # a path outside the repository compares nothing there
            return tuple(sorted(p for p in self.paths))

    @cached_property
    def _resolved(self) -> tuple[Path, ...]:
        return tuple((self.base / p).resolve() for p in self.paths)

    def holds(self, path: Path) -> bool:
        """Whether a file on disk sits under the configured paths (False without any)."""
        if not self.paths:
            return False
        where = path.resolve()
        return any(where == root or root in where.parents for root in self._resolved)

    def holds_on(self, side: SpecSource, path: str) -> bool:
        """Whether ``path`` of ``side`` sits under the configured paths: a repository's
        file by its place in the repository, any other by where the side shows it."""
        if not self.paths:
            return False
        if side.repo is not None:
            return self.holds(side.repo.root / path)
        return self.holds(Path(side.shown(path)))


def under(path: str, pathspecs: tuple[str, ...] | list[str]) -> bool:
    """Whether a repository path is one of ``pathspecs`` or inside one (plain folder and
    file paths, as :meth:`SpecPaths.pathspecs` gives them)."""
    found = PurePosixPath(path)
    return any(found == PurePosixPath(s) or PurePosixPath(s) in found.parents for s in pathspecs)


def _exists(path: Path) -> bool:
    """Whether ``path`` names something; a name the file system cannot hold (over 255
    bytes a component, ``ENAMETOOLONG``) names nothing, as Path.exists says of others."""
    try:
        return path.exists()
    except OSError:
        return False
