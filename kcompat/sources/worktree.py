"""The working tree of a repository: the files as they are on disk, untracked included
(``kcompat diff`` with no HEAD)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from kcompat.sources import in_repo
from kcompat.sources.files import from_here
from kcompat.sources.git import GitRepo
from kcompat.sources.source import SpecSource


@dataclass(frozen=True)
class WorkTreeSource:
    """The working-tree files of ``repo`` (only those under ``subpath`` if given)."""

    repo: GitRepo
    subpath: str = ""
    label: str = "the working tree"
    commit: None = None

    working_tree = True

    @property
    def whole(self) -> bool:
        return not self.subpath

    def read(self, path: str) -> bytes | None:
        return self.repo.read_worktree(path)

    def paths(self, pathspecs: Sequence[str] = ()) -> list[str]:
        specs = [self.subpath] if self.subpath else pathspecs
        return in_repo.live_paths(self.repo, self.repo.changed_in_worktree, specs)

    def changed_since(self, commit: str, pathspecs: Sequence[str] = ()) -> list[str] | None:
        return self.repo.changed_in_worktree(commit, pathspecs)

    def shown(self, path: str) -> str:
        return in_repo.shown(self.repo, path)

    def path_of(self, shown: str) -> str | None:
        return in_repo.path_of(self.repo, shown)

    def reference(self, path: str) -> str:
        return from_here(self.repo.root / path)

    def restricted(self, path: str) -> SpecSource:
        return replace(self, subpath=path)


def working_tree(repo: GitRepo) -> WorkTreeSource:
    """The working tree; a bare repository has none (one line saying what instead)."""
    in_repo.require_tree(repo, "no working tree to compare")
    return WorkTreeSource(repo)
